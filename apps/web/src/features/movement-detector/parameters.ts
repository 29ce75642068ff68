import { ApiError } from '@/lib/api-client';

/**
 * The movement-detection parameters the user sets, with the server's ranges and defaults
 * (apps/server analysis.schemas.ts; definitions in docs/decisions/006-analysis-engine.md).
 */
export type ParameterName =
  | 'threshold'
  | 'opening'
  | 'closing'
  | 'small_object_removal'
  | 'event_threshold_k'
  | 'event_threshold'
  | 'refractory_s'
  | 'freeze_threshold'
  | 'min_freeze_s'
  | 'bin_s';

export interface ParameterField {
  name: ParameterName;
  label: string;
  /** One line of help, ranges included. */
  help: string;
  min: number;
  /** Undefined: no upper bound in the form. */
  max?: number;
  step: number;
  integer: boolean;
  /** Null: optional, empty by default. */
  defaultValue: number | null;
  group: 'detection' | 'events' | 'freezing';
}

export const PARAMETER_FIELDS: readonly ParameterField[] = [
  {
    name: 'threshold',
    label: 'Threshold',
    help: 'Gray-level change of a pixel’s 3×3 mean that counts as movement (0–255, default 20).',
    min: 0,
    max: 255,
    step: 1,
    integer: true,
    defaultValue: 20,
    group: 'detection',
  },
  {
    name: 'opening',
    label: 'Opening',
    help: 'Square size in pixels of an opening that removes specks of change (0–10000, 0 = off).',
    min: 0,
    max: 10000,
    step: 1,
    integer: true,
    defaultValue: 0,
    group: 'detection',
  },
  {
    name: 'closing',
    label: 'Closing',
    help: 'Square size in pixels of a closing that fills small gaps (0–10000, 0 = off).',
    min: 0,
    max: 10000,
    step: 1,
    integer: true,
    defaultValue: 0,
    group: 'detection',
  },
  {
    name: 'small_object_removal',
    label: 'Small-object removal',
    help: 'Changed regions smaller than this many pixels are dropped (0–100000000, 0 = off).',
    min: 0,
    max: 100_000_000,
    step: 1,
    integer: true,
    defaultValue: 0,
    group: 'detection',
  },
  {
    name: 'event_threshold_k',
    label: 'Event threshold (k × noise)',
    help: 'An event is a rise above k times the noise top, the median of 100 ms maxima (1–10, default 3).',
    min: 1,
    max: 10,
    step: 0.1,
    integer: false,
    defaultValue: 3,
    group: 'events',
  },
  {
    name: 'event_threshold',
    label: 'Absolute event threshold',
    help: 'Changed pixels above which a frame starts an event; when set, it overrides k (optional).',
    min: 0,
    step: 1,
    integer: false,
    defaultValue: null,
    group: 'events',
  },
  {
    name: 'refractory_s',
    label: 'Refractory period (s)',
    help: 'Events closer than this to the previous one are dropped (0–60 s, default 0.5).',
    min: 0,
    max: 60,
    step: 0.1,
    integer: false,
    defaultValue: 0.5,
    group: 'events',
  },
  {
    name: 'freeze_threshold',
    label: 'Freeze threshold',
    help: 'Frames at or below this many changed pixels are still; empty = no freezing summary (optional).',
    min: 0,
    step: 1,
    integer: false,
    defaultValue: null,
    group: 'freezing',
  },
  {
    name: 'min_freeze_s',
    label: 'Minimum freeze (s)',
    help: 'Still runs shorter than this do not count as freezing (0–3600 s, default 1).',
    min: 0,
    max: 3600,
    step: 0.1,
    integer: false,
    defaultValue: 1,
    group: 'freezing',
  },
  {
    name: 'bin_s',
    label: 'Bin length (s)',
    help: 'Length of the time bins of the freezing summary (more than 0 s, default 60).',
    min: 0,
    step: 1,
    integer: false,
    defaultValue: 60,
    group: 'freezing',
  },
];

/** The fields as typed: text, so a half-typed number is kept as the user left it. */
export type ParameterValues = Record<ParameterName, string>;
export type ParameterNumbers = Record<ParameterName, number | null>;
export type FieldErrors = Partial<Record<string, string[]>>;

export function defaultParameterValues(): ParameterValues {
  return Object.fromEntries(
    PARAMETER_FIELDS.map((field) => [field.name, field.defaultValue === null ? '' : String(field.defaultValue)]),
  ) as ParameterValues;
}

/** A run's stored parameters back into the fields; missing or odd values give the default. */
export function parameterValuesFromRun(parameters: Record<string, unknown>): ParameterValues {
  const values = defaultParameterValues();
  for (const field of PARAMETER_FIELDS) {
    const value = parameters[field.name];
    if (typeof value === 'number' && Number.isFinite(value)) values[field.name] = String(value);
    else if (value === null && field.defaultValue === null) values[field.name] = '';
  }
  return values;
}

/**
 * The fields as numbers. Only what the browser can tell is checked here (a number is needed); ranges are the
 * server's to check, and its messages come back per field.
 */
export function parseParameterValues(
  values: ParameterValues,
): { ok: true; parameters: ParameterNumbers } | { ok: false; errors: FieldErrors } {
  const parameters = {} as ParameterNumbers;
  const errors: FieldErrors = {};
  for (const field of PARAMETER_FIELDS) {
    const text = values[field.name].trim();
    if (text === '') {
      if (field.defaultValue === null) parameters[field.name] = null;
      else errors[field.name] = ['Enter a number.'];
      continue;
    }
    const value = Number(text);
    if (!Number.isFinite(value)) errors[field.name] = ['Enter a number.'];
    else parameters[field.name] = value;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, parameters };
}

/**
 * A failed call's field errors keyed by parameter name: the server names them `parameters.<name>`
 * (`parameters.rois`, `parameters.bypass_ranges` too); other keys are kept as they are.
 */
export function serverFieldErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiError)) return {};
  const out: FieldErrors = {};
  for (const [key, messages] of Object.entries(error.fieldErrors)) {
    const name = key.startsWith('parameters.') ? key.slice('parameters.'.length) : key;
    out[name] = [...(out[name] ?? []), ...messages];
  }
  return out;
}
