import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import type { VideoRef } from '@/features/analysis/api';
import { useActiveProject } from '@/features/projects/hooks/active-project-context';
import { scorerApi } from '@/features/scorers/api';
import type { AgreementReport } from '../api';
import type { Scoring } from '../scorings';
import { figure } from './agreement-figures';

type Decisions = NonNullable<AgreementReport['decisions']>;

/** The scorer a side's value comes from when the consensus takes it: a blind scorer's id, null for the consensus. */
function sourceOf(scoring: Scoring): number | null | undefined {
  if (scoring.kind === 'scorer') return scoring.userId ?? undefined;
  if (scoring.kind === 'run_reviewed' && !scoring.label) return null;
  return undefined;
}

/**
 * Agreement on the review decisions of one run's two scorings (ADR 014): each detected event kept or discarded by
 * each side, Cohen's kappa of that table, and the consensus view — each difference settled by taking one side's
 * decision into the consensus (who settled it is kept).
 */
export function DecisionFiguresView({
  decisions,
  videoRef,
  reference,
  candidate,
  onResolved,
}: {
  decisions: Decisions;
  videoRef: VideoRef;
  reference: Scoring;
  candidate: Scoring;
  onResolved: () => void;
}) {
  const { project } = useActiveProject();
  const canEdit = project ? project.role !== 'viewer' && project.status !== 'locked' : false;
  const analysisUuid = reference.analysisUuid ?? '';
  const resolve = useMutation({
    mutationFn: ({ eventId, scorerId }: { eventId: number; scorerId: number | null }) =>
      scorerApi.resolve(videoRef, analysisUuid, eventId, scorerId),
    onSuccess: (_answer, { eventId }) => {
      toast.success(`Event ${eventId} settled in the consensus.`);
      onResolved();
    },
  });
  const rows: [string, number][] = [
    ['Kept by both', decisions.both_kept],
    ['Kept by R only', decisions.reference_only_kept],
    ['Kept by C only', decisions.candidate_only_kept],
    ['Discarded by both', decisions.both_discarded],
  ];
  const sides = [
    { name: 'R', source: sourceOf(reference) },
    { name: 'C', source: sourceOf(candidate) },
  ] as const;
  const kept = (value: boolean) => (value ? 'kept' : 'discarded');
  return (
    <section aria-labelledby="decision-figures" className="grid grid-cols-1 gap-2" data-testid="decision-figures">
      <h3 id="decision-figures" className="font-medium text-sm">
        Review decisions{' '}
        <span className="font-normal text-muted-foreground">(each detected event kept or discarded)</span>
      </h3>
      <p className="text-sm" data-testid="decision-kappa">
        Cohen’s κ <strong className="tabular-nums">{figure(decisions.kappa)}</strong> · agreement{' '}
        <strong className="tabular-nums">
          {decisions.percent_agreement == null ? '—' : `${figure(decisions.percent_agreement, 1)}%`}
        </strong>
        <span className="block text-muted-foreground text-xs">
          κ: how far the two agree on keeping or discarding beyond what chance gives (1 = always, 0 = as chance).
        </span>
      </p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
        {rows.map(([name, value]) => (
          <div key={name}>
            <dt className="text-muted-foreground text-xs">{name}</dt>
            <dd className="tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      {decisions.differences.length > 0 ? (
        <div className="grid gap-1" data-testid="consensus-view">
          <h4 className="font-medium text-sm">Consensus: settle the differences</h4>
          <ul className="grid gap-1 text-sm">
            {decisions.differences.map((difference) => (
              <li
                key={difference.event_id}
                className="flex flex-wrap items-center gap-2"
                data-testid={`difference-${difference.event_id}`}
              >
                <span className="font-mono tabular-nums">{difference.time.toFixed(3)} s</span>
                <span>
                  event {difference.event_id}: R {kept(difference.reference_kept)}, C {kept(difference.candidate_kept)}
                </span>
                {difference.resolved_by ? (
                  <span className="text-muted-foreground text-xs">settled by {difference.resolved_by}</span>
                ) : null}
                {canEdit
                  ? sides.map((side) =>
                      side.source === undefined ? null : (
                        <Button
                          key={side.name}
                          size="sm"
                          variant="outline"
                          disabled={resolve.isPending}
                          onClick={() =>
                            resolve.mutate({ eventId: difference.event_id, scorerId: side.source ?? null })
                          }
                        >
                          Take {side.name}’s
                        </Button>
                      ),
                    )
                  : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
