/**
 * Plain, slow implementations for the trackers' tests (never used by the engine): the median reference as issue
 * 22 defines it, the ezTrack-like centre of mass the default tracker is compared with, and error figures.
 */
import type { Point } from './tracker.js';

/** Frame indices of an N-frame reference over n frames: ⌊k·(n−1)/(N−1)⌋, k = 0…N−1. */
export function referenceIndices(n: number, count: number): number[] {
  if (count <= 1) return [0];
  return Array.from({ length: count }, (_, k) => Math.floor((k * (n - 1)) / (count - 1)));
}

/** Per-pixel median of the frames (the mean of the two middle values for an even count). */
export function medianReference(frames: readonly Uint8Array[], size: number): Float32Array {
  const reference = new Float32Array(size);
  const values = new Uint8Array(frames.length);
  const middle = frames.length >> 1;
  for (let i = 0; i < size; i++) {
    for (let k = 0; k < frames.length; k++) values[k] = (frames[k] as Uint8Array)[i] as number;
    values.sort();
    reference[i] =
      frames.length % 2
        ? (values[middle] as number)
        : ((values[middle - 1] as number) + (values[middle] as number)) / 2;
  }
  return reference;
}

/**
 * ezTrack's core without its window or wire removal: the difference of the animal's polarity
 * (reference − frame for a dark animal), truncated toward zero; values below its `percentile` (numpy's linear
 * interpolation) set to 0; the difference-weighted centre of mass, at pixel centres (+0.5). Null when nothing is
 * left.
 */
export function plainCentreOfMass(
  frame: Uint8Array,
  reference: Float32Array,
  width: number,
  dark: boolean,
  percentile = 99.5,
): Point | null {
  const size = frame.length;
  const difference = new Int16Array(size);
  const histogram = new Int32Array(511);
  for (let i = 0; i < size; i++) {
    const d = Math.trunc(
      dark ? (reference[i] as number) - (frame[i] as number) : (frame[i] as number) - (reference[i] as number),
    );
    difference[i] = d;
    histogram[d + 255] = (histogram[d + 255] as number) + 1;
  }
  const rank = (percentile / 100) * (size - 1);
  const valueAt = (r: number) => {
    let seen = 0;
    for (let b = 0; b < histogram.length; b++) {
      seen += histogram[b] as number;
      if (seen > r) return b - 255;
    }
    return 255;
  };
  const low = valueAt(Math.floor(rank));
  const threshold = low + (valueAt(Math.ceil(rank)) - low) * (rank - Math.floor(rank));
  let sum = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < size; i++) {
    const d = difference[i] as number;
    if (d < threshold || d <= 0) continue;
    const x = i % width;
    sum += d;
    sx += d * (x + 0.5);
    sy += d * ((i - x) / width + 0.5);
  }
  return sum > 0 ? { x: sx / sum, y: sy / sum } : null;
}

export interface ErrorFigures {
  median: number;
  p90: number;
  max: number;
  /** Frames without a position (counted as errors of +∞ in the figures). */
  missing: number;
}

/** Median, 90th percentile (nearest rank) and maximum of the distances from the truth; a missing position is ∞. */
export function errorFigures(found: readonly (Point | null)[], truth: readonly Point[]): ErrorFigures {
  const errors = found
    .map((p, k) =>
      p ? Math.hypot(p.x - (truth[k] as Point).x, p.y - (truth[k] as Point).y) : Number.POSITIVE_INFINITY,
    )
    .sort((a, b) => a - b);
  const at = (q: number) => errors[Math.min(errors.length - 1, Math.ceil(q * errors.length) - 1)] as number;
  return {
    median: at(0.5),
    p90: at(0.9),
    max: errors.at(-1) as number,
    missing: found.filter((p) => !p).length,
  };
}
