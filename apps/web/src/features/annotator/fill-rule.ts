/**
 * The "Fill from a series" form's rules (ADR 037), apart from React so they are unit-tested: the comparisons, the
 * form as the request body, and a track name that says the rule.
 */
import type { FieldErrors } from '@/lib/validation';
import type { FillFromSeriesBody } from './api';

export const COMPARISONS = [
  { value: 'lt', sign: '<', label: 'below' },
  { value: 'le', sign: '≤', label: 'at or below' },
  { value: 'gt', sign: '>', label: 'above' },
  { value: 'ge', sign: '≥', label: 'at or above' },
] as const;
export type Comparison = (typeof COMPARISONS)[number]['value'];

export interface FillForm {
  source: string;
  comparison: Comparison;
  /** Numbers as typed. */
  threshold: string;
  minDuration: string;
  mergeGap: string;
  /** `new`, or the uuid of one of the video's tracks. */
  target: string;
  name: string;
  mode: 'replace' | 'merge';
}

export const signOf = (comparison: Comparison) => COMPARISONS.find((c) => c.value === comparison)?.sign ?? '?';

/** "Distance nose–object < 20 px": the series' name, the rule and the unit. */
export function ruleName(seriesName: string, comparison: Comparison, threshold: string, unit: string): string {
  return `${seriesName} ${signOf(comparison)} ${threshold.trim() || '?'} ${unit}`.trim().slice(0, 100);
}

const seconds = (text: string) => (text.trim() === '' ? 0 : Number(text));

/** The form as the body of `fill-from-series/`, or the fields to fix first. */
export function fillBody(
  form: FillForm,
  version: number | undefined,
): { ok: true; body: FillFromSeriesBody } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (!form.source) errors.source_analysis_uuid = ['Choose the series the rule reads.'];
  const threshold = Number(form.threshold);
  if (form.threshold.trim() === '' || !Number.isFinite(threshold)) errors.threshold = ['Enter a number.'];
  const minDuration = seconds(form.minDuration);
  if (!(minDuration >= 0 && minDuration <= 86_400)) errors.min_duration_s = ['Seconds from 0 to 86400.'];
  const mergeGap = seconds(form.mergeGap);
  if (!(mergeGap >= 0 && mergeGap <= 86_400)) errors.merge_gap_s = ['Seconds from 0 to 86400.'];
  if (form.target === 'new' && !form.name.trim()) errors.name = ['Give the new track a name.'];
  if (form.target !== 'new' && version === undefined) {
    errors.annotation_config_uuid = ['The track’s bouts are still loading; try again in a moment.'];
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const rule = {
    source_analysis_uuid: form.source,
    comparison: form.comparison,
    threshold,
    min_duration_s: minDuration,
    merge_gap_s: mergeGap,
  };
  return {
    ok: true,
    body:
      form.target === 'new'
        ? { ...rule, name: form.name.trim() }
        : { ...rule, annotation_config_uuid: form.target, version: version!, mode: form.mode },
  };
}
