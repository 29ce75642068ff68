import { ChevronRight, RotateCcw } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/select';
import {
  ALGORITHMS,
  type Algorithm,
  BIN_FIELD,
  BODY_FIELDS,
  defaultParameterValues,
  EZTRACK_FIELDS,
  type FieldErrors,
  JUMP_FIELD,
  METHODS,
  type Method,
  type NumberField,
  type ParameterValues,
  POLARITIES,
  type Polarity,
  REFERENCE_FIELD,
} from '../parameters';

/**
 * The run's settings, each with one line of help: the tracker, the bins, the reference, and the chosen tracker's
 * own fields folded ("Body tracker settings" or "ezTrack settings"; their defaults suit most videos). Errors (the
 * server's too) per field.
 */
export function ParameterControls({
  values,
  onChange,
  errors,
  disabled,
  trackerSettings = true,
}: {
  values: ParameterValues;
  onChange: (values: ParameterValues) => void;
  errors: FieldErrors;
  disabled?: boolean;
  /** False when the positions come from a pose body part: only the bins and the jumps apply. */
  trackerSettings?: boolean;
}) {
  const algorithm = ALGORITHMS.find((item) => item.value === values.algorithm) ?? ALGORITHMS[0];
  const numberInput = (field: NumberField) => {
    const id = `lt-param-${field.name}`;
    return (
      <Field key={field.name} id={id} label={field.label} description={field.help} errors={errors[field.name]}>
        <Input
          {...fieldAria(id, errors[field.name])}
          type="number"
          inputMode="decimal"
          min={field.min}
          max={field.max}
          step={field.step}
          placeholder={field.defaultValue === null ? (field.emptyMeans ?? 'off') : String(field.defaultValue)}
          value={values.numbers[field.name]}
          onChange={(event) =>
            onChange({ ...values, numbers: { ...values.numbers, [field.name]: event.target.value } })
          }
          data-parameter={field.name}
        />
      </Field>
    );
  };
  const flag = (name: 'use_window' | 'rmv_wire', label: string, help: string) => (
    <div className="flex items-start gap-2">
      <Checkbox
        id={`lt-param-${name}`}
        checked={values[name]}
        onCheckedChange={(checked) => onChange({ ...values, [name]: checked === true })}
        aria-describedby={`lt-param-${name}-description`}
        className="mt-0.5"
      />
      <div className="grid gap-1">
        <Label htmlFor={`lt-param-${name}`}>{label}</Label>
        <p id={`lt-param-${name}-description`} className="text-muted-foreground text-xs">
          {help}
        </p>
      </div>
    </div>
  );

  if (!trackerSettings) {
    return (
      <fieldset className="grid grid-cols-1 gap-5" disabled={disabled}>
        <legend className="sr-only">Settings</legend>
        {numberInput(BIN_FIELD)}
        {numberInput(POSE_JUMP_FIELD)}
      </fieldset>
    );
  }
  return (
    <fieldset className="grid grid-cols-1 gap-5" disabled={disabled}>
      <legend className="sr-only">Settings</legend>
      <Field id="lt-param-algorithm" label="Tracker" description={algorithm.help} errors={errors.algorithm}>
        <NativeSelect
          {...fieldAria('lt-param-algorithm', errors.algorithm)}
          value={values.algorithm}
          onChange={(event) => onChange({ ...values, algorithm: event.target.value as Algorithm })}
        >
          {ALGORITHMS.map((item) => (
            <option key={item.value} value={item.value}>
              {item.label}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {numberInput(BIN_FIELD)}
      {numberInput(JUMP_FIELD)}
      {numberInput(REFERENCE_FIELD)}
      {values.algorithm === 'body_core' ? (
        <Fold key="body" title="Body tracker settings" open={hasError(errors, BODY_NAMES)}>
          <Field
            id="lt-param-polarity"
            label="Animal vs arena"
            description="Which way the animal differs from the arena; “find out” takes it from the first animal found."
            errors={errors.polarity}
          >
            <NativeSelect
              {...fieldAria('lt-param-polarity', errors.polarity)}
              value={values.polarity}
              onChange={(event) => onChange({ ...values, polarity: event.target.value as Polarity })}
            >
              {POLARITIES.map((item) => (
                <option key={item.value} value={item.value}>
                  {item.label}
                </option>
              ))}
            </NativeSelect>
          </Field>
          {BODY_FIELDS.map(numberInput)}
        </Fold>
      ) : (
        <Fold key="eztrack" title="ezTrack settings" open={hasError(errors, EZTRACK_NAMES)}>
          <Field
            id="lt-param-method"
            label="Animal vs arena"
            description="Which difference from the empty arena is the animal."
            errors={errors.method}
          >
            <NativeSelect
              {...fieldAria('lt-param-method', errors.method)}
              value={values.method}
              onChange={(event) => onChange({ ...values, method: event.target.value as Method })}
            >
              {METHODS.map((item) => (
                <option key={item.value} value={item.value}>
                  {item.label}
                </option>
              ))}
            </NativeSelect>
          </Field>
          {numberInput(EZTRACK_FIELDS[0]!)}
          {flag(
            'use_window',
            'Use a window',
            'Look for the animal near its previous position first, so a change elsewhere (a hand, a reflection) does not pull the point away.',
          )}
          {EZTRACK_FIELDS.slice(1, 3).map(numberInput)}
          {flag('rmv_wire', 'Remove wires', 'Erase thin changes such as a tether before taking the centre.')}
          {EZTRACK_FIELDS.slice(3).map(numberInput)}
        </Fold>
      )}
      <div>
        <Button variant="ghost" size="sm" onClick={() => onChange(defaultParameterValues())}>
          <RotateCcw aria-hidden="true" />
          Reset to defaults
        </Button>
      </div>
    </fieldset>
  );
}

/** No tracker measures a body when the positions are a pose body part: an empty jump distance is a share of the picture. */
const POSE_JUMP_FIELD: NumberField = {
  ...JUMP_FIELD,
  help: 'The result lists the frames where the body part moved farther than this since the previous frame with a position, to check them. Empty: a fifth of the picture’s smaller side.',
  emptyMeans: 'a fifth of the picture',
};

const EZTRACK_NAMES = new Set<string>([
  'method',
  'use_window',
  'rmv_wire',
  ...EZTRACK_FIELDS.map((field) => field.name),
]);
const BODY_NAMES = new Set<string>(['polarity', ...BODY_FIELDS.map((field) => field.name)]);
const hasError = (errors: FieldErrors, names: Set<string>) => Object.keys(errors).some((name) => names.has(name));

/** One tracker's own settings, folded: the defaults suit most videos. Opens itself to show an error inside. */
function Fold({ title, open, children }: { title: string; open: boolean; children: React.ReactNode }) {
  return (
    <details className="group rounded-md border p-3" open={open}>
      <summary className="flex cursor-pointer list-none items-center gap-1 font-medium text-sm [&::-webkit-details-marker]:hidden">
        <ChevronRight className="size-4 transition-transform group-open:rotate-90" aria-hidden="true" />
        {title}
      </summary>
      <div className="mt-4 grid grid-cols-1 gap-4">{children}</div>
    </details>
  );
}
