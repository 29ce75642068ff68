/**
 * Clean decode starts of a video, cached per video (ADR 006, issue 9): found on its stored packet index
 * (videos/video.packet-index.ts) and every proof made is kept, so a video's later runs and previews start at once.
 */
import type { CleanStart } from '../../adapters/media/clean-start.js';
import type { MediaInput } from '../../adapters/media/input-policy.js';
import { seekIndexOf } from '../../adapters/media/packet-index.js';
import type { AppContext } from '../../context.js';
import { loadPacketIndex, type StoredPacketIndex, storeProofs } from '../videos/video.packet-index.js';
import { LOCATION_WARM_UP_FRAMES } from './engine/location/reconcile.js';
import {
  cutsAtKeyframes,
  MOVEMENT_LOOK_BACK,
  maxLeadFrames,
  planSegments,
  type Segment,
  type StartedSegment,
  withCleanStarts,
} from './engine/plan.js';

/**
 * For each frame of `leads`, the latest proven clean start from which a decode gives that frame and all after
 * it (null: none among the few candidates tried — see candidateProofs). New proofs are stored for next time.
 */
export async function cleanStartsFor(
  context: AppContext,
  video: { videoUuid: string },
  input: MediaInput,
  fps: number,
  leads: readonly number[],
  signal?: AbortSignal,
  /** The video's index, already read (a batch reads all its videos' at once). */
  preloaded?: StoredPacketIndex,
): Promise<(CleanStart | null)[]> {
  const stored = preloaded ?? (await loadPacketIndex(context, video.videoUuid, input, signal));
  const starts = await context.media.cleanStarts(input, stored.index, leads, { proofs: stored.proofs, fps, signal });
  await storeProofs(context, video.videoUuid, stored);
  return starts;
}

/**
 * How a run of `frameCount` frames is cut with this server's settings (before clean starts are applied): into as
 * many pieces as there are workers (`parallelism`, by default ANALYSIS_WORKERS), none longer than
 * ANALYSIS_SEGMENT_SECONDS.
 */
export function plannedSegments(
  context: AppContext,
  frameCount: number,
  fps: number,
  parallelism = context.config.analysisWorkers,
): Segment[] {
  const segmentFrames = Math.max(1, Math.round(context.config.analysisSegmentSeconds * fps));
  return planSegments(frameCount, {
    parallelism,
    maxSegmentFrames: segmentFrames,
    minSegmentFrames: Math.min(300, segmentFrames),
  });
}

/**
 * A run's pieces over a video of several planned segments: the plan's cuts moved onto nearby keyframes (so a piece's
 * decode starts where it needs to, `lookBack` frames before its first), each with the latest proven clean start that
 * gives those frames (`withCleanStarts`: a cut without one joins the piece before it).
 */
export async function piecesWithStarts(
  context: AppContext,
  video: { videoUuid: string },
  input: MediaInput,
  planned: readonly Segment[],
  fps: number,
  lookBack: number,
  preloaded?: StoredPacketIndex,
): Promise<StartedSegment[]> {
  const stored = preloaded ?? (await loadPacketIndex(context, video.videoUuid, input));
  const segments = cutsAtKeyframes(planned, keyframeFrames(stored), lookBack);
  const leads = segments.map((segment) => Math.max(0, segment.startFrame - lookBack));
  const starts = await cleanStartsFor(context, video, input, fps, leads, undefined, stored);
  return withCleanStarts(segments, starts, maxLeadFrames(fps, segments[0]?.endFrame ?? 0));
}

const keyframeFrames = (stored: StoredPacketIndex) => seekIndexOf(stored.index).keyframes.map((point) => point.frame);

/**
 * Proves the starts the video's runs will need with this server's settings, when the video is processed (a
 * follow-up of `videos.process`, registered in modules/job-registry.ts) — so a run's creation finds them cached
 * and starts at once. Errors are the caller's to log: a run proves what is missing itself.
 */
export async function prepareCleanStarts(
  context: AppContext,
  video: { videoUuid: string },
  input: MediaInput,
  facts: { frameCount: number; fps: number },
  signal?: AbortSignal,
): Promise<void> {
  const planned = plannedSegments(context, facts.frameCount, facts.fps);
  // One segment: nothing to prove (a later run with other settings proves its own starts).
  if (planned.length < 2) return;
  const stored = await loadPacketIndex(context, video.videoUuid, input, signal);
  // Movement pieces read from the frame before their first; location pieces from their warm-up's first frame. Each
  // kind's cuts move onto keyframes as a run's will (piecesWithStarts).
  const keyframes = keyframeFrames(stored);
  const leads = [MOVEMENT_LOOK_BACK, LOCATION_WARM_UP_FRAMES].flatMap((lookBack) =>
    cutsAtKeyframes(planned, keyframes, lookBack)
      .slice(1)
      .map((segment) => Math.max(0, segment.startFrame - lookBack)),
  );
  await cleanStartsFor(context, video, input, facts.fps, leads, signal, stored);
}
