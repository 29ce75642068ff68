import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { type FieldErrors, fieldErrors, hasErrors } from '@/lib/validation';
import { type EventParameters, eventParametersOf } from '../run-actions';

/** The event-detection settings as typed: text, so a half-typed number stays as the user left it. */
export type EventForm = { k: string; threshold: string; refractory: string };

/** A run's or a protocol's stored settings into the form (missing ones take the server's defaults). */
export function eventFormOf(parameters: Record<string, unknown>): EventForm {
  const initial = eventParametersOf(parameters);
  return {
    k: String(initial.event_threshold_k),
    threshold: initial.event_threshold === null ? '' : String(initial.event_threshold),
    refractory: String(initial.refractory_s),
  };
}

/** Checks the form against the server's bounds (ADR 006) and reads it into parameters. */
export function readEventForm(form: EventForm): { errors: FieldErrors; parameters: EventParameters | null } {
  const k = Number(form.k);
  const threshold = form.threshold.trim() === '' ? null : Number(form.threshold);
  const refractory = Number(form.refractory);
  const errors = fieldErrors({
    event_threshold_k:
      form.k.trim() === '' || !Number.isFinite(k) || k < 1 || k > 10 ? 'Give a number from 1 to 10.' : null,
    event_threshold:
      threshold !== null && (!Number.isFinite(threshold) || threshold < 0)
        ? 'Give a number of 0 or more, or leave it empty.'
        : null,
    refractory_s:
      form.refractory.trim() === '' || !Number.isFinite(refractory) || refractory < 0 || refractory > 60
        ? 'Give a number of seconds from 0 to 60.'
        : null,
  });
  return hasErrors(errors)
    ? { errors, parameters: null }
    : { errors, parameters: { event_threshold_k: k, event_threshold: threshold, refractory_s: refractory } };
}

/** Server messages come keyed `parameters.<name>`; the form's fields are the names. */
export function withoutParametersPrefix(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).map(([key, value]) => [key.replace(/^parameters\./, ''), value]));
}

/**
 * Event detection's settings — k, an absolute threshold, the refractory period — each with its help and its
 * errors (the server's too): the re-run dialog of Analysis Logs and a protocol of event detection use it.
 */
export function EventParameterFields({
  idPrefix,
  form,
  onChange,
  errors,
}: {
  /** Ids of the inputs: `${idPrefix}-k`, `-threshold`, `-refractory`. */
  idPrefix: string;
  form: EventForm;
  onChange: (form: EventForm) => void;
  errors: FieldErrors;
}) {
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <>
      <Field
        id={id('k')}
        label="Threshold factor k"
        description="An event starts where the series rises above k × its noise top."
        errors={errors.event_threshold_k}
      >
        <Input
          {...fieldAria(id('k'), errors.event_threshold_k)}
          type="number"
          inputMode="decimal"
          min={1}
          max={10}
          step="any"
          value={form.k}
          onChange={(e) => onChange({ ...form, k: e.target.value })}
        />
      </Field>
      <Field
        id={id('threshold')}
        label="Absolute threshold"
        description="Optional: when set, it replaces k × noise top."
        errors={errors.event_threshold}
      >
        <Input
          {...fieldAria(id('threshold'), errors.event_threshold)}
          type="number"
          inputMode="decimal"
          min={0}
          step="any"
          placeholder="Not set"
          value={form.threshold}
          onChange={(e) => onChange({ ...form, threshold: e.target.value })}
        />
      </Field>
      <Field
        id={id('refractory')}
        label="Refractory period (s)"
        description="Onsets closer than this to the previous event are dropped."
        errors={errors.refractory_s}
      >
        <Input
          {...fieldAria(id('refractory'), errors.refractory_s)}
          type="number"
          inputMode="decimal"
          min={0}
          max={60}
          step="any"
          value={form.refractory}
          onChange={(e) => onChange({ ...form, refractory: e.target.value })}
        />
      </Field>
    </>
  );
}
