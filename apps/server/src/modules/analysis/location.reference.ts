/**
 * A location-tracking reference (issue 22, ADR 027): where it comes from — the run's `reference` parameter: frames
 * spread over the tracked video (the default, checked for an animal that sat still), an empty-arena video of the
 * same project, or frames the user chose — and the reference itself, computed once per video and reference setting
 * in a worker thread and stored under the video (`locationReferenceKeys`), so every later preview and run with the
 * same setting reads it, and it goes when the video's files go.
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { FILE_START, startAt } from '../../adapters/media/clean-start.js';
import { demuxerOf, type MediaInput } from '../../adapters/media/input-policy.js';
import { type PacketIndex, seekIndexOf } from '../../adapters/media/packet-index.js';
import type { AppContext } from '../../context.js';
import { videos } from '../../db/schema.js';
import { badRequest } from '../../lib/errors.js';
import { locationReferenceKeys } from '../../lib/storage-keys.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { loadPacketIndex } from '../videos/video.packet-index.js';
import { openMediaInput } from './analysis.media-input.js';
import { PermanentRunFailure } from './analysis.results.js';
import type { RunSource } from './analysis.runs.js';
import { probeSource } from './analysis.source.js';
import { cleanStartsFor } from './clean-starts.js';
import { BODY_ALGORITHM } from './engine/location/body-parameters.js';
import { keyframeReferenceFrames, referenceFrameIndices } from './engine/location/reference.js';
import { framePicks } from './engine/location/track-range.js';
import type { ReferenceFramePlan } from './engine/tasks.js';
import { runTask } from './engine/worker-client.js';
import { parseLocationParameters } from './location.parameters.js';
import type { LocationParameters } from './location.schemas.js';

/** Bumped when the way a reference is computed changes, so no reference cached before is read again. */
const REFERENCE_VERSION = 2;

const VIDEO_FIELD = 'parameters.reference.video_uuid';

export async function readBytes(context: AppContext, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await context.storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A run's or a preview's parameters checked against the video (parseLocationParameters) and the project. */
export async function checkLocationParameters(context: AppContext, video: VideoRow, raw: unknown) {
  const parsed = parseLocationParameters(raw, video);
  await checkReferenceVideo(context, video, parsed.parameters);
  return parsed;
}

/**
 * Refuses (400, by field) a reference video that is not a finished, decodable video of the tracked video's project
 * with its width and height. A video of another project gets the answer of one that does not exist.
 */
export async function checkReferenceVideo(
  context: AppContext,
  video: Pick<VideoRow, 'projectUuid' | 'videoUuid' | 'width' | 'height'>,
  parameters: Pick<LocationParameters, 'reference'>,
): Promise<void> {
  const uuid = parameters.reference?.video_uuid;
  if (!uuid) return;
  if (uuid === video.videoUuid) {
    throw badRequest({
      [VIDEO_FIELD]: ['That is the video being tracked: leave reference out to use frames spread over it.'],
    });
  }
  const other = await findProjectVideo(context, video.projectUuid, uuid);
  if (!other) throw badRequest({ [VIDEO_FIELD]: ['No video of this project has that id.'] });
  if (other.status === 'uploading' || !other.originalKey) {
    throw badRequest({ [VIDEO_FIELD]: [`"${other.name}" is still being uploaded.`] });
  }
  if (!demuxerOf(other.container)) {
    throw badRequest({ [VIDEO_FIELD]: [`"${other.name}" is not in a video container we can decode.`] });
  }
  if (other.width !== video.width || other.height !== video.height) {
    throw badRequest({
      [VIDEO_FIELD]: [
        `"${other.name}" is ${other.width ?? '?'}×${other.height ?? '?'} and the tracked video ${video.width}×${video.height}: an empty-arena reference must have the same width and height.`,
      ],
    });
  }
}

async function findProjectVideo(context: AppContext, projectUuid: string, videoUuid: string) {
  const [row] = await context.db
    .select()
    .from(videos)
    .where(and(eq(videos.projectUuid, projectUuid), eq(videos.videoUuid, videoUuid)))
    .limit(1);
  return row;
}

/** Whether the reference is the default one (frames spread over the tracked video), which body_core checks. */
const checksForAnimal = (parameters: LocationParameters) =>
  !parameters.reference && parameters.algorithm === BODY_ALGORITHM;

/**
 * A digest of everything the reference depends on: where its frames come from and how many, and — for the default
 * reference, which body_core checks and may repair — the settings and exclusions that check reads. Zones, the
 * scale, bins and the trackers' other settings do not change it.
 */
export function referenceId(parameters: LocationParameters): string {
  const choice = parameters.reference ?? null;
  const described = choice?.frames
    ? { frames: choice.frames }
    : {
        video: choice?.video_uuid ?? null,
        count: parameters.reference_frames,
        check: checksForAnimal(parameters)
          ? {
              polarity: parameters.polarity,
              noise_k: parameters.noise_k,
              min_contrast: parameters.min_contrast,
              min_area: parameters.min_area,
              exclusions: parameters.exclusions.map((region) => region.points),
            }
          : null,
      };
  return createHash('sha256')
    .update(JSON.stringify({ version: REFERENCE_VERSION, ...described }))
    .digest('hex')
    .slice(0, 32);
}

/** Which frames a reference is the median of, and their hashes when a run must still check them (ADR 029). */
export interface ReferenceFrames {
  frames: number[];
  /** The frames' hashes, to compare with the run's own decode; null when the frames came from proven clean starts
   *  (or from another video), so there is nothing to check. */
  hashes: string[] | null;
}

export interface LocationReference extends ReferenceFrames {
  reference: Float32Array;
  /** What the check found (for the run's summary); empty when it found nothing or did not run. */
  notes: string[];
  /** Whether it was read from the video's cache rather than computed now. */
  cached: boolean;
}

/**
 * The reference for these parameters: read from the video's cache, else computed in a worker thread and cached.
 * A reference of the tracked video's own frames is first decoded the fast way — keyframes in one pass for the
 * default tracker, else each frame from the keyframe before it — and its frames' hashes kept for the run to check
 * against its own clean decode (ADR 029); `proven` (a run whose check failed) decodes every frame from a proven
 * clean start and replaces the cache. `input` is the tracked video's opened original; an empty-arena video is
 * opened here and always proven.
 */
export async function locationReference(
  context: AppContext,
  video: { projectUuid: string; videoUuid: string },
  source: RunSource,
  input: MediaInput,
  parameters: LocationParameters,
  options: { signal?: AbortSignal; threads?: number; proven?: boolean } = {},
): Promise<LocationReference> {
  const { signal, threads = threadsFor(context) } = options;
  const keys = locationReferenceKeys(video, referenceId(parameters));
  if (!options.proven && (await context.storage.stat(keys.picture))) {
    const bytes = await readBytes(context, keys.picture);
    const reference = new Float32Array(bytes.length / 4);
    new Uint8Array(reference.buffer).set(bytes);
    const notes = JSON.parse((await readBytes(context, keys.notes)).toString('utf8')) as string[];
    const frames = JSON.parse((await readBytes(context, keys.frames)).toString('utf8')) as ReferenceFrames;
    return { reference, notes, ...frames, cached: true };
  }
  const otherUuid = parameters.reference?.video_uuid;
  const computed = otherUuid
    ? await fromOtherVideo(context, video.projectUuid, otherUuid, parameters, signal, threads)
    : await ownReference(context, video, source, input, parameters, { signal, threads, proven: !!options.proven });
  // The picture last: a picture stored without its notes and frames would be read as one that needs neither.
  await context.storage.write(keys.notes, Buffer.from(JSON.stringify(computed.notes)));
  const frames: ReferenceFrames = { frames: computed.frames, hashes: computed.hashes };
  await context.storage.write(keys.frames, Buffer.from(JSON.stringify(frames)));
  const { reference } = computed;
  await context.storage.write(keys.picture, Buffer.from(reference.buffer, reference.byteOffset, reference.byteLength));
  return { ...computed, cached: false };
}

async function fromOtherVideo(
  context: AppContext,
  projectUuid: string,
  videoUuid: string,
  parameters: LocationParameters,
  signal: AbortSignal | undefined,
  threads: number,
) {
  const other = await findProjectVideo(context, projectUuid, videoUuid);
  if (!other?.originalKey) {
    throw new PermanentRunFailure('The empty-arena video of the reference is no longer in the project.');
  }
  const source = await probeSource(context, other);
  const local = await openMediaInput(context, { originalKey: other.originalKey, container: other.container });
  try {
    const frames = referenceFrameIndices(source.frameCount, parameters.reference_frames);
    return await provenReference(context, other, source, local.input, frames, parameters, signal, threads);
  } finally {
    await local.release();
  }
}

/** Threads for ffmpeg while other workers decode beside it (as the run's pieces do). */
const threadsFor = (context: AppContext) => (context.config.analysisWorkers > 1 ? 1 : 0);

/** Fast decodes of single frames run this many at a time (each is mostly ffmpeg's start-up). */
const PICK_CONCURRENCY = 2;

/**
 * A reference of the tracked video's own frames: the fast plans first (their frames' hashes kept for the run's
 * check), and when the decoder miscounts or reports errors in all of them, or `proven` asks for it, every frame
 * from a proven clean start.
 */
async function ownReference(
  context: AppContext,
  video: { videoUuid: string },
  source: RunSource,
  input: MediaInput,
  parameters: LocationParameters,
  options: { signal?: AbortSignal; threads: number; proven: boolean },
) {
  const frames = parameters.reference?.frames ?? referenceFrameIndices(source.frameCount, parameters.reference_frames);
  if (!options.proven) {
    const stored = await loadPacketIndex(context, video.videoUuid, input, options.signal);
    const plans = fastPlans(stored.index, frames, checksForAnimal(parameters) ? parameters.reference_frames : null);
    try {
      return await referenceTask(context, source, input, plans, parameters, options);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      context.logger.warn(
        { videoUuid: video.videoUuid, error: error instanceof Error ? error.message : String(error) },
        'the fast decode of the reference frames failed; decoding them from proven clean starts',
      );
    }
  }
  return provenReference(context, video, source, input, frames, parameters, options.signal, options.threads);
}

/**
 * The fast plans (ADR 029): for the default tracker's default reference (`keyframeCount` frames), the keyframes
 * spread over the video, decoded in one pass; then the wanted frames, each from the nearest keyframe before it,
 * unproven. Both are checked by the run against its own clean decode.
 */
export function fastPlans(index: PacketIndex, frames: readonly number[], keyframeCount: number | null) {
  const plans: ReferenceFramePlan[] = [];
  if (keyframeCount !== null && index.untimed === 0) {
    const keyframes: number[] = [];
    index.keyframes.forEach((flag, frame) => {
      if (flag) keyframes.push(frame);
    });
    const wanted = keyframeReferenceFrames(keyframes, Math.min(keyframeCount, index.times.length));
    if (wanted) plans.push({ mode: 'keyframes', keyframes, wanted });
  }
  const seek = seekIndexOf(index);
  const starts = frames.map((frame) => {
    let at = -1;
    for (let i = 0; i < seek.keyframes.length && (seek.keyframes[i] as { frame: number }).frame <= frame; i++) at = i;
    return at < 0 ? FILE_START : startAt(seek, at, at);
  });
  plans.push({ mode: 'picks', picks: framePicks(frames, starts), concurrency: PICK_CONCURRENCY });
  return plans;
}

async function referenceTask(
  context: AppContext,
  source: RunSource,
  input: MediaInput,
  plans: ReferenceFramePlan[],
  parameters: LocationParameters,
  options: { signal?: AbortSignal; threads: number },
) {
  return runTask(
    {
      kind: 'location-reference',
      ffmpeg: context.media.binaries.ffmpeg,
      source: { ...source, ...input },
      plans,
      threads: options.threads,
      tracker: { parameters, exclusions: parameters.exclusions.map((region) => region.points) },
      check: checksForAnimal(parameters),
    },
    { signal: options.signal },
  );
}

/** The reference decoded from proven clean starts (ADR 006): nothing for a run to check. */
async function provenReference(
  context: AppContext,
  video: { videoUuid: string },
  source: RunSource,
  input: MediaInput,
  frames: readonly number[],
  parameters: LocationParameters,
  signal: AbortSignal | undefined,
  threads: number,
) {
  const starts = await cleanStartsFor(context, video, input, source.fps, frames, signal);
  const plan: ReferenceFramePlan = { mode: 'picks', picks: framePicks(frames, starts), concurrency: 1 };
  const computed = await referenceTask(context, source, input, [plan], parameters, { signal, threads });
  return { ...computed, hashes: null };
}
