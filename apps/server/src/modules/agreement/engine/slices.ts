/**
 * Time cut into slices, and which slices a list of ranges covers (ADR 010).
 *
 * Slice i covers [i·s, (i + 1)·s) for i = 0 … count − 1; by default a slice is one frame of the video (s = 1 / fps,
 * count = its frame count). A slice is in a scoring when its midpoint (i + ½)·s lies in one of the scoring's ranges
 * [start, end): a bout marked on frame boundaries covers exactly its frames, and a bout whose ends were rounded (a
 * file in milliseconds) still covers the frames it meant. A slice belongs to the time bin of its start,
 * bin k = ⌊i·s / bin_s⌋ (as the freezing summary bins frames), the last bin ending with the last slice.
 */

export interface SliceGrid {
  count: number;
  /** Seconds per slice. */
  sliceS: number;
  /** Set when the slices are the video's frames: times are then i / fps exactly as the series and events give them. */
  fps: number | null;
}

export function sliceStart(grid: SliceGrid, i: number): number {
  return grid.fps !== null ? i / grid.fps : i * grid.sliceS;
}

export function sliceMidpoint(grid: SliceGrid, i: number): number {
  return grid.fps !== null ? (i + 0.5) / grid.fps : (i + 0.5) * grid.sliceS;
}

/** The first slice whose midpoint is at or after `time` (0 … count). */
function firstMidpointAtOrAfter(grid: SliceGrid, time: number): number {
  const perSecond = grid.fps ?? 1 / grid.sliceS;
  let i = Math.min(grid.count, Math.max(0, Math.ceil(time * perSecond - 0.5)));
  // The estimate can be one off where floating point rounds; the midpoints themselves decide.
  while (i > 0 && sliceMidpoint(grid, i - 1) >= time) i--;
  while (i < grid.count && sliceMidpoint(grid, i) < time) i++;
  return i;
}

/** One byte per slice: 1 when its midpoint lies in one of the ranges. */
export function coverage(grid: SliceGrid, ranges: ArrayLike<readonly [number, number]>): Uint8Array {
  const covered = new Uint8Array(grid.count);
  for (let k = 0; k < ranges.length; k++) {
    const [start, end] = ranges[k]!;
    const first = firstMidpointAtOrAfter(grid, start);
    const past = firstMidpointAtOrAfter(grid, end);
    if (past > first) covered.fill(1, first, past);
  }
  return covered;
}

/** Time bins over the slices: bin k holds the slices whose start lies in [k·bin_s, (k + 1)·bin_s). */
export interface Bins {
  binS: number;
  /** bin index of each slice. */
  of: Uint32Array;
  count: number;
  /** [start_s, end_s] of each bin (the last ends with the last slice). */
  edges: [number, number][];
}

/** Absorbs decimal-to-binary error, as the freezing summary does: 0.3 s / 0.1 s must be bin 3, not 2. */
const BIN_EPSILON = 1e-9;

export function timeBins(grid: SliceGrid, binS: number): Bins {
  const duration = sliceStart(grid, grid.count);
  const count = grid.count === 0 ? 0 : Math.max(1, Math.ceil(duration / binS - BIN_EPSILON));
  const of = new Uint32Array(grid.count);
  for (let i = 0; i < grid.count; i++) {
    of[i] = Math.min(count - 1, Math.floor(sliceStart(grid, i) / binS + BIN_EPSILON));
  }
  const edges: [number, number][] = [];
  for (let k = 0; k < count; k++) edges.push([k * binS, Math.min((k + 1) * binS, duration)]);
  return { binS, of, count, edges };
}

/** How many bins a grid would have, before building them (to refuse a bin that makes too many). */
export function binCount(grid: SliceGrid, binS: number): number {
  return grid.count === 0 ? 0 : Math.max(1, Math.ceil(sliceStart(grid, grid.count) / binS - BIN_EPSILON));
}
