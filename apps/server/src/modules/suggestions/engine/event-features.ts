/**
 * What a reviewer sees in an event, as numbers (issue 25): the shape of the run's series around the event's time,
 * scaled by the run's threshold so that videos with different lighting, sizes and noise speak the same units. A model
 * trained on one lab's reviews learns from these; they are computed from the series alone (no video, no pose), the
 * same way for training and for suggesting.
 */
import type { Series } from '../../analysis/engine/events.js';

/** Seconds of series read after the event (its shape) and before it (its baseline and noise). */
export const AFTER_S = 2;
export const BEFORE_S = 1;
/** Gaps to the neighbouring events are capped here (seconds): "far" is all a model needs to know. */
export const NEIGHBOUR_CAP_S = 30;

export const FEATURE_NAMES = [
  'peak_over_threshold',
  'area_over_threshold',
  'time_above_threshold_s',
  'rise_s',
  'decay_s',
  'baseline_over_threshold',
  'noise_over_threshold',
  'previous_event_s',
  'next_event_s',
] as const;

const median = (values: number[]) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** The sample at or after `time` (the series' own times when it has them). */
function sampleAt(series: Series, time: number): number {
  const { values, times } = series;
  if (times === null) return Math.min(values.length - 1, Math.max(0, Math.ceil(time * series.fps - 1e-9)));
  let low = 0;
  let high = times.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((times[mid] as number) < time - 1e-9) low = mid + 1;
    else high = mid;
  }
  return low;
}

const timeOf = (series: Series, index: number) =>
  series.times === null ? index / series.fps : (series.times[index] as number);

/**
 * One row of FEATURE_NAMES per event time (`times` increasing), from the series and the run's threshold (> 0).
 * NaN samples are skipped; an event with no valid sample after it gets zeros for its shape.
 */
export function eventFeatures(series: Series, times: readonly number[], threshold: number): number[][] {
  const scale = threshold > 0 ? threshold : 1;
  return times.map((time, k) => {
    const at = sampleAt(series, time);
    const after: { t: number; v: number }[] = [];
    for (let i = at; i < series.values.length && timeOf(series, i) <= time + AFTER_S + 1e-9; i++) {
      const value = series.values[i] as number;
      if (!Number.isNaN(value)) after.push({ t: timeOf(series, i) - time, v: value });
    }
    const before: number[] = [];
    for (let i = at - 1; i >= 0 && timeOf(series, i) >= time - BEFORE_S - 1e-9; i--) {
      const value = series.values[i] as number;
      if (!Number.isNaN(value)) before.push(value);
    }
    const baseline = median(before);
    const noise = median(before.map((value) => Math.abs(value - baseline)));
    let peak = after[0] ?? { t: 0, v: baseline };
    for (const sample of after) if (sample.v > peak.v) peak = sample;
    let area = 0;
    let above = 0;
    const step = 1 / series.fps;
    for (const sample of after) {
      if (sample.v > threshold) {
        area += ((sample.v - threshold) / scale) * step;
        above += step;
      }
    }
    // Decay: from the peak until the series falls below half-way between the baseline and the peak.
    const half = baseline + (peak.v - baseline) / 2;
    let decay = AFTER_S - peak.t;
    for (const sample of after) {
      if (sample.t > peak.t && sample.v < half) {
        decay = sample.t - peak.t;
        break;
      }
    }
    const previous = k > 0 ? Math.min(NEIGHBOUR_CAP_S, time - (times[k - 1] as number)) : NEIGHBOUR_CAP_S;
    const next = k < times.length - 1 ? Math.min(NEIGHBOUR_CAP_S, (times[k + 1] as number) - time) : NEIGHBOUR_CAP_S;
    return [peak.v / scale, area, above, peak.t, decay, baseline / scale, noise / scale, previous, next];
  });
}
