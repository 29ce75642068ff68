import { randomUUID } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { lastLine } from '../../adapters/media/ffmpeg-media.js';
import { type MediaInput, RefusedContainerError, storedInput } from '../../adapters/media/input-policy.js';
import { thumbnailTime, UnreadableVideoError, type VideoFacts } from '../../adapters/media/media.js';
import { needsPlaybackCopy } from '../../adapters/media/playback.js';
import { ProcessError } from '../../adapters/media/run-process.js';
import type { AppContext } from '../../context.js';
import { playbackPieces, videos } from '../../db/schema.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import { jobWorkDir, videoKeys, videoStoragePrefix } from '../../lib/storage-keys.js';
import type { VideoRow } from './video.lookup.js';
import { loadPacketIndex } from './video.packet-index.js';
import { planPlaybackCopy, queuePlaybackPieces } from './video.playback.js';

/** A failure that retrying cannot fix (the original is gone or unreadable): the video fails at once. */
class PermanentFailure extends Error {}

/** The reason shown to users in `video.error`: what went wrong, never a path or a stack. */
function humanReason(error: unknown): string {
  if (
    error instanceof PermanentFailure ||
    error instanceof UnreadableVideoError ||
    error instanceof RefusedContainerError
  ) {
    return error.message;
  }
  if (error instanceof ProcessError) {
    const detail = lastLine(error.stderrTail);
    return `Processing the video failed${detail ? `: ${detail}` : '.'}`;
  }
  return 'Processing the video failed. Try uploading it again.';
}

async function markFailed(context: AppContext, videoUuid: string, reason: string) {
  await context.db
    .update(videos)
    .set({ status: 'failed', error: reason, updatedAt: new Date() })
    .where(eq(videos.videoUuid, videoUuid));
}

async function fileSize(file: string): Promise<number> {
  return (await stat(file)).size;
}

/**
 * Work on a freshly processed video that belongs to other modules (the analyses prove their clean starts), run
 * inside the processing job on its local original before the video is ready. Registered in
 * modules/job-registry.ts, so this module imports none of them. A follow-up's failure is logged, never the video's.
 */
export type VideoFollowUp = (
  context: AppContext,
  video: VideoRow,
  input: MediaInput,
  facts: RecordedFacts,
  signal?: AbortSignal,
) => Promise<void>;

/** What the processing job needs to know about the original. */
type RecordedFacts = Pick<
  VideoFacts,
  'durationS' | 'fps' | 'frameCount' | 'codec' | 'profile' | 'container' | 'pixelFormat'
>;

/**
 * The facts the upload's probe recorded on the row; a probe now only for a row from before they all were
 * (no second ffprobe for a video uploaded since).
 */
async function recordedFacts(
  context: AppContext,
  video: VideoRow,
  localPath: string,
  signal?: AbortSignal,
): Promise<RecordedFacts> {
  const { fps, durationS, frameCount, codec, profile, container, pixelFormat } = video;
  // ffprobe names a profile for every H.264 stream: none recorded means a row from before profiles were kept.
  const complete = codec !== 'h264' || profile !== null;
  if (fps && durationS && frameCount && codec && container && pixelFormat && complete) {
    return { durationS, fps, frameCount, codec, profile, container, pixelFormat };
  }
  return context.media.probe(localPath, signal);
}

/**
 * Makes the thumbnail; the video is then ready (analysable it was already, from its upload). When browsers cannot
 * all play the original, it plans the playback copy's pieces and queues them (see video.playback.ts). The
 * original is pulled from storage once; its packets are read once (the stored packet index, which the thumbnail,
 * the follow-ups and the copy's plan share); ffmpeg does the work in child processes, so the event loop stays free.
 */
export async function processVideo(
  context: AppContext,
  video: VideoRow,
  followUps: readonly VideoFollowUp[],
  signal?: AbortSignal,
): Promise<void> {
  if (!video.originalKey) throw new PermanentFailure('The video has no original file.');
  const prefix = videoStoragePrefix(video);
  const keys = videoKeys(video, path.extname(video.originalKey));
  if (!(await context.storage.stat(video.originalKey))) {
    throw new PermanentFailure('The original file is missing from storage; upload the video again.');
  }
  // A retry after the copy was planned only queues what is left of it.
  const copyPlanned = video.playbackState === 'making' || video.playbackState === 'ready';
  const workDir = jobWorkDir(context.config.dataDir, 'job', randomUUID());
  await mkdir(workDir, { recursive: true });
  const original = await context.storage.localFile(video.originalKey);
  try {
    const facts = await recordedFacts(context, video, original.path, signal);
    const thumbnail = path.join(workDir, 'thumbnail.jpg');
    // Every later read forces the demuxer the upload's probe recorded (input-policy.ts).
    const input = storedInput(original.path, video.container);
    const { index } = await loadPacketIndex(context, video.videoUuid, input, signal);
    await context.media.thumbnail(input, thumbnail, thumbnailTime(facts.durationS), index, signal);
    const derivedBytes = await fileSize(thumbnail);
    for (const followUp of followUps) {
      await followUp(context, video, input, facts, signal).catch((error: unknown) => {
        if (signal?.aborted) throw error;
        context.logger.warn({ err: error, videoUuid: video.videoUuid }, 'a follow-up of video processing failed');
      });
    }
    const copyNeeded = !copyPlanned && needsPlaybackCopy(facts, path.extname(video.originalKey));
    const pieces = copyNeeded ? planPlaybackCopy(context, video, index, facts) : [];
    await context.storage.importFile(keys.thumbnail, thumbnail, 'image/jpeg');
    const updated = await context.db.transaction(async (tx) => {
      const [row] = await tx
        .update(videos)
        .set({
          status: 'ready',
          error: null,
          thumbnailKey: keys.thumbnail,
          derivedBytes,
          ...(copyPlanned
            ? {}
            : copyNeeded
              ? { playbackState: 'making' as const, playbackProgress: 0, playbackError: null, playbackKey: null }
              : { playbackState: 'not_needed' as const, playbackProgress: 1, playbackError: null, playbackKey: null }),
          updatedAt: new Date(),
        })
        .where(eq(videos.videoUuid, video.videoUuid))
        .returning({ videoUuid: videos.videoUuid });
      if (row && pieces.length > 0) {
        await tx.delete(playbackPieces).where(eq(playbackPieces.videoUuid, video.videoUuid));
        await tx.insert(playbackPieces).values(pieces);
      }
      return row;
    });
    // Deleted while we worked: its files were already removed, so remove what we just added.
    if (!updated) {
      await context.storage.deletePrefix(prefix);
      return;
    }
    if (copyNeeded || video.playbackState === 'making') await queuePlaybackPieces(context, video.videoUuid);
  } finally {
    await original.release();
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * The processing job with the follow-ups other modules register (modules/job-registry.ts registers this one;
 * `processVideoJob` below is the same queue, for sending).
 */
export function processVideoJobWith(
  followUps: readonly VideoFollowUp[],
): JobDefinition<{ videoUuid: string }, AppContext> {
  return {
    ...processVideoJob,
    handle: (context, payload, job) => handleProcessVideo(context, payload, job, followUps),
  };
}

async function handleProcessVideo(
  context: AppContext,
  { videoUuid }: { videoUuid: string },
  job: { isFinalAttempt: boolean },
  followUps: readonly VideoFollowUp[],
): Promise<void> {
  const [video] = await context.db.select().from(videos).where(eq(videos.videoUuid, videoUuid)).limit(1);
  // Deleted meanwhile (or never committed): nothing to do.
  if (!video) return;
  try {
    await processVideo(context, video, followUps);
  } catch (error) {
    if (
      error instanceof PermanentFailure ||
      error instanceof UnreadableVideoError ||
      error instanceof RefusedContainerError
    ) {
      context.logger.warn({ videoUuid, reason: error.message }, 'video processing failed permanently');
      await markFailed(context, videoUuid, humanReason(error));
      return;
    }
    if (job.isFinalAttempt) await markFailed(context, videoUuid, humanReason(error));
    throw error;
  }
}

/** The `videos.process` queue; sent by the upload. Without follow-ups: the registry runs `processVideoJobWith`. */
export const processVideoJob: JobDefinition<{ videoUuid: string }, AppContext> = {
  name: 'videos.process',
  heartbeatSeconds: 10,
  payload: z.object({ videoUuid: z.string().uuid() }),
  retryLimit: 2,
  retryDelaySeconds: 15,
  // Thumbnail and the copy's plan (a packet index: demuxing, no decoding); the copy itself is made in pieces.
  expireInSeconds: 60 * 60,
  handle: (context, payload, job) => handleProcessVideo(context, payload, job, []),
};
