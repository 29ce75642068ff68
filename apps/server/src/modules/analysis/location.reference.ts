/**
 * A location-tracking reference (issue 22, ADR 027): where it comes from — the run's `reference` parameter: frames
 * spread over the tracked video (the default, checked for an animal that sat still), an empty-arena video of the
 * same project, or frames the user chose — and the reference itself, computed once per video and reference setting
 * in a worker thread and stored under the video (`locationReferenceKeys`), so every later preview and run with the
 * same setting reads it, and it goes when the video's files go.
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { demuxerOf, type MediaInput } from '../../adapters/media/input-policy.js';
import type { AppContext } from '../../context.js';
import { videos } from '../../db/schema.js';
import { badRequest } from '../../lib/errors.js';
import { locationReferenceKeys } from '../../lib/storage-keys.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { openMediaInput } from './analysis.media-input.js';
import { PermanentRunFailure } from './analysis.results.js';
import type { RunSource } from './analysis.runs.js';
import { probeSource } from './analysis.source.js';
import { cleanStartsFor } from './clean-starts.js';
import { BODY_ALGORITHM } from './engine/location/body-parameters.js';
import { referenceFrameIndices } from './engine/location/reference.js';
import { framePicks } from './engine/location/track-range.js';
import { runTask } from './engine/worker-client.js';
import { parseLocationParameters } from './location.parameters.js';
import type { LocationParameters } from './location.schemas.js';

/** Bumped when the way a reference is computed changes, so no reference cached before is read again. */
const REFERENCE_VERSION = 1;

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

export interface LocationReference {
  reference: Float32Array;
  /** What the check found (for the run's summary); empty when it found nothing or did not run. */
  notes: string[];
  /** Whether it was read from the video's cache rather than computed now. */
  cached: boolean;
}

/**
 * The reference for these parameters: read from the video's cache, else computed in a worker thread — the frames
 * decoded cleanly from proven clean starts, their per-pixel median, checked when it is the default — and cached.
 * `input` is the tracked video's opened original; an empty-arena video is opened here.
 */
export async function locationReference(
  context: AppContext,
  video: { projectUuid: string; videoUuid: string },
  source: RunSource,
  input: MediaInput,
  parameters: LocationParameters,
  signal?: AbortSignal,
  threads = threadsFor(context),
): Promise<LocationReference> {
  const keys = locationReferenceKeys(video, referenceId(parameters));
  if (await context.storage.stat(keys.picture)) {
    const bytes = await readBytes(context, keys.picture);
    const reference = new Float32Array(bytes.length / 4);
    new Uint8Array(reference.buffer).set(bytes);
    const notes = JSON.parse((await readBytes(context, keys.notes)).toString('utf8')) as string[];
    return { reference, notes, cached: true };
  }
  const otherUuid = parameters.reference?.video_uuid;
  const computed = otherUuid
    ? await fromOtherVideo(context, video.projectUuid, otherUuid, parameters, signal, threads)
    : await computeReference(
        context,
        video,
        source,
        input,
        parameters.reference?.frames ?? referenceFrameIndices(source.frameCount, parameters.reference_frames),
        parameters,
        signal,
        threads,
      );
  // The notes first: a picture stored without them would be read as one whose check found nothing.
  await context.storage.write(keys.notes, Buffer.from(JSON.stringify(computed.notes)));
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
    return await computeReference(context, other, source, local.input, frames, parameters, signal, threads);
  } finally {
    await local.release();
  }
}

/** Threads for ffmpeg while other workers decode beside it (as the run's pieces do). */
const threadsFor = (context: AppContext) => (context.config.analysisWorkers > 1 ? 1 : 0);

async function computeReference(
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
  return runTask(
    {
      kind: 'location-reference',
      ffmpeg: context.media.binaries.ffmpeg,
      source: { ...source, ...input },
      picks: framePicks(frames, starts),
      threads,
      tracker: { parameters, exclusions: parameters.exclusions.map((region) => region.points) },
      check: checksForAnimal(parameters),
    },
    { signal },
  );
}
