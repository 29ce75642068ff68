import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/select';
import type { PoseSet } from '@/features/pose/api';
import { partsOf } from '@/features/pose/derived-series';
import type { FieldErrors, ParameterValues, PoseSourceValues, PositionFrom } from '../parameters';

/** A pose source on a set: its first individual, and the nose when it has one (the novel-object assay's part). */
export function poseSourceOn(set: PoseSet, current: PoseSourceValues): PoseSourceValues {
  const individual = set.individuals.length > 1 ? (set.individuals[0] ?? '') : '';
  const parts = partsOf(set, individual || (set.individuals[0] ?? ''));
  return { ...current, poseUuid: set.pose_uuid, individual, part: parts.includes('nose') ? 'nose' : (parts[0] ?? '') };
}

/**
 * "Position from": the video tracker, or a body part of one of the video's pose sets (ADR 037) — then its set,
 * individual and part, the likelihood cutoff and the longest gap filled. Shown when the video has pose sets.
 */
export function PositionSource({
  sets,
  values,
  onChange,
  errors,
}: {
  sets: readonly PoseSet[];
  values: ParameterValues;
  onChange: (values: ParameterValues) => void;
  errors: FieldErrors;
}) {
  const set = sets.find((item) => item.pose_uuid === values.pose.poseUuid) ?? null;
  const pose = values.pose;
  const setPose = (next: Partial<PoseSourceValues>) => onChange({ ...values, pose: { ...pose, ...next } });
  const choose = (position: PositionFrom) => {
    const newest = sets.at(-1);
    onChange({
      ...values,
      position,
      pose: position === 'pose' && !set && newest ? poseSourceOn(newest, pose) : pose,
    });
  };
  const individual = pose.individual || (set?.individuals[0] ?? '');
  return (
    <div className="grid grid-cols-1 gap-4" data-testid="position-source">
      <Field
        id="lt-position"
        label="Position from"
        description={
          values.position === 'pose'
            ? 'The body part’s points from the pose file, frame by frame: no tracker, no reference.'
            : 'The video tracker finds the animal in the picture.'
        }
      >
        <NativeSelect
          id="lt-position"
          value={values.position}
          onChange={(event) => choose(event.target.value as PositionFrom)}
        >
          <option value="tracker">Video tracker</option>
          <option value="pose">Pose body part</option>
        </NativeSelect>
      </Field>
      {values.position === 'pose' ? (
        <div className="grid grid-cols-1 gap-4 rounded-md border p-3">
          {sets.length > 1 || !set ? (
            <Field id="lt-pose-set" label="Pose set">
              <NativeSelect
                id="lt-pose-set"
                value={set?.pose_uuid ?? ''}
                onChange={(event) => {
                  const next = sets.find((item) => item.pose_uuid === event.target.value);
                  if (next) setPose(poseSourceOn(next, pose));
                }}
              >
                {set ? null : <option value="">Choose…</option>}
                {sets.map((item) => (
                  <option key={item.pose_uuid} value={item.pose_uuid}>
                    {item.name}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          ) : null}
          {set && set.individuals.length > 1 ? (
            <Field id="lt-pose-individual" label="Individual">
              <NativeSelect
                id="lt-pose-individual"
                value={individual}
                onChange={(event) =>
                  setPose({ individual: event.target.value, part: partsOf(set, event.target.value)[0] ?? '' })
                }
              >
                {set.individuals.map((item) => (
                  <option key={item} value={item}>
                    {item}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          ) : null}
          <Field id="lt-pose-part" label="Body part">
            <NativeSelect
              id="lt-pose-part"
              value={pose.part}
              onChange={(event) => setPose({ part: event.target.value })}
            >
              {pose.part ? null : <option value="">Choose…</option>}
              {(set ? partsOf(set, individual) : [pose.part]).map((part) => (
                <option key={part} value={part}>
                  {part}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <div className="grid grid-cols-2 gap-3">
            <Field id="lt-pose-cutoff" label="Likelihood cutoff" description="A point below it is missing.">
              <Input
                id="lt-pose-cutoff"
                type="number"
                inputMode="decimal"
                min={0}
                max={1}
                step={0.05}
                value={pose.cutoff}
                onChange={(event) => setPose({ cutoff: event.target.value })}
              />
            </Field>
            <Field id="lt-pose-gap" label="Fill gaps up to (frames)" description="Longer ones have no position.">
              <Input
                id="lt-pose-gap"
                type="number"
                inputMode="numeric"
                min={0}
                step={1}
                value={pose.maxGap}
                onChange={(event) => setPose({ maxGap: event.target.value })}
              />
            </Field>
          </div>
          {errors.source?.length ? (
            <p role="alert" className="text-destructive text-xs">
              {errors.source.join(' ')}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
