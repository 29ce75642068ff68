/**
 * The `eztrack` definition (issue 22) written the obvious way, for tests: plain arrays, a full sort for the
 * percentile, a k × k window scan for the opening, numpy's pairwise sum as a short recursion over explicit
 * product arrays. Slow; never imported by the app. It follows ezTrack's `Locate` step by step (see eztrack.ts for
 * the rules and their sources).
 */
import type { EztrackParameters, Point } from './tracker.js';

export interface ReferenceState {
  previous: Point | null;
  started: boolean;
}

export interface ReferenceInput {
  parameters: EztrackParameters;
  reference: Float32Array;
  width: number;
  height: number;
  exclusionMask?: Uint8Array | null;
}

/** Python's round(): nearest integer, exact halves to the even neighbour. */
function pythonRound(value: number): number {
  const nearest = Math.round(value); // halves go up here
  return nearest - value === 0.5 && nearest % 2 !== 0 ? nearest - 1 : nearest;
}

/** The indices numpy's `a[slice(start, stop)]` selects on an axis of n (start ≥ 0 here). */
function sliceIndices(start: number, stop: number, n: number): number[] {
  const from = Math.min(start, n);
  const to = Math.max(0, Math.min(n, stop < 0 ? stop + n : stop));
  const indices: number[] = [];
  for (let i = from; i < to; i++) indices.push(i);
  return indices;
}

/** numpy's pairwise float64 sum of a contiguous array. */
export function numpySum(a: readonly number[], start = 0, n = a.length): number {
  if (n < 8) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += a[start + i] as number;
    return sum;
  }
  if (n <= 128) {
    const r = a.slice(start, start + 8);
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let m = 0; m < 8; m++) r[m] = (r[m] as number) + (a[start + i + m] as number);
    const [r0, r1, r2, r3, r4, r5, r6, r7] = r as [number, number, number, number, number, number, number, number];
    let sum = r0 + r1 + (r2 + r3) + (r4 + r5 + (r6 + r7));
    for (; i < n; i++) sum += a[start + i] as number;
    return sum;
  }
  let half = Math.floor(n / 2);
  half -= half % 8;
  return numpySum(a, start, half) + numpySum(a, start + half, n - half);
}

/** numpy's linear percentile of the values (a full sort, then numpy ≥ 1.22's _lerp). */
export function numpyPercentile(values: readonly number[], percent: number): number {
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  const virtual = (n - 1) * (percent / 100);
  const below = virtual >= n - 1 ? n - 1 : Math.floor(virtual);
  const above = virtual >= n - 1 ? n - 1 : below + 1;
  const t = virtual >= n - 1 ? virtual + 1 : virtual - below;
  const a = sorted[below] as number;
  const b = sorted[above] as number;
  return t >= 0.5 ? b - (b - a) * (1 - t) : a + (b - a) * t;
}

/** OpenCV's erode (min) or dilate (max) with a k × k all-ones kernel anchored at (⌊k/2⌋, ⌊k/2⌋), border ignored. */
function morph(values: number[], width: number, height: number, k: number, min: boolean): number[] {
  const anchor = Math.floor(k / 2);
  const out = new Array<number>(values.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let best = min ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
      for (let dy = 0; dy < k; dy++) {
        for (let dx = 0; dx < k; dx++) {
          const yy = y + dy - anchor;
          const xx = x + dx - anchor;
          if (yy < 0 || yy >= height || xx < 0 || xx >= width) continue;
          const v = values[yy * width + xx] as number;
          best = min ? Math.min(best, v) : Math.max(best, v);
        }
      }
      out[y * width + x] = best;
    }
  }
  return out;
}

/** One frame of ezTrack's Locate; updates `state` as TrackLocation's loop would. */
export function referenceLocate(input: ReferenceInput, state: ReferenceState, gray: Uint8Array): Point | null {
  const { parameters: p, reference, width, height } = input;
  const n = width * height;
  let dif: number[] = [];
  for (let i = 0; i < n; i++) {
    const g = gray[i] as number;
    const r = reference[i] as number;
    const raw = p.method === 'abs' ? Math.abs(g - r) : p.method === 'light' ? g - r : r - g;
    dif.push(Math.trunc(raw) + 0);
  }
  if (input.exclusionMask) for (let i = 0; i < n; i++) if (input.exclusionMask[i]) dif[i] = 0;

  if (p.use_window && state.started) {
    const min = Math.min(...dif);
    dif = dif.map((d) => d - min);
    const weights = new Array<number>(n).fill(1 - p.window_weight);
    if (state.previous) {
      const half = Math.floor(p.window_size / 2);
      const y = pythonRound(state.previous.y);
      const x = pythonRound(state.previous.x);
      const rows = sliceIndices(Math.max(y - half, 0), y + half, height);
      const columns = sliceIndices(Math.max(x - half, 0), x + half, width);
      for (const row of rows) for (const column of columns) weights[row * width + column] = 1;
    }
    dif = dif.map((d, i) => d * (weights[i] as number));
  }

  const threshold = numpyPercentile(dif, p.loc_thresh);
  dif = dif.map((d) => (d < threshold ? 0 : d));

  if (p.rmv_wire) {
    const opened = morph(morph(dif, width, height, p.wire_krn, true), width, height, p.wire_krn, false);
    if (opened.reduce((sum, v) => sum + v, 0) !== 0) dif = opened;
  }

  const normaliser = numpySum(dif);
  const rowSum = numpySum(dif.map((v, i) => v * Math.floor(i / width)));
  const columnSum = numpySum(dif.map((v, i) => v * (i % width)));
  const y = rowSum / normaliser + 0;
  const x = columnSum / normaliser + 0;
  state.started = true;
  state.previous = Number.isFinite(x) && Number.isFinite(y) ? { x, y } : null;
  return state.previous ? { ...state.previous } : null;
}

/** The positions of a sequence of frames, from `state` (updated in place). */
export function referenceTrack(
  input: ReferenceInput,
  frames: readonly Uint8Array[],
  state: ReferenceState = { previous: null, started: false },
): (Point | null)[] {
  return frames.map((frame) => referenceLocate(input, state, frame));
}
