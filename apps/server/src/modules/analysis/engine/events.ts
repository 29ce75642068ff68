/**
 * Event detection on a per-frame series (motion index, imported signal, …).
 *
 * Product decision, implemented exactly:
 * - Noise band: time is cut into 100 ms bins, bin b = floor(time / 0.1), computed as
 *   Math.floor(time * 10 + 1e-9) so that a time landing on a bin edge in decimal (frame 3 at 30 fps = 0.1 s)
 *   falls in the bin it starts rather than the previous one. The top of a bin is the maximum of its valid
 *   (non-NaN) values; bins without a valid value are ignored. noiseTop is the median of the bin tops (mean of
 *   the two middle ones for an even count), 0 when there is no valid value. The median, unlike the mean,
 *   stays put when movement fills a minority of the bins.
 * - threshold = event_threshold when it is not null, else event_threshold_k × noiseTop.
 * - Onset: a sample strictly above the threshold whose previous sample is not above it, is NaN, or does not
 *   exist. NaN is never above the threshold.
 * - Refractory: an onset is dropped when it comes less than refractory_s (with 1e-9 s tolerance) after the
 *   previous kept onset. A dropped crossing does not restart the refractory period.
 *
 * Parameters are validated by the caller; this module only computes. Times must be non-decreasing (the CSV
 * parser guarantees strictly increasing imported times; derived times i / fps are increasing).
 */

export interface EventDetectionParameters {
  /** 1–10, default 3: threshold = k × noise top. */
  event_threshold_k: number;
  /** Absolute threshold; when not null it overrides k. */
  event_threshold: number | null;
  /** ≥ 0, default 0.5: minimum time between two event onsets. */
  refractory_s: number;
}

/** A series: values[i] is sample i (NaN = no value, e.g. a bypassed frame). Time of sample i is times[i] when times is given, else i / fps. */
export interface Series {
  values: Float64Array;
  times: Float64Array | null;
  fps: number;
}

export interface DetectedEvents {
  threshold: number;
  noiseTop: number;
  /** Sample indices, increasing. */
  onsets: Int32Array;
}

const NOISE_BIN_PER_SECOND = 10;
/** Absorbs the decimal-to-binary error of times like 0.1 s so they land in the bin they start. */
const BIN_EPSILON = 1e-9;
/** Tolerance on the refractory comparison, for the same reason. */
const REFRACTORY_EPSILON = 1e-9;

function assertTimesMatch(series: Series): void {
  if (series.times !== null && series.times.length !== series.values.length) {
    throw new RangeError(
      `Series times (${series.times.length}) and values (${series.values.length}) differ in length.`,
    );
  }
}

export function sampleTime(series: Series, index: number): number {
  return series.times === null ? index / series.fps : (series.times[index] ?? Number.NaN);
}

export function noiseTop(series: Series): number {
  assertTimesMatch(series);
  const { values, times, fps } = series;
  const count = values.length;
  let tops: Float64Array = new Float64Array(64);
  let topCount = 0;
  let haveBin = false;
  let currentBin = 0;
  let currentTop = 0;

  for (let i = 0; i < count; i++) {
    const value = values[i]!;
    if (Number.isNaN(value)) continue;
    const time = times === null ? i / fps : times[i]!;
    const bin = Math.floor(time * NOISE_BIN_PER_SECOND + BIN_EPSILON);
    if (!haveBin || bin !== currentBin) {
      if (haveBin) {
        if (topCount === tops.length) tops = grow(tops);
        tops[topCount++] = currentTop;
      }
      haveBin = true;
      currentBin = bin;
      currentTop = value;
    } else if (value > currentTop) {
      currentTop = value;
    }
  }
  if (!haveBin) return 0;
  if (topCount === tops.length) tops = grow(tops);
  tops[topCount++] = currentTop;

  const sorted = tops.subarray(0, topCount).sort();
  const middle = topCount >> 1;
  const median = topCount % 2 === 1 ? sorted[middle]! : meanOfTwo(sorted[middle - 1]!, sorted[middle]!);
  // Adding +0 turns a −0 (a bin whose top is −0) into 0, so the same numbers always give the same answer.
  return median + 0;
}

export function detectEvents(series: Series, parameters: EventDetectionParameters): DetectedEvents {
  const top = noiseTop(series);
  const threshold = parameters.event_threshold ?? parameters.event_threshold_k * top;
  const { values, times, fps } = series;
  const count = values.length;
  const minimumGap = parameters.refractory_s - REFRACTORY_EPSILON;

  let onsets: Int32Array = new Int32Array(64);
  let onsetCount = 0;
  let lastKeptTime = Number.NaN;
  // NaN > threshold is false, so a NaN sample both never starts an event and lets the next one start.
  let previousAbove = false;

  for (let i = 0; i < count; i++) {
    const above = values[i]! > threshold;
    if (above && !previousAbove) {
      const time = times === null ? i / fps : times[i]!;
      if (onsetCount === 0 || !(time - lastKeptTime < minimumGap)) {
        if (onsetCount === onsets.length) onsets = growInt(onsets);
        onsets[onsetCount++] = i;
        lastKeptTime = time;
      }
    }
    previousAbove = above;
  }

  return { threshold, noiseTop: top, onsets: onsets.slice(0, onsetCount) };
}

function meanOfTwo(a: number, b: number): number {
  const mean = (a + b) / 2;
  // (a + b) overflows only near Number.MAX_VALUE; halving first is then exact enough.
  return Number.isFinite(mean) ? mean : a / 2 + b / 2;
}

function grow(array: Float64Array): Float64Array {
  const larger = new Float64Array(array.length * 2);
  larger.set(array);
  return larger;
}

function growInt(array: Int32Array): Int32Array {
  const larger = new Int32Array(array.length * 2);
  larger.set(array);
  return larger;
}
