/**
 * Bouts from a rule on a series (ADR 037): "the nose within 2 cm of the object" is the bouts where a run's value is
 * below 2. Pure, so every rule is unit-tested. The definition, in video frames (frame f is shown from f / fps to
 * (f + 1) / fps, as the Annotator's bouts):
 *
 * 1. Frame f *meets* the rule when its value is a number and `value <op> threshold` (< ≤ > ≥). A frame without a value
 *    (a missing pose point, a bypassed frame) does not.
 * 2. Each run of consecutive frames that meet it, a to b, is a bout [a / fps, (b + 1) / fps].
 * 3. Two bouts whose gap (the frames between them) is *shorter* than `merge_gap_s` become one, gap included.
 * 4. Then the bouts shorter than `min_duration_s` are left out: a kept bout lasts at least that long.
 * Merging comes first, so a bout broken by a moment of doubt counts whole. Lengths are compared in frames
 * (gap frames / fps against the setting) with 1e-9 s to spare, so 0.1 s is 3 frames at 30 fps, not 2.999….
 */
import type { TimeRange } from '../../lib/time-ranges.js';

export const COMPARISONS = ['lt', 'le', 'gt', 'ge'] as const;
export type Comparison = (typeof COMPARISONS)[number];
export const COMPARISON_SIGNS: Record<Comparison, string> = { lt: '<', le: '≤', gt: '>', ge: '≥' };

export interface SeriesRule {
  comparison: Comparison;
  threshold: number;
  /** Bouts shorter than this (seconds) are left out, after merging. */
  min_duration_s: number;
  /** Gaps shorter than this (seconds) between two bouts are closed. */
  merge_gap_s: number;
}

/** Absorbs decimal-to-binary error in seconds (as the location summary's bins). */
const EPSILON = 1e-9;

const meets: Record<Comparison, (value: number, threshold: number) => boolean> = {
  lt: (value, threshold) => value < threshold,
  le: (value, threshold) => value <= threshold,
  gt: (value, threshold) => value > threshold,
  ge: (value, threshold) => value >= threshold,
};

/** The rule's bouts over `values` (one per video frame at `fps`), sorted, at least a frame apart. */
export function boutsFromSeries(values: Float64Array, fps: number, rule: SeriesRule): TimeRange[] {
  if (!(fps > 0)) throw new RangeError(`fps must be a positive number, got ${fps}.`);
  const test = meets[rule.comparison];
  // Frame runs [first, end) that meet the rule, gaps shorter than merge_gap_s closed as they are found.
  const runs: [number, number][] = [];
  let start = -1;
  for (let f = 0; f <= values.length; f++) {
    const value = f < values.length ? values[f]! : Number.NaN;
    const hit = !Number.isNaN(value) && test(value, rule.threshold);
    if (hit && start === -1) start = f;
    if (hit || start === -1) continue;
    const last = runs.at(-1);
    if (last && (start - last[1]) / fps < rule.merge_gap_s - EPSILON) last[1] = f;
    else runs.push([start, f]);
    start = -1;
  }
  return runs
    .filter(([first, end]) => (end - first) / fps >= rule.min_duration_s - EPSILON)
    .map(([first, end]) => [first / fps, end / fps]);
}

/** Two lists of bouts as one: bouts that overlap become one, as the Annotator merges; touching ones stay two. */
export function unionRanges(a: readonly TimeRange[], b: readonly TimeRange[]): TimeRange[] {
  const all = [...a, ...b].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  const out: TimeRange[] = [];
  for (const [start, end] of all) {
    const last = out.at(-1);
    if (last && start < last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}
