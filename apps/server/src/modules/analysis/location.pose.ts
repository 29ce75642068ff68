/**
 * Location tracking from a pose set's body part (ADR 037): `parameters.source = {part, pose_uuid?, individual?,
 * likelihood_cutoff, max_gap_frames}` in place of the video tracker. No video is tracked: one `analyses.pose-location`
 * job reads the set and, in an analysis worker thread, takes the part's points (the pose-derived series' rules for
 * missing points) and computes the tracker's own summary (engine/location/summary.ts) from them. The positions are
 * stored as a tracked run's (`track.f64`), so the series export, the jumps, the figures and the project summary's
 * location columns read them unchanged; the video's first frame is kept as the run's picture, for the figures.
 */
import { eq } from 'drizzle-orm';
import { FILE_START } from '../../adapters/media/clean-start.js';
import { demuxerOf } from '../../adapters/media/input-policy.js';
import type { AppContext } from '../../context.js';
import { videos } from '../../db/schema.js';
import { badRequest } from '../../lib/errors.js';
import { analysisKeys } from '../../lib/storage-keys.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { openMediaInput } from './analysis.media-input.js';
import { PermanentRunFailure } from './analysis.results.js';
import type { AnalysisRow, RunSource } from './analysis.runs.js';
import { findJumps } from './engine/location/jumps.js';
import { framePicks } from './engine/location/track-range.js';
import { runTask } from './engine/worker-client.js';
import { completeLocationRun, runJumpThreshold } from './location.join.js';
import { parseLocationParameters } from './location.parameters.js';
import type { LocationParameters } from './location.schemas.js';
import { bytesOf } from './location.tracking.js';
import {
  NO_SUCH_SET,
  newestPoseSet,
  type PoseSetRow,
  poseRunJob,
  poseSetOfVideo,
  readPoseSetBytes,
  resolveParts,
} from './pose-source.js';

/** The source as a run keeps it: the set it used and the individual named. */
export interface PoseSource {
  pose_uuid: string;
  individual: string;
  part: string;
  likelihood_cutoff: number;
  max_gap_frames: number;
}

/** What a pose-sourced run keeps: the source and what the summary reads — no tracker settings, reference or exclusions. */
export type PoseLocationParameters = Pick<
  LocationParameters,
  'zones' | 'scale' | 'bypass_ranges' | 'bin_s' | 'jump_px'
> & {
  source: PoseSource;
};

/** Whether a location run's raw parameters ask for positions from a pose set (a `source` that is not null). */
export function asksPoseSource(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { source?: unknown }).source != null;
}

const FIELDS = { individual: 'parameters.source.individual', parts: 'parameters.source.part' };

/** The part's keypoint and its individual (a bare name always has one: the one named, or the set's only one). */
function resolvePart(set: PoseSetRow, source: { individual?: string; part: string }) {
  const resolved = resolveParts(set, { individual: source.individual, parts: [source.part] }, FIELDS);
  return 'errors' in resolved
    ? resolved
    : { keypoint: resolved.keypoints[0]!, individual: resolved.parts[0]!.individual };
}

/**
 * A pose-sourced location run's parameters checked against the video (zones and the scale line inside its picture,
 * bypass ranges cut at its end) and its pose sets: 400 by field, or the parameters to keep with the notices.
 */
export async function checkPoseLocationParameters(
  context: AppContext,
  video: VideoRow,
  raw: unknown,
): Promise<{ parameters: PoseLocationParameters; notices: string[] }> {
  const { parameters, notices } = parseLocationParameters(raw, video);
  const source = parameters.source;
  if (!source) throw new Error('a pose-sourced run has a source');
  const set =
    source.pose_uuid === undefined
      ? await newestPoseSet(context, video.videoUuid)
      : await poseSetOfVideo(context, video.videoUuid, source.pose_uuid);
  if (!set) {
    throw badRequest({
      'parameters.source.pose_uuid': [
        source.pose_uuid === undefined ? 'This video has no pose set: import one first.' : NO_SUCH_SET,
      ],
    });
  }
  const resolved = resolvePart(set, source);
  if ('errors' in resolved) throw badRequest(resolved.errors);
  return {
    parameters: {
      source: { ...source, pose_uuid: set.poseUuid, individual: resolved.individual },
      zones: parameters.zones,
      scale: parameters.scale,
      bypass_ranges: parameters.bypass_ranges,
      bin_s: parameters.bin_s,
      jump_px: parameters.jump_px,
    },
    notices,
  };
}

async function computePoseLocation(context: AppContext, run: AnalysisRow, _dir: string, signal: AbortSignal) {
  const parameters = run.parameters as PoseLocationParameters;
  const { source } = parameters;
  const set = await poseSetOfVideo(context, run.videoUuid, source.pose_uuid);
  if (!set) throw new PermanentRunFailure('The pose set these positions come from was deleted.');
  const resolved = resolvePart(set, source);
  if ('errors' in resolved) throw new PermanentRunFailure(Object.values(resolved.errors).flat().join(' '));
  const { fps, width, height } = run.source as RunSource;
  const { x, y, summary, stats } = await runTask(
    {
      kind: 'pose-location',
      positions: {
        bytes: await readPoseSetBytes(context, set),
        frameCount: set.frameCount,
        keypointCount: set.keypoints.length,
        keypoint: resolved.keypoint,
        likelihoodCutoff: source.likelihood_cutoff,
        hasLikelihood: set.hasLikelihood,
        maxGapFrames: source.max_gap_frames,
        fps,
        bypassRanges: parameters.bypass_ranges,
      },
      summary: { width, height, zones: parameters.zones, scale: parameters.scale, binS: parameters.bin_s },
    },
    { signal },
  );
  const keys = analysisKeys(run);
  await context.storage.write(keys.track, Buffer.concat([bytesOf(x), bytesOf(y)]));
  // No tracker hands over a body length: the jumps' threshold is jump_px, else a share of the picture.
  const threshold = runJumpThreshold(run, null);
  const jumps = { ...threshold, count: findJumps(x, y, fps, threshold.threshold_px, parameters.bypass_ranges).length };
  const pose = { pose_name: set.name, individual: resolved.individual, part: source.part, ...stats };
  const pictured = await storeFirstFrame(context, run, signal);
  const notes = pictured ? [] : [PICTURE_MISSING];
  await completeLocationRun(context, run, { ...summary, jumps, notes, pose }, keys.track);
}

const PICTURE_MISSING =
  "The video's first frame could not be decoded, so this run's figures are drawn on white; its positions and zone figures do not depend on it.";

/**
 * The video's first frame, stored where a tracked run keeps its reference picture, so the figures draw the zones and
 * the path on the arena as for a tracked run (location.figure.ts reads it unchanged). Decoded through the Media
 * port's gray-frame reader in an analysis worker thread (the reference task with one frame, unchecked). A video that
 * cannot be decoded leaves the figures on white and says so in the summary's notes: the positions and the zone
 * figures do not need the picture, so the run does not fail for it. Answers whether the picture was stored.
 */
async function storeFirstFrame(context: AppContext, run: AnalysisRow, signal: AbortSignal): Promise<boolean> {
  const [video] = await context.db.select().from(videos).where(eq(videos.videoUuid, run.videoUuid)).limit(1);
  if (!video?.originalKey || !demuxerOf(video.container)) return false;
  try {
    const local = await openMediaInput(context, { originalKey: video.originalKey, container: video.container });
    try {
      const { reference } = await runTask(
        {
          kind: 'location-reference',
          ffmpeg: context.media.binaries.ffmpeg,
          // The run's source (from the video row) with the file's own decoding facts when the upload kept them.
          source: { ...(run.source as RunSource), ...decodingFacts(video), ...local.input },
          plans: [{ mode: 'picks', picks: framePicks([0], [FILE_START]), concurrency: 1 }],
          threads: 1,
          check: false,
        },
        { signal },
      );
      const bytes = Buffer.from(reference.buffer, reference.byteOffset, reference.byteLength);
      await context.storage.write(analysisKeys(run).reference, bytes);
      return true;
    } finally {
      await local.release();
    }
  } catch (error) {
    if (signal.aborted) throw error;
    context.logger.warn(
      { analysisUuid: run.analysisUuid, error: error instanceof Error ? error.message : String(error) },
      "a pose-sourced location run could not decode the video's first frame; its figures are drawn on white",
    );
    return false;
  }
}

/** How the video's pixels decode, as its upload's probe recorded it (older rows: ffmpeg converts to gray). */
function decodingFacts(video: VideoRow) {
  return video.pixelFormat !== null && video.fullRange !== null
    ? { pixelFormat: video.pixelFormat, fullRange: video.fullRange, startTime: video.startTime ?? 0 }
    : {};
}

export const poseLocationJob = poseRunJob('analyses.pose-location', computePoseLocation);
