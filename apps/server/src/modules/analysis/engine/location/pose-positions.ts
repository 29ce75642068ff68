/**
 * A location run's positions from a pose set's body part (ADR 037): the part's points as the pose-derived series read
 * them (ADR 032: a point below the likelihood cutoff is missing, gaps of at most `maxGapFrames` filled linearly between
 * the points on either side), then no position in a bypassed frame, as the video tracker gives none there. The
 * summary is then the tracker's own (summary.ts), so zones, entries, latency and bins follow the same rules.
 */
import { bypassCursor } from '../plan.js';
import { cleanTrack, type PoseSeriesStats, readKeypoint } from '../pose-measures.js';

export interface PosePositionsInput {
  /** The stored pose file (pose-file.ts). */
  bytes: Uint8Array;
  frameCount: number;
  keypointCount: number;
  /** The body part's index among the set's keypoints. */
  keypoint: number;
  likelihoodCutoff: number;
  hasLikelihood: boolean;
  maxGapFrames: number;
  fps: number;
  bypassRanges: readonly (readonly [number, number])[];
}

export function posePositions(input: PosePositionsInput): { x: Float64Array; y: Float64Array; stats: PoseSeriesStats } {
  const stats: PoseSeriesStats = { missing_points: 0, interpolated_points: 0 };
  const { x, y } = cleanTrack(
    readKeypoint(input.bytes, input.frameCount, input.keypointCount, input.keypoint),
    input,
    stats,
  );
  const bypassed = bypassCursor(input.bypassRanges, input.fps);
  for (let f = 0; f < x.length; f++) {
    if (!bypassed(f)) continue;
    x[f] = Number.NaN;
    y[f] = Number.NaN;
  }
  return { x, y, stats };
}
