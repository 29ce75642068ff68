/**
 * Calibration (ADR 010): for a run's stored series and a reference scoring, score every setting of a sweep.
 *
 * Events: each setting (threshold = k × noise top, or an absolute threshold; a refractory period) detects events
 * exactly as a run would (engine/events.ts), and is scored by F1 against the reference at tolerance τ. What does
 * not depend on the setting is computed once: the noise top, and the frames that can be an onset at all — a frame
 * rises above threshold θ when its value is above θ and its predecessor's is not, i.e. when θ lies in
 * [previous value, value); only frames rising above the sweep's lowest threshold are kept, and each setting reads
 * those alone. Best: the highest F1; ties go to the smaller mean |Δt|, then to the earlier setting of the sweep.
 *
 * Freezing: each setting (freeze threshold × minimum duration) gives the % of valid frames freezing per bin, exactly
 * as a run's freezing summary (engine/freezing.ts); the reference gives the % of the same frames inside its ranges.
 * Scored by Pearson's r and the slope of the detected % on the reference % over the bins, and by their mean absolute
 * difference. Still runs are found once per threshold and only credited per minimum duration. Best: the smallest mean
 * absolute difference; ties go to the higher r, then to the earlier setting.
 */
import { noiseTop, type Series, sampleTime } from '../../analysis/engine/events.js';
import { eventScores } from './event-agreement.js';
import { binnedFit, fitCaveat } from './interval-agreement.js';
import { matchEvents } from './matching.js';
import { coverage, type SliceGrid, timeBins } from './slices.js';

/** The same tolerance events.ts gives the refractory comparison (times like 0.1 s in binary). */
const REFRACTORY_EPSILON = 1e-9;
/** freezing.ts's: 0.5 s at 30 fps is 15 frames, not 16. */
const FRAMES_EPSILON = 1e-9;

/** from, from + step, …, up to `to` (inclusive, with rounding noise absorbed), each rounded to 10 decimals. */
export function sweepValues(range: { from: number; to: number; step: number }): number[] {
  const count = Math.floor((range.to - range.from) / range.step + 1e-9) + 1;
  return Array.from({ length: Math.max(0, count) }, (_, i) => Number((range.from + i * range.step).toFixed(10)));
}

export interface EventSweepInput {
  series: Series;
  reference: Float64Array;
  toleranceS: number;
  /** k values (threshold = k × noise top) or absolute thresholds. */
  mode: 'k' | 'threshold';
  values: number[];
  refractories: number[];
}

export interface EventPoint {
  event_threshold_k: number | null;
  threshold: number;
  refractory_s: number;
  events: number;
  tp: number;
  fp: number;
  fn: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  /** Mean onset error (candidate − reference) over the pairs. */
  onset_error_mean_s: number | null;
  /** Mean |Δt| over the pairs (the tie-break). */
  mean_abs_error_s: number | null;
}

export interface EventSweep {
  noiseTop: number;
  points: EventPoint[];
  best: number;
}

/** Frames that can be an onset at a threshold ≥ `lowest`: their time, their predecessor's value (−∞ after a gap or
 * at the start) and their value. Frame i is an onset at θ exactly when previous ≤ θ < value. */
function risingFrames(series: Series, lowest: number) {
  const { values } = series;
  let count = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    const before = i === 0 ? Number.NaN : values[i - 1]!;
    if (value > lowest && (Number.isNaN(before) || before < value)) count++;
  }
  const times = new Float64Array(count);
  const previous = new Float64Array(count);
  const current = new Float64Array(count);
  for (let i = 0, c = 0; i < values.length; i++) {
    const value = values[i]!;
    const before = i === 0 ? Number.NaN : values[i - 1]!;
    if (!(value > lowest && (Number.isNaN(before) || before < value))) continue;
    times[c] = sampleTime(series, i);
    previous[c] = Number.isNaN(before) ? Number.NEGATIVE_INFINITY : before;
    current[c++] = value;
  }
  return { times, previous, current };
}

/** The onsets at `threshold` (times, in order) into `out`; answers how many. */
function onsetsAt(rises: ReturnType<typeof risingFrames>, threshold: number, out: Float64Array): number {
  const { times, previous, current } = rises;
  let count = 0;
  for (let c = 0; c < times.length; c++) {
    if (current[c]! > threshold && !(previous[c]! > threshold)) out[count++] = times[c]!;
  }
  return count;
}

/** The onsets kept by the refractory period, as events.ts keeps them, into `out`; answers how many. */
function keepApart(onsets: Float64Array, onsetCount: number, refractory: number, out: Float64Array): number {
  const minimumGap = refractory - REFRACTORY_EPSILON;
  let count = 0;
  let last = Number.NaN;
  for (let o = 0; o < onsetCount; o++) {
    const time = onsets[o]!;
    if (count === 0 || !(time - last < minimumGap)) {
      out[count++] = time;
      last = time;
    }
  }
  return count;
}

export function sweepEvents(input: EventSweepInput): EventSweep {
  const { series, reference } = input;
  const sortedReference = Float64Array.from(reference).sort();
  const top = noiseTop(series);
  const thresholds = input.values.map((value) => (input.mode === 'k' ? value * top : value));
  const rises = risingFrames(series, Math.min(...thresholds));
  const onsets = new Float64Array(rises.times.length);
  const kept = new Float64Array(rises.times.length);
  const points: EventPoint[] = [];
  thresholds.forEach((threshold, t) => {
    const onsetCount = onsetsAt(rises, threshold, onsets);
    for (const refractory of input.refractories) {
      const count = keepApart(onsets, onsetCount, refractory, kept);
      const matching = matchEvents(sortedReference, kept.subarray(0, count), input.toleranceS, { presorted: true });
      let signed = 0;
      for (const [r, c] of matching.pairs) signed += matching.candidate[c]! - matching.reference[r]!;
      const pairs = matching.pairs.length;
      points.push({
        event_threshold_k: input.mode === 'k' ? input.values[t]! : null,
        threshold,
        refractory_s: refractory,
        events: count,
        ...eventScores(pairs, reference.length, count),
        onset_error_mean_s: pairs > 0 ? signed / pairs : null,
        mean_abs_error_s: pairs > 0 ? matching.totalMicroseconds / pairs / 1e6 : null,
      });
    }
  });
  return { noiseTop: top, points, best: bestEventPoint(points) };
}

/** The highest F1; ties: the smaller mean |Δt|, then the earlier point. */
function bestEventPoint(points: EventPoint[]): number {
  let best = 0;
  points.forEach((point, index) => {
    const leader = points[best]!;
    const f1 = point.f1 ?? -1;
    const leaderF1 = leader.f1 ?? -1;
    const error = point.mean_abs_error_s ?? Number.POSITIVE_INFINITY;
    const leaderError = leader.mean_abs_error_s ?? Number.POSITIVE_INFINITY;
    if (f1 > leaderF1 || (f1 === leaderF1 && error < leaderError)) best = index;
  });
  return best;
}

/** The default freezing sweep: from 0 to twice the series' noise top, in this many steps. */
export const DEFAULT_FREEZE_STEPS = 40;

export interface FreezingSweepInput {
  values: Float64Array;
  fps: number;
  reference: ArrayLike<readonly [number, number]>;
  /** 'auto': the default sweep, from 0 to twice the noise top (the quiet motion level) in DEFAULT_FREEZE_STEPS steps. */
  thresholds: number[] | 'auto';
  minDurations: number[];
  binS: number;
}

export interface FreezingPoint {
  freeze_threshold: number;
  min_freeze_s: number;
  /** % of valid frames freezing over the whole series. */
  percent: number | null;
  pearson_r: number | null;
  slope: number | null;
  mean_abs_diff: number | null;
}

export interface FreezingSweep {
  points: FreezingPoint[];
  best: number;
  /** The bins of the best setting: the reference's and the detected % of valid frames. */
  bins: { start_s: number; end_s: number; reference_percent: number | null; candidate_percent: number | null }[];
  /** % of valid frames inside the reference's ranges, and their time in seconds. */
  referencePercent: number | null;
  referenceSeconds: number;
  validFrames: number;
  /** Bins with at least one valid frame (r needs three to mean anything). */
  binsWithData: number;
}

export function sweepFreezing(input: FreezingSweepInput): FreezingSweep {
  const { values, fps } = input;
  const n = values.length;
  const grid: SliceGrid = { count: n, sliceS: 1 / fps, fps };
  const bins = timeBins(grid, input.binS);
  const inReference = coverage(grid, input.reference);
  const validPerBin = new Float64Array(bins.count);
  const referencePerBin = new Float64Array(bins.count);
  const binStart = new Int32Array(bins.count + 1).fill(n);
  let validFrames = 0;
  let referenceFrames = 0;
  for (let i = n - 1; i >= 0; i--) binStart[bins.of[i]!] = i;
  for (let k = bins.count - 1; k >= 0; k--) binStart[k] = Math.min(binStart[k]!, binStart[k + 1]!);
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(values[i])) continue;
    validFrames++;
    validPerBin[bins.of[i]!]! += 1;
    if (inReference[i]) {
      referenceFrames++;
      referencePerBin[bins.of[i]!]! += 1;
    }
  }
  const percentOf = (count: number, valid: number) => (valid === 0 ? null : (count / valid) * 100);
  const referenceBins = Array.from(validPerBin, (valid, k) => percentOf(referencePerBin[k]!, valid));

  const points: FreezingPoint[] = [];
  const pointBins: (number | null)[][] = [];
  const freezingPerBin = new Float64Array(bins.count);
  const runStarts = new Int32Array(n);
  const runLengths = new Int32Array(n);
  for (const threshold of freezeThresholds(input)) {
    const runs = stillRuns(values, threshold, runStarts, runLengths);
    for (const minDuration of input.minDurations) {
      const minFrames = Math.max(1, Math.ceil(minDuration * fps - FRAMES_EPSILON));
      const freezingFrames = creditRuns(runs, runStarts, runLengths, minFrames, bins.of, binStart, freezingPerBin);
      const detected = Array.from(validPerBin, (valid, k) => percentOf(freezingPerBin[k]!, valid));
      const fit = binnedFit(
        detected.map((candidate, k) => ({ reference_percent: referenceBins[k]!, candidate_percent: candidate })),
      );
      points.push({
        freeze_threshold: threshold,
        min_freeze_s: minDuration,
        percent: percentOf(freezingFrames, validFrames),
        pearson_r: fit.r,
        slope: fit.slope,
        mean_abs_diff: fit.meanAbsDiff,
      });
      pointBins.push(detected);
    }
  }

  let best = 0;
  points.forEach((point, index) => {
    const leader = points[best]!;
    const diff = point.mean_abs_diff ?? Number.POSITIVE_INFINITY;
    const leaderDiff = leader.mean_abs_diff ?? Number.POSITIVE_INFINITY;
    const r = point.pearson_r ?? Number.NEGATIVE_INFINITY;
    const leaderR = leader.pearson_r ?? Number.NEGATIVE_INFINITY;
    if (diff < leaderDiff || (diff === leaderDiff && r > leaderR)) best = index;
  });
  return {
    points,
    best,
    bins: bins.edges.map(([start_s, end_s], k) => ({
      start_s,
      end_s,
      reference_percent: referenceBins[k]!,
      candidate_percent: pointBins[best]?.[k] ?? null,
    })),
    referencePercent: percentOf(referenceFrames, validFrames),
    referenceSeconds: referenceFrames / fps,
    validFrames,
    binsWithData: validPerBin.filter((valid) => valid > 0).length,
  };
}

function freezeThresholds(input: FreezingSweepInput): number[] {
  if (input.thresholds !== 'auto') return input.thresholds;
  const top = noiseTop({ values: input.values, times: null, fps: input.fps });
  return top > 0 ? sweepValues({ from: 0, to: 2 * top, step: (2 * top) / DEFAULT_FREEZE_STEPS }) : [0];
}

/** Runs of valid frames at or below the threshold (a NaN frame breaks a run) into starts/lengths; answers how many. */
function stillRuns(values: Float64Array, threshold: number, starts: Int32Array, lengths: Int32Array): number {
  let runs = 0;
  let length = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (value <= threshold) {
      if (length === 0) starts[runs] = i;
      length++;
    } else if (length > 0) {
      lengths[runs++] = length;
      length = 0;
    }
  }
  if (length > 0) lengths[runs++] = length;
  return runs;
}

/** Adds the frames of the runs at least `minFrames` long to their bins (zeroed first); answers their total. */
function creditRuns(
  runs: number,
  starts: Int32Array,
  lengths: Int32Array,
  minFrames: number,
  binOf: Uint32Array,
  binStart: Int32Array,
  perBin: Float64Array,
): number {
  perBin.fill(0);
  let total = 0;
  for (let run = 0; run < runs; run++) {
    const length = lengths[run]!;
    if (length < minFrames) continue;
    total += length;
    let frame = starts[run]!;
    const end = frame + length;
    let bin = binOf[frame]!;
    while (frame < end) {
      const upTo = Math.min(end, binStart[bin + 1]!);
      perBin[bin]! += upTo - frame;
      frame = upTo;
      bin++;
    }
  }
  return total;
}

/** The reference thresholds of the issue: fewer than 10 events, or less than 10 s or more than 90% of the time. */
export const THIN_REFERENCE = { minEvents: 10, minSeconds: 10, maxShare: 0.9 } as const;

const figure = (value: number, digits: number) => String(Number(value.toFixed(digits)));

export function eventWarnings(referenceEvents: number): string[] {
  return referenceEvents < THIN_REFERENCE.minEvents
    ? [
        `The reference has only ${referenceEvents} event${referenceEvents === 1 ? '' : 's'} (fewer than ${THIN_REFERENCE.minEvents}): too few to trust the best setting.`,
      ]
    : [];
}

export function freezingWarnings(sweep: FreezingSweep): string[] {
  const warnings: string[] = [];
  const share = sweep.referencePercent === null ? 0 : sweep.referencePercent / 100;
  if (sweep.referenceSeconds < THIN_REFERENCE.minSeconds) {
    warnings.push(
      `The reference holds only ${figure(sweep.referenceSeconds, 1)} s of the behaviour (less than ${THIN_REFERENCE.minSeconds} s): too little to trust the best setting.`,
    );
  }
  if (share > THIN_REFERENCE.maxShare) {
    warnings.push(
      `The reference is in the behaviour ${figure(share * 100, 1)}% of the time (more than ${THIN_REFERENCE.maxShare * 100}%): too little contrast to trust the best setting.`,
    );
  }
  const caveat = fitCaveat(sweep.binsWithData);
  if (caveat) warnings.push(caveat);
  return warnings;
}

/**
 * Why the best event setting is no recommendation, or null when it is one: a setting that matches none of the
 * reference's events (F1 0, TP 0) finds nothing, however it ranks, and applying it would only look like calibration.
 */
export function eventNoRecommendation(sweep: EventSweep, referenceEvents: number, toleranceS: number): string | null {
  const best = sweep.points[sweep.best];
  if (best && best.tp > 0) return null;
  if (sweep.points.every((p) => p.events === 0)) {
    return 'No setting of the sweep detects any event, so none is recommended: sweep lower thresholds.';
  }
  return `No setting finds any of the reference’s ${referenceEvents} event${referenceEvents === 1 ? '' : 's'} within ±${toleranceS} s (F1 0 everywhere), so none is recommended: check that the reference scores this video, or widen the sweep or the tolerance.`;
}

/** Why the best freezing setting is no recommendation (it detects no freezing at all), or null when it is one. */
export function freezingNoRecommendation(sweep: FreezingSweep): string | null {
  const best = sweep.points[sweep.best];
  if (best && best.percent !== null && best.percent > 0) return null;
  return 'No setting of the sweep detects any freezing, so none is recommended: sweep higher freeze thresholds or shorter minimum durations.';
}
