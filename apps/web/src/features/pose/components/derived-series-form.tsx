import { Loader2, Play } from 'lucide-react';
import type { FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/select';
import type { PoseSet } from '../api';
import {
  choiceKey,
  choiceOf,
  type FormErrors,
  formFor,
  MEASURES,
  type Measure,
  partOptions,
  rolesOf,
  SCALE_UNITS,
  type ScaleUnit,
  type SeriesForm,
} from '../derived-series';

/**
 * The derived-series builder: the pose set, the measure (speed, distance, angle), a body part for each of the
 * measure's roles — "individual · part" when the set has several individuals, so a measure can take parts of
 * different ones (ADR 037) —, the likelihood cutoff and the longest gap filled, and optionally a scale for real
 * units. Errors (the server's too) under their fields.
 */
export function DerivedSeriesForm({
  sets,
  form,
  onChange,
  errors,
  onSubmit,
  pending,
  disabled,
}: {
  sets: readonly PoseSet[];
  form: SeriesForm;
  onChange: (form: SeriesForm) => void;
  errors: FormErrors;
  onSubmit: () => void;
  pending: boolean;
  /** Viewers and locked or draft projects: the settings show, nothing runs. */
  disabled: boolean;
}) {
  const set = sets.find((item) => item.pose_uuid === form.poseUuid) ?? sets.at(-1);
  if (!set) return null;
  const roles = rolesOf(form.measure);
  const options = partOptions(set);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  const select = (
    id: string,
    label: string,
    value: string,
    options: readonly { value: string; label: string }[],
    change: (value: string) => void,
    error?: string[],
  ) => (
    <Field key={id} id={id} label={label} errors={error}>
      <NativeSelect
        {...fieldAria(id, error)}
        className="w-full"
        value={value}
        onChange={(event) => change(event.target.value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </Field>
  );

  return (
    <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4" data-testid="derived-series-form">
      <fieldset className="grid grid-cols-1 gap-4" disabled={disabled}>
        <legend className="sr-only">Derived series</legend>
        {sets.length > 1
          ? select(
              'ds-set',
              'Pose set',
              set.pose_uuid,
              sets.map((item) => ({ value: item.pose_uuid, label: item.name })),
              (uuid) => onChange(formFor(sets.find((item) => item.pose_uuid === uuid)!, form.measure)),
              errors.pose_uuid,
            )
          : null}
        {select(
          'ds-measure',
          'Measure',
          form.measure,
          MEASURES,
          (measure) => onChange({ ...form, measure: measure as Measure }),
          errors.measure,
        )}
        <fieldset className="grid grid-cols-1 gap-3">
          <legend className="sr-only">Body parts</legend>
          {roles.map((role, index) =>
            select(
              `ds-part-${index}`,
              role,
              form.parts[index] ? choiceKey(form.parts[index]) : '',
              [{ value: '', label: 'Choose…' }, ...options],
              (key) => {
                const next = [...form.parts];
                next[index] = choiceOf(key);
                onChange({ ...form, parts: next });
              },
            ),
          )}
        </fieldset>
        {errors.parts?.length ? (
          <p role="alert" className="-mt-2 text-destructive text-xs">
            {errors.parts.join(' ')}
          </p>
        ) : null}
        <div className="grid grid-cols-2 gap-3">
          <Field
            id="ds-cutoff"
            label="Likelihood cutoff"
            description="A point below it is missing."
            errors={errors.likelihood_cutoff}
          >
            <Input
              {...fieldAria('ds-cutoff', errors.likelihood_cutoff)}
              type="number"
              inputMode="decimal"
              min={0}
              max={1}
              step={0.05}
              value={form.cutoff}
              onChange={(event) => onChange({ ...form, cutoff: event.target.value })}
            />
          </Field>
          <Field
            id="ds-gap"
            label="Fill gaps up to (frames)"
            description="Shorter runs of missing points are interpolated."
            errors={errors.max_gap_frames}
          >
            <Input
              {...fieldAria('ds-gap', errors.max_gap_frames)}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              value={form.maxGap}
              onChange={(event) => onChange({ ...form, maxGap: event.target.value })}
            />
          </Field>
        </div>
        {form.measure !== 'angle' ? (
          <fieldset className="grid grid-cols-1 gap-2 rounded-md border p-3">
            <legend className="px-1 font-medium text-sm">Real units (optional)</legend>
            <div className="grid grid-cols-[1fr_1fr_5rem] items-end gap-2">
              <Field id="ds-scale-px" label="Pixels">
                <Input
                  {...fieldAria('ds-scale-px', errors.scale)}
                  type="number"
                  inputMode="decimal"
                  min={0}
                  step="any"
                  placeholder="e.g. 120"
                  value={form.scalePx}
                  onChange={(event) => onChange({ ...form, scalePx: event.target.value })}
                />
              </Field>
              <Field id="ds-scale-true" label="are">
                <Input
                  {...fieldAria('ds-scale-true', errors.scale)}
                  type="number"
                  inputMode="decimal"
                  min={0}
                  step="any"
                  placeholder="e.g. 5"
                  value={form.scaleTrue}
                  onChange={(event) => onChange({ ...form, scaleTrue: event.target.value })}
                />
              </Field>
              <NativeSelect
                aria-label="Unit"
                value={form.scaleUnit}
                onChange={(event) => onChange({ ...form, scaleUnit: event.target.value as ScaleUnit })}
              >
                {SCALE_UNITS.map((unit) => (
                  <option key={unit} value={unit}>
                    {unit}
                  </option>
                ))}
              </NativeSelect>
            </div>
            {errors.scale?.length ? (
              <p role="alert" className="text-destructive text-xs">
                {errors.scale.join(' ')}
              </p>
            ) : (
              <p className="text-muted-foreground text-xs">Speed and distance in this unit instead of pixels.</p>
            )}
          </fieldset>
        ) : null}
      </fieldset>
      <div>
        <Button type="submit" disabled={disabled || pending}>
          {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Play aria-hidden="true" />}
          Compute series
        </Button>
      </div>
    </form>
  );
}
