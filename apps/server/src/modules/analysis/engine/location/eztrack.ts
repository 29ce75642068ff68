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
 *   4. values below np.percentile(dif, loc_thresh) (linear interpolation, numpy ≥ 1.22's formula) set to 0;
 *   5. rmv_wire: cv2.morphologyEx(dif, MORPH_OPEN, ones(wire_krn × wire_krn)); if the result sums to 0 the
 *      frame before the opening is kept;
 *   6. position = scipy.ndimage.center_of_mass(dif) = (Σv·row/Σv, Σv·col/Σv) with numpy's pairwise sums, as
 *      (x, y) = (col, row): pixel index c is x = c. Σv = 0 (NaN, or ±inf when signed values cancel) is no position.
 * Without the window the values stay int16 (they can be negative where loc_thresh's percentile is ≤ 0, and take
 * part in the centre of mass with their sign, as in ezTrack); with it they are float64. Every sum over int16
 * values is exact, so only the windowed frames depend on the summation order, which PairwiseMoments follows.
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
  const opened = opening ? new Float64Array(size) : values;
  const between = opening ? new Float64Array(size) : values;
  const scratch = lineScratch(Math.max(width, height), k);
  const inside = new Uint32Array(BINS);
  const outside = new Uint32Array(BINS);
  const moments = new PairwiseMoments();

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

    // Pass 1: the int16 difference, its minimum and its histograms inside and outside the square.
    inside.fill(0);
    outside.fill(0);
    let minimum = OFFSET;
    for (let y = 0, i = 0; y < height; y++) {
      const rowIn = y >= rowStart && y < rowEnd;
      for (let x = 0; x < width; x++, i++) {
        const gray = frame[i] as number;
        const ref = reference[i] as number;
        // |0 truncates toward zero like astype('int16') for these |values| < 256, and makes −0 a 0.
        let d = method === 'dark' ? (ref - gray) | 0 : method === 'light' ? (gray - ref) | 0 : Math.abs(gray - ref) | 0;
        if (mask !== null && mask[i] !== 0) d = 0;
        difference[i] = d;
        if (d < minimum) minimum = d;
        if (rowIn && x >= columnStart && x < columnEnd) inside[d + OFFSET]!++;
        else outside[d + OFFSET]!++;
      }
    }

    const shift = windowed ? -minimum : 0;
    const ranks = percentileRanks(size, parameters.loc_thresh);
    const threshold = interpolate(
      valueAtRank(ranks.low, windowed, shift),
      valueAtRank(ranks.high, windowed, shift),
      ranks.t,
    );

    // Pass 2: the weighted values, those below the threshold set to 0, and the span of the rest.
    let first = -1;
    let last = -1;
    for (let y = 0, i = 0; y < height; y++) {
      const rowIn = y >= rowStart && y < rowEnd;
      for (let x = 0; x < width; x++, i++) {
        let v = difference[i] as number;
        if (windowed) {
          v += shift;
          if (!(rowIn && x >= columnStart && x < columnEnd)) v *= outsideWeight;
        }
        if (v < threshold) v = 0;
        values[i] = v;
        if (v !== 0) {
          if (first < 0) first = i;
          last = i;
        }
      }
    }

    let chosen = values;
    if (opening && first >= 0) {
      openingInto(values, opened, between, width, height, k, scratch);
      let sum = 0;
      let openedFirst = -1;
      let openedLast = -1;
      for (let i = 0; i < size; i++) {
        const v = opened[i] as number;
        if (v !== 0) {
          sum += v;
          if (openedFirst < 0) openedFirst = i;
          openedLast = i;
        }
      }
      if (sum !== 0) {
        chosen = opened;
        first = openedFirst;
        last = openedLast;
      }
    }

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
