import { useId, useState } from 'react';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/select';
import type { PoseSet } from '../api';
import { individualColour } from '../pose-shapes';

/**
 * The "Pose" controls beside a player: which set is drawn (when the video has several), whether it is drawn, the
 * likelihood cutoff, the body parts shown and the individuals' colours. Native inputs, so that the pages' player
 * keys (Space, arrows, track keys) leave them alone.
 */
export function PosePanel({
  sets,
  set,
  onSelect,
  shown,
  onShown,
  cutoff,
  onCutoff,
  hidden,
  onTogglePart,
  status,
}: {
  sets: PoseSet[];
  set: PoseSet;
  onSelect: (poseUuid: string) => void;
  shown: boolean;
  onShown: (shown: boolean) => void;
  cutoff: number;
  onCutoff: (cutoff: number) => void;
  hidden: ReadonlySet<string>;
  onTogglePart: (bodypart: string) => void;
  /** A note on loading the frames (an error), or null. */
  status: string | null;
}) {
  const id = useId();
  const [cutoffText, setCutoffText] = useState(String(cutoff));
  const cutoffValid = isCutoff(cutoffText);
  return (
    <section aria-label="Pose" className="grid gap-3 text-sm" data-testid="pose-panel">
      <div className="flex items-center justify-between gap-2">
        <h3 className="font-medium">Pose</h3>
        <label className="flex items-center gap-2 text-muted-foreground">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={shown}
            onChange={(event) => onShown(event.target.checked)}
          />
          Show on video
        </label>
      </div>
      {sets.length > 1 ? (
        <div className="grid gap-1">
          <label htmlFor={`${id}-set`} className="text-muted-foreground text-xs">
            Pose set
          </label>
          <NativeSelect id={`${id}-set`} value={set.pose_uuid} onChange={(event) => onSelect(event.target.value)}>
            {sets.map((item) => (
              <option key={item.pose_uuid} value={item.pose_uuid}>
                {item.name}
              </option>
            ))}
          </NativeSelect>
        </div>
      ) : (
        <p className="truncate text-muted-foreground text-xs" title={set.name}>
          {set.name}
        </p>
      )}
      {set.has_likelihood ? (
        <div className="grid gap-1">
          <label htmlFor={`${id}-cutoff`} className="text-muted-foreground text-xs">
            Likelihood cutoff (points below it are hidden)
          </label>
          <Input
            id={`${id}-cutoff`}
            type="number"
            inputMode="decimal"
            min={0}
            max={1}
            step={0.05}
            value={cutoffText}
            aria-invalid={!cutoffValid || undefined}
            onChange={(event) => {
              setCutoffText(event.target.value);
              if (isCutoff(event.target.value)) onCutoff(Number(event.target.value));
            }}
            className="h-8 w-28"
          />
          {cutoffValid ? null : <p className="text-destructive text-xs">A number from 0 to 1.</p>}
        </div>
      ) : null}
      <fieldset className="grid gap-1">
        <legend className="mb-1 text-muted-foreground text-xs">Body parts</legend>
        <div className="grid max-h-48 grid-cols-[repeat(auto-fill,minmax(7rem,1fr))] gap-x-3 gap-y-1 overflow-y-auto">
          {set.bodyparts.map((part) => (
            <label key={part} className="flex min-w-0 items-center gap-2">
              <input
                type="checkbox"
                className="size-4 shrink-0 accent-primary"
                checked={!hidden.has(part)}
                onChange={() => onTogglePart(part)}
              />
              <span className="truncate">{part}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {set.individuals.length > 1 || set.individuals[0] !== 'single' ? (
        <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs" aria-label="Individuals">
          {set.individuals.map((individual) => (
            <li key={individual} className="flex items-center gap-1.5">
              <span
                className="size-2.5 rounded-full"
                style={{ backgroundColor: individualColour(set, individual) }}
                aria-hidden="true"
              />
              {individual}
            </li>
          ))}
        </ul>
      ) : null}
      {set.edges.length === 0 ? (
        <p className="text-muted-foreground text-xs">This set has no skeleton: points only.</p>
      ) : null}
      {status ? (
        <p role="alert" className="text-destructive text-xs">
          {status}
        </p>
      ) : null}
    </section>
  );
}

function isCutoff(text: string): boolean {
  const value = Number(text);
  return text.trim() !== '' && Number.isFinite(value) && value >= 0 && value <= 1;
}
