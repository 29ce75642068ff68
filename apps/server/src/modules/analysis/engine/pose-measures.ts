/**
 * Series derived from a pose set (ADR 032): the speed of a body part, the distance between two, the angle at a joint.
 * One value per video frame, NaN where there is none. Runs in an analysis worker thread: an hour of keypoints is
 * 108,000 frames per part.
 */
import { BLOCK_FRAMES, blockOffset, CHANNELS } from '../../pose/pose-file.js';

export const poseMeasures = ['speed', 'distance', 'angle'] as const;
export type PoseMeasure = (typeof poseMeasures)[number];

/** Body parts each measure takes, in order: the part; the two parts; a–b–c with the angle at b. */
export const PARTS_OF_MEASURE: Record<PoseMeasure, number> = { speed: 1, distance: 2, angle: 3 };
export const UNIT_OF_MEASURE: Record<PoseMeasure, string> = { speed: 'px/s', distance: 'px', angle: 'degrees' };

export interface PoseSeriesInput {
  /** The stored pose file (pose-file.ts): Float32 blocks of BLOCK_FRAMES frames. */
  bytes: Uint8Array;
  frameCount: number;
  keypointCount: number;
  /** Indices of the measure's parts among the set's keypoints, in the measure's order. */
  keypoints: number[];
  measure: PoseMeasure;
  fps: number;
  /** A point whose likelihood is below this is missing (when the set has likelihoods). */
  likelihoodCutoff: number;
  hasLikelihood: boolean;
  /** Runs of at most this many missing frames between two present points are interpolated. */
  maxGapFrames: number;
  /** A scale's units per pixel: speed and distance in its unit (ADR 037); null (or absent): pixels. */
  unitsPerPixel?: number | null;
}

export interface PoseSeriesStats {
  /** Points of the measure's parts missing before interpolation (absent, or below the cutoff), all parts together. */
  missing_points: number;
  /** Of those, the points filled by interpolation. */
  interpolated_points: number;
}

/** One keypoint's track in Float64 (the stored Float32 values), NaN where missing after the cutoff and the gaps. */
export interface Track {
  x: Float64Array;
  y: Float64Array;
}

/** x, y and likelihood of keypoint k for every frame, out of the stored blocks. */
export function readKeypoint(bytes: Uint8Array, frameCount: number, keypointCount: number, k: number) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const channels = [new Float32Array(frameCount), new Float32Array(frameCount), new Float32Array(frameCount)];
  for (let start = 0; start < frameCount; start += BLOCK_FRAMES) {
    const length = Math.min(BLOCK_FRAMES, frameCount - start);
    const base = blockOffset(start / BLOCK_FRAMES, keypointCount);
    for (let c = 0; c < CHANNELS; c++) {
      const column = channels[c]!;
      const offset = base + (k * CHANNELS + c) * length * 4;
      for (let f = 0; f < length; f++) column[start + f] = view.getFloat32(offset + f * 4, true);
    }
  }
  return { x: channels[0]!, y: channels[1]!, likelihood: channels[2]! };
}

/**
 * The points of one keypoint as the measures use them: a point without x or y, or (in a set with likelihoods) whose
 * likelihood is below the cutoff, is missing; a run of at most `maxGapFrames` missing frames with a present point on
 * both sides gets x and y interpolated linearly between those two points; longer runs, and runs at either end, stay
 * missing.
 */
export function cleanTrack(
  raw: { x: Float32Array; y: Float32Array; likelihood: Float32Array },
  options: { likelihoodCutoff: number; hasLikelihood: boolean; maxGapFrames: number },
  stats: PoseSeriesStats,
): Track {
  const n = raw.x.length;
  const x = new Float64Array(n).fill(Number.NaN);
  const y = new Float64Array(n).fill(Number.NaN);
  let last = -1;
  for (let f = 0; f < n; f++) {
    const present =
      !Number.isNaN(raw.x[f]!) &&
      !Number.isNaN(raw.y[f]!) &&
      !(options.hasLikelihood && raw.likelihood[f]! < options.likelihoodCutoff);
    if (!present) {
      stats.missing_points++;
      continue;
    }
    x[f] = raw.x[f]!;
    y[f] = raw.y[f]!;
    const gap = f - last - 1;
    if (last >= 0 && gap > 0 && gap <= options.maxGapFrames) {
      for (let g = last + 1; g < f; g++) {
        const t = (g - last) / (f - last);
        x[g] = x[last]! + (x[f]! - x[last]!) * t;
        y[g] = y[last]! + (y[f]! - y[last]!) * t;
      }
      stats.interpolated_points += gap;
    }
    last = f;
  }
  return { x, y };
}

/**
 * The measure of every frame. speed: the distance from the part's point in frame n−1 to frame n, times fps (px/s);
 * frame 0 has no value (no frame before it). distance: between the two parts' points (px). angle: at b between b→a
 * and b→c, 0–180 degrees; none when a or c sits on b. Any point missing → no value (NaN).
 */
export function measureSeries(measure: PoseMeasure, tracks: Track[], fps: number): Float64Array {
  const n = tracks[0]!.x.length;
  const values = new Float64Array(n).fill(Number.NaN);
  if (measure === 'speed') {
    const { x, y } = tracks[0]!;
    for (let f = 1; f < n; f++) values[f] = Math.hypot(x[f]! - x[f - 1]!, y[f]! - y[f - 1]!) * fps;
  } else if (measure === 'distance') {
    const [a, b] = tracks as [Track, Track];
    for (let f = 0; f < n; f++) values[f] = Math.hypot(a.x[f]! - b.x[f]!, a.y[f]! - b.y[f]!);
  } else {
    const [a, b, c] = tracks as [Track, Track, Track];
    for (let f = 0; f < n; f++) {
      const ux = a.x[f]! - b.x[f]!;
      const uy = a.y[f]! - b.y[f]!;
      const wx = c.x[f]! - b.x[f]!;
      const wy = c.y[f]! - b.y[f]!;
      // atan2 of |cross| and dot: exact near 0° and 180°, where acos of the cosine loses digits.
      if ((ux === 0 && uy === 0) || (wx === 0 && wy === 0)) continue;
      values[f] = (Math.atan2(Math.abs(ux * wy - uy * wx), ux * wx + uy * wy) * 180) / Math.PI;
    }
  }
  // Math.hypot/atan2 of NaN are NaN: a missing point leaves its frame without a value.
  return values;
}

export function poseSeries(input: PoseSeriesInput): { values: Float64Array; stats: PoseSeriesStats } {
  const stats: PoseSeriesStats = { missing_points: 0, interpolated_points: 0 };
  const tracks = input.keypoints.map((k) =>
    cleanTrack(readKeypoint(input.bytes, input.frameCount, input.keypointCount, k), input, stats),
  );
  const values = measureSeries(input.measure, tracks, input.fps);
  const scale = input.measure === 'angle' ? null : (input.unitsPerPixel ?? null);
  if (scale !== null) for (let f = 0; f < values.length; f++) values[f]! *= scale;
  return { values, stats };
}
