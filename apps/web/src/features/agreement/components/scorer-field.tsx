import { useQuery } from '@tanstack/react-query';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/select';
import type { VideoRef } from '@/features/analysis/api';
import { scorerQueries } from '@/features/scorers/api';

/** Whose blind scoring of the run a side reads (ADR 014). */
export function ScorerField({
  id,
  videoRef,
  analysisUuid,
  userId,
  onChange,
}: {
  id: string;
  videoRef: VideoRef;
  analysisUuid: string;
  userId: number | null;
  onChange: (userId: number | null) => void;
}) {
  const scorers = useQuery(scorerQueries.list(videoRef, analysisUuid));
  const list = scorers.data?.scorers ?? [];
  return (
    <Field id={id} label="Scorer" description="Their own decisions, made without seeing anyone else’s.">
      <NativeSelect
        id={id}
        value={userId === null ? '' : String(userId)}
        onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
      >
        <option value="">
          {scorers.isLoading ? 'Loading…' : list.length === 0 ? 'Nobody scores this run blind' : 'Choose a scorer'}
        </option>
        {list.map((scorer) => (
          <option key={scorer.user.id} value={scorer.user.id}>
            {scorer.user.display_name} · {scorer.decided} decided
          </option>
        ))}
      </NativeSelect>
    </Field>
  );
}
