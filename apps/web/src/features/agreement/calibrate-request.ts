/**
 * The Calibrate panel's form: its starting values from the run, the request it sends (or the fields that cannot be
 * sent), and where the server's field errors belong on it. Pure, so unit-tested.
 */
import type { AnalysisRun } from '@/features/analysis/api';
import type { CalibrateBody } from './api';
import { type Scoring, scoringRequest } from './scorings';

export type Target = 'events' | 'freezing';

export interface SweepForm {
  target: Target;
  mode: 'k' | 'threshold';
  from: string;
  to: string;
  step: string;
  /** Comma-separated seconds. */
  refractory: string;
  tolerance: string;
  freezeFrom: string;
  freezeTo: string;
  freezeStep: string;
  minimums: string;
  bin: string;
}

const numberOr = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

export function initialForm(run: Pick<AnalysisRun, 'parameters'>): SweepForm {
  const parameters = run.parameters;
  return {
    target: 'events',
    mode: 'k',
    from: '1',
    to: '10',
    step: '0.1',
    refractory: String(numberOr(parameters.refractory_s, 0.5)),
    tolerance: '0.2',
    freezeFrom: '',
    freezeTo: '',
    freezeStep: '',
    minimums: '0.5, 1, 2',
    bin: String(numberOr(parameters.bin_s, 60)),
  };
}

/** The request body, or the message of each field that cannot be sent. */
export function calibrateBody(
  form: SweepForm,
  reference: Scoring,
): { body: CalibrateBody } | { errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const side = scoringRequest(reference);
  if (!side) errors.reference = ['Choose the reference scoring.'];
  const num = (text: string, field: string) => {
    const value = text.trim() === '' ? Number.NaN : Number(text);
    if (!Number.isFinite(value)) errors[field] = ['A number.'];
    return value;
  };
  const list = (text: string, field: string) => {
    const values = text
      .split(/[,;\s]+/)
      .filter(Boolean)
      .map(Number);
    if (values.length === 0 || values.some((v) => !Number.isFinite(v)))
      errors[field] = ['Numbers separated by commas.'];
    return values;
  };
  let body: Record<string, unknown>;
  if (form.target === 'events') {
    const range = { from: num(form.from, 'from'), to: num(form.to, 'to'), step: num(form.step, 'step') };
    body = {
      target: 'events',
      [form.mode]: range,
      refractory_s: list(form.refractory, 'refractory_s'),
      tolerance_s: num(form.tolerance, 'tolerance_s'),
    };
  } else {
    const given = [form.freezeFrom, form.freezeTo, form.freezeStep].some((t) => t.trim() !== '');
    body = {
      target: 'freezing',
      ...(given
        ? {
            freeze_threshold: {
              from: num(form.freezeFrom, 'from'),
              to: num(form.freezeTo, 'to'),
              step: num(form.freezeStep, 'step'),
            },
          }
        : {}),
      min_freeze_s: list(form.minimums, 'min_freeze_s'),
      bin_s: num(form.bin, 'bin_s'),
    };
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { body: { reference: side!, ...body } as CalibrateBody };
}

/** Server field names → the panel's (`k.from` → `from`, `freeze_threshold.step` → `step`…). */
export function localField(field: string): string {
  const [head, tail] = field.split('.');
  if ((head === 'k' || head === 'threshold' || head === 'freeze_threshold') && tail) return tail;
  if (head === 'k' || head === 'threshold' || head === 'freeze_threshold') return 'from';
  return head === 'reference' ? 'reference' : field;
}
