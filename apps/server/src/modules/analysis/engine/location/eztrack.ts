/**
 * The `eztrack` tracker (issue 22): ezTrack's Location Tracking (`Locate` in denisecailab/ezTrack,
 * LocationTracking/LocationTracking_Functions.py, with `TrackLocation`'s loop around it), frame by frame, to the
 * bit where numpy's order of operations fixes the result. Per frame:
 *   1. dif = reference − gray ("dark"), gray − reference ("light") or |gray − reference| ("abs"), in float64
 *      (the reference is a float median), then `.astype('int16')`: truncated toward zero;
 *   2. pixels of the exclusion mask set to 0;
 *   3. from the run's second frame, with use_window: dif shifted by −min(dif) (int16), then multiplied by float64
 *      weights: 1 inside rows [y − h, y + h) × columns [x − h, x + h) (h = ⌊window_size/2⌋, (x, y) the previous
 *      position rounded half to even, lower bounds clipped at 0, numpy slicing), 1 − window_weight elsewhere.
 *      After a frame without a position ezTrack rounds NaN: on x86-64 that is INT64_MIN, the square is empty and
 *      every pixel takes 1 − window_weight — what we do (on ARM it is 0: a square at the top-left corner);
 *   4. values below np.percentile(dif, loc_thresh) (linear interpolation, numpy's _lerp; compared in float64) set to 0;
 *   5. rmv_wire: cv2.morphologyEx(dif, MORPH_OPEN, ones(wire_krn × wire_krn)); if the result sums to 0 the
 *      frame before the opening is kept;
 *   6. position = scipy.ndimage.center_of_mass(dif) = (Σv·row/Σv, Σv·col/Σv) with numpy's pairwise sums, as
 *      (x, y) = (col, row): pixel index c is x = c. Σv = 0 (NaN, or ±inf when signed values cancel) is no position.
 * Without the window the values stay int16 (they can be negative where loc_thresh's percentile is ≤ 0, and take
 * part in the centre of mass with their sign, as in ezTrack); with it they are float64. Every sum over int16
 * values is exact, so only the windowed frames depend on the summation order, which PairwiseMoments follows
 * (numpy < 2.3's: 8192-element chunks, each pairwise). Checked bit for bit against numpy 1.24 + OpenCV 4.6 running
 * ezTrack's steps on generated arenas (1086 frames, 39 settings, frames without position included).
 *
 * Per frame: two passes over the pixels (difference with its histograms, then threshold), the percentile from
 * those histograms (no sort: at most 2 × 511 distinct values), the opening by four van Herk passes, and the sums.
 * Buffers are allocated once.
 */
import {
  interpolate,
  lineScratch,
  numpySliceBounds,
  openingInto,
  PairwiseMoments,
  percentileRanks,
  roundHalfEven,
} from './eztrack-numerics.js';
import type { EztrackParameters, FrameTracker, Point, TrackerHandoff } from './tracker.js';

/** The eztrack hand-off: the previous position and whether a frame came before (the window starts after one). */
export interface EztrackHandoff extends TrackerHandoff {
  started: boolean;
}

export interface EztrackTrackerOptions {
  parameters: EztrackParameters;
  /** The median reference (referenceFrames/medianReference), width × height. */
  reference: Float32Array;
  width: number;
  height: number;
  /** Non-zero where the tracker ignores the difference (exclusion regions, polygonsMask), or none. */
  exclusionMask?: Uint8Array | null;
  /** Where the previous piece stopped; none for the first frame of the video. */
  handoff?: TrackerHandoff | null;
}

/** The parameter ranges the tracker accepts (the API checks them first and answers 400). */
export function eztrackParameterErrors(parameters: EztrackParameters): string[] {
  const errors: string[] = [];
  const p = parameters;
  if (!(p.loc_thresh >= 0 && p.loc_thresh <= 100)) errors.push('loc_thresh must be between 0 and 100');
  if (!(Number.isInteger(p.window_size) && p.window_size >= 0)) errors.push('window_size must be a whole number ≥ 0');
  if (!(p.window_weight >= 0 && p.window_weight <= 1)) errors.push('window_weight must be between 0 and 1');
  if (!(Number.isInteger(p.wire_krn) && p.wire_krn >= 1)) errors.push('wire_krn must be a whole number ≥ 1');
  if (!(Number.isInteger(p.reference_frames) && p.reference_frames >= 1)) {
    errors.push('reference_frames must be a whole number ≥ 1');
  }
  if (p.method !== 'abs' && p.method !== 'light' && p.method !== 'dark')
    errors.push('method must be abs, light or dark');
  return errors;
}

/** Distinct int16 differences: −255 … 255. */
const BINS = 511;
const OFFSET = 255;

export function createEztrackTracker(options: EztrackTrackerOptions): FrameTracker {
  const { parameters, reference, width, height } = options;
  const errors = eztrackParameterErrors(parameters);
  if (errors.length > 0) throw new RangeError(errors.join('; '));
  const size = width * height;
  if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) {
    throw new RangeError(`frame size ${width}×${height}`);
  }
  if (reference.length !== size) throw new RangeError(`the reference has ${reference.length} pixels, not ${size}`);
  const mask = options.exclusionMask ?? null;
  if (mask && mask.length !== size) throw new RangeError(`the exclusion mask has ${mask.length} pixels, not ${size}`);

  const method = parameters.method;
  const outsideWeight = 1 - parameters.window_weight; // Python float arithmetic, as ezTrack's `weight`
  const half = Math.floor(parameters.window_size / 2);
  const k = parameters.wire_krn;
  const opening = parameters.rmv_wire && k > 1; // a 1 × 1 opening is the identity

  let previous: Point | null = options.handoff?.previous ?? null;
  let started = options.handoff?.started === true || previous !== null;

  const difference = new Int16Array(size);
  const values = new Float64Array(size);
  const inside = new Uint32Array(BINS);
  const outside = new Uint32Array(BINS);
  const moments = new PairwiseMoments();
  const excluded = maskIndices(mask);
  // The opening runs on the box around the non-zero values (grown by 2k: outside it the opening is 0 and the
  // box's own edges act like no border), then lands in `opened`, which is kept 0 outside the last box.
  const opened = opening ? new Float64Array(size) : values;
  const box = opening ? new Float64Array(size) : values;
  const boxOpened = opening ? new Float64Array(size) : values;
  const boxBetween = opening ? new Float64Array(size) : values;
  const scratch = lineScratch(Math.max(width, height), k);
  let openedBox = { left: 0, top: 0, width: 0, height: 0 };

  /** The value at `rank` in the sorted frame: inside values (bin − 255 + shift), outside ones times the weight. */
  function valueAtRank(rank: number, windowed: boolean, shift: number): number {
    let i = 0;
    let j = 0;
    let seen = 0;
    for (;;) {
      while (i < BINS && inside[i] === 0) i++;
      while (j < BINS && outside[j] === 0) j++;
      const inValue = i < BINS ? i - OFFSET + shift : Number.POSITIVE_INFINITY;
      const outValue =
        j < BINS ? (windowed ? (j - OFFSET + shift) * outsideWeight : j - OFFSET) : Number.POSITIVE_INFINITY;
      if (inValue <= outValue) {
        seen += inside[i] as number;
        if (seen > rank) return inValue;
        i++;
      } else {
        seen += outside[j] as number;
        if (seen > rank) return outValue;
        j++;
      }
    }
  }

  /** Steps 1–2: the int16 difference (|0 truncates toward zero as astype('int16'), and makes −0 a 0), its histogram. */
  function differenceOf(frame: Uint8Array) {
    if (method === 'dark') {
      for (let i = 0; i < size; i++) difference[i] = ((reference[i] as number) - (frame[i] as number)) | 0;
    } else if (method === 'light') {
      for (let i = 0; i < size; i++) difference[i] = ((frame[i] as number) - (reference[i] as number)) | 0;
    } else {
      for (let i = 0; i < size; i++) difference[i] = Math.abs((frame[i] as number) - (reference[i] as number)) | 0;
    }
    outside.fill(0);
    for (let i = 0; i < size; i++) outside[(difference[i] as number) + OFFSET]!++;
    for (let n = 0; n < excluded.length; n++) {
      const i = excluded[n] as number;
      outside[(difference[i] as number) + OFFSET]!--;
      outside[OFFSET]!++;
      difference[i] = 0;
    }
  }

  // The box of the values left after the threshold (rows top…bottom, columns left…right), from thresholdRow.
  let top = 0;
  let bottom = 0;
  let left = 0;
  let right = 0;

  /** Step 3–4 on columns [from, to) of row y: (d + shift)·scale, then 0 below the threshold. */
  function thresholdRow(y: number, from: number, to: number, shift: number, scale: number, threshold: number) {
    const base = y * width;
    for (let x = from; x < to; x++) {
      let v = ((difference[base + x] as number) + shift) * scale; // × 1 is exact: unweighted values stay whole
      if (v < threshold) v = 0;
      values[base + x] = v;
      if (v !== 0) {
        if (y < top) top = y;
        bottom = y;
        if (x < left) left = x;
        if (x > right) right = x;
      }
    }
  }

  /** Step 5 on the box; false when the opening leaves a sum of 0 (ezTrack then keeps the frame before it). */
  function openBox(): boolean {
    const margin = 2 * k;
    const x0 = Math.max(0, left - margin);
    const y0 = Math.max(0, top - margin);
    const w = Math.min(width, right + 1 + margin) - x0;
    const h = Math.min(height, bottom + 1 + margin) - y0;
    for (let y = 0; y < h; y++) box.set(values.subarray((y0 + y) * width + x0, (y0 + y) * width + x0 + w), y * w);
    openingInto(box, boxOpened, boxBetween, w, h, k, scratch);
    let sum = 0;
    for (let i = 0; i < w * h; i++) sum += boxOpened[i] as number; // exact for int16 values; ≥ 0 otherwise
    if (sum === 0) return false;
    for (let y = 0; y < openedBox.height; y++) {
      const start = (openedBox.top + y) * width + openedBox.left;
      opened.fill(0, start, start + openedBox.width);
    }
    for (let y = 0; y < h; y++) opened.set(boxOpened.subarray(y * w, y * w + w), (y0 + y) * width + x0);
    openedBox = { left: x0, top: y0, width: w, height: h };
    return true;
  }

  function track(frame: Uint8Array): Point | null {
    if (frame.length < size) throw new RangeError(`a frame has ${frame.length} bytes, expected ${size}`);
    const windowed = parameters.use_window && started;
    // The square (empty when there is no previous position, as ezTrack's NaN prior gives on x86-64).
    let rowStart = 0;
    let rowEnd = 0;
    let columnStart = 0;
    let columnEnd = 0;
    if (windowed && previous) {
      const y = roundHalfEven(previous.y);
      const x = roundHalfEven(previous.x);
      [rowStart, rowEnd] = numpySliceBounds(y - half, y + half, height);
      [columnStart, columnEnd] = numpySliceBounds(x - half, x + half, width);
    }

    differenceOf(frame);
    let lowest = 0;
    while (outside[lowest] === 0) lowest++;
    inside.fill(0);
    for (let y = rowStart; y < rowEnd; y++) {
      for (let x = columnStart, i = y * width + columnStart; x < columnEnd; x++, i++) {
        const bin = (difference[i] as number) + OFFSET;
        outside[bin]!--;
        inside[bin]!++;
      }
    }
    const shift = windowed ? OFFSET - lowest : 0; // −min(dif)
    const ranks = percentileRanks(size, parameters.loc_thresh);
    const threshold = interpolate(
      valueAtRank(ranks.low, windowed, shift),
      valueAtRank(ranks.high, windowed, shift),
      ranks.t,
    );

    top = height;
    bottom = -1;
    left = width;
    right = -1;
    const scale = windowed ? outsideWeight : 1;
    for (let y = 0; y < height; y++) {
      if (y >= rowStart && y < rowEnd && columnEnd > columnStart) {
        thresholdRow(y, 0, columnStart, shift, scale, threshold);
        thresholdRow(y, columnStart, columnEnd, shift, 1, threshold);
        thresholdRow(y, columnEnd, width, shift, scale, threshold);
      } else {
        thresholdRow(y, 0, width, shift, scale, threshold);
      }
    }

    let chosen = values;
    let first = bottom < 0 ? -1 : top * width + left;
    let last = bottom < 0 ? -1 : bottom * width + right;
    if (opening && bottom >= 0 && openBox()) {
      chosen = opened;
      first = openedBox.top * width + openedBox.left;
      last = (openedBox.top + openedBox.height - 1) * width + openedBox.left + openedBox.width - 1;
    }

    // Step 6; the span only skips blocks of zeros, which changes no bit of numpy's sums.
    moments.sum(chosen, width, first, last);
    const y = moments.rows / moments.total + 0; // + 0 turns a −0 into 0
    const x = moments.columns / moments.total + 0;
    started = true;
    previous = Number.isFinite(x) && Number.isFinite(y) ? { x, y } : null;
    return previous ? { x, y } : null;
  }

  return {
    track,
    handoff: (): EztrackHandoff => ({ previous: previous ? { x: previous.x, y: previous.y } : null, started }),
  };
}

/** The indices of a mask's non-zero pixels. */
function maskIndices(mask: Uint8Array | null): Int32Array {
  if (!mask) return new Int32Array(0);
  let count = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] !== 0) count++;
  const indices = new Int32Array(count);
  for (let i = 0, n = 0; i < mask.length; i++) if (mask[i] !== 0) indices[n++] = i;
  return indices;
}
