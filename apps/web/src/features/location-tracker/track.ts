/**
 * A location run's positions as the raw series download gives them (the run's `track.f64`: x of every frame,
 * then y; NaN = no position), and the distance travelled over time drawn from them by the summary's definition:
 * the Euclidean step from frame f − 1 to f, counted when both have a position, no smoothing.
 */
import type { SeriesData } from '@/features/analysis/api';

export interface Track {
  x: Float64Array;
  y: Float64Array;
  fps: number;
}

/** The series' two halves; an odd length (not a track) gives none. */
export function splitTrack(series: SeriesData): Track | null {
  const n = series.values.length / 2;
  if (!Number.isInteger(n)) return null;
  return { x: series.values.subarray(0, n), y: series.values.subarray(n), fps: series.fps };
}

/**
 * Distance travelled up to each frame (cumulative), times `perPixel` (the scale's unit per pixel; 1 for pixels),
 * as a series the shared chart draws at the run's frame rate.
 */
export function cumulativeDistance(track: Track, perPixel = 1): SeriesData {
  const n = track.x.length;
  const values = new Float64Array(n);
  let total = 0;
  for (let f = 1; f < n; f++) {
    const dx = track.x[f]! - track.x[f - 1]!;
    const dy = track.y[f]! - track.y[f - 1]!;
    const step = Math.hypot(dx, dy);
    if (Number.isFinite(step)) total += step;
    values[f] = total * perPixel;
  }
  return { values, times: null, fps: track.fps };
}

/** The positions of frames [from, to] that have one (a trail), oldest first. */
export function trailPoints(track: Track, from: number, to: number): [number, number][] {
  const points: [number, number][] = [];
  for (let f = Math.max(0, from); f <= Math.min(to, track.x.length - 1); f++) {
    const x = track.x[f]!;
    const y = track.y[f]!;
    if (!Number.isNaN(x) && !Number.isNaN(y)) points.push([x, y]);
  }
  return points;
}
