/**
 * What the Calibrate panel draws and says of a calibration: the curves (one per refractory period, or per minimum
 * duration) of a score over the swept threshold, the best setting's point, and the best setting in words.
 */

import { countOf } from '@/lib/format';
import type { CalibrationResult, EventCalibration, FreezingCalibration } from './api';

export type EventMetric = 'f1' | 'precision' | 'recall';
export type FreezingMetric = 'mean_abs_diff' | 'pearson_r' | 'slope';

export const METRIC_LABELS: Record<EventMetric | FreezingMetric, string> = {
  f1: 'F1',
  precision: 'Precision',
  recall: 'Recall',
  mean_abs_diff: 'Mean |detected − reference| (% points)',
  pearson_r: 'r',
  slope: 'Slope',
};

export interface Curves {
  x: number[];
  series: { label: string; values: (number | null)[] }[];
  xLabel: string;
  yLabel: string;
  marker: { x: number; y: number } | null;
  yRange: [number, number] | null;
}

const n = (value: number, digits = 3) => String(Number(value.toFixed(digits)));

function group<Point>(
  points: readonly Point[],
  xOf: (p: Point) => number,
  lineOf: (p: Point) => number,
  scoreOf: (p: Point) => number | null,
  lineLabel: (line: number) => string,
) {
  const x = [...new Set(points.map(xOf))].sort((a, b) => a - b);
  const lines = [...new Set(points.map(lineOf))].sort((a, b) => a - b);
  const xIndex = new Map(x.map((value, i) => [value, i]));
  const series = lines.map((line) => ({
    label: lineLabel(line),
    values: new Array<number | null>(x.length).fill(null),
  }));
  const lineIndex = new Map(lines.map((value, i) => [value, i]));
  for (const point of points) series[lineIndex.get(lineOf(point))!]!.values[xIndex.get(xOf(point))!] = scoreOf(point);
  return { x, series };
}

export function eventCurves(result: EventCalibration, metric: EventMetric): Curves {
  const xOf = (p: EventCalibration['points'][number]) =>
    result.sweep === 'k' ? (p.event_threshold_k ?? 0) : p.threshold;
  const { x, series } = group(
    result.points,
    xOf,
    (p) => p.refractory_s,
    (p) => p[metric],
    (r) => `refractory ${n(r)} s`,
  );
  const best = result.best ? result.points[result.best.index] : undefined;
  const bestValue = best?.[metric] ?? null;
  return {
    x,
    series,
    xLabel: result.sweep === 'k' ? 'k (threshold = k × noise top)' : 'threshold',
    yLabel: METRIC_LABELS[metric],
    marker: best && bestValue !== null ? { x: xOf(best), y: bestValue } : null,
    yRange: [0, 1],
  };
}

export function freezingCurves(result: FreezingCalibration, metric: FreezingMetric): Curves {
  const { x, series } = group(
    result.points,
    (p) => p.freeze_threshold,
    (p) => p.min_freeze_s,
    (p) => p[metric],
    (d) => `minimum ${n(d)} s`,
  );
  const best = result.best ? result.points[result.best.index] : undefined;
  const bestValue = best?.[metric] ?? null;
  return {
    x,
    series,
    xLabel: 'freeze threshold',
    yLabel: METRIC_LABELS[metric],
    marker: best && bestValue !== null ? { x: best.freeze_threshold, y: bestValue } : null,
    yRange: metric === 'pearson_r' ? [-1, 1] : null,
  };
}

/** The best setting and its scores, in one line; null when the server recommends none (`no_recommendation`). */
export function bestSummary(result: CalibrationResult): string | null {
  if (!result.best) return null;
  const fig = (value: number | null, digits = 3) => (value === null ? '—' : n(value, digits));
  if (result.target === 'events') {
    const p = result.points[result.best.index]!;
    const setting =
      p.event_threshold_k !== null
        ? `k = ${n(p.event_threshold_k)} (threshold ${n(p.threshold)})`
        : `threshold ${n(p.threshold)}`;
    return `${setting}, refractory ${n(p.refractory_s)} s: F1 ${fig(p.f1)} (TP ${p.tp}, FP ${p.fp}, FN ${p.fn}), ${countOf(p.events, 'event')}`;
  }
  const p = result.points[result.best.index]!;
  return `freeze threshold ${n(p.freeze_threshold)}, minimum ${n(p.min_freeze_s)} s: mean |difference| ${fig(p.mean_abs_diff, 2)} % points, r ${fig(p.pearson_r)}, slope ${fig(p.slope)}, ${fig(p.percent, 1)}% freezing`;
}
