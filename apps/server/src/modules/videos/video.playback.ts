/**
 * The playback copy's life in the job system, beside the video (which is analysable meanwhile):
 *
 * - `videos.process` decides whether a copy is needed and cuts the original's packet index into pieces at
 *   keyframes (`planPlaybackCopy`);
 * - each piece is a `videos.playback-piece` job that any worker takes: it encodes frames [start, end) of the
 *   original to an H.264 piece with their own timestamps and stores it;
 * - the job that completes the set joins the pieces (concat demuxer, no re-encoding), checks that the copy has
 *   the original's frame count, stores it and marks the copy ready. A copy that cannot be made marks the copy
 *   failed with a reason; the video itself stays ready.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { lastLine } from '../../adapters/media/ffmpeg-media.js';
import { storedInput } from '../../adapters/media/input-policy.js';
import type { VideoFacts } from '../../adapters/media/media.js';
import type { PacketIndex } from '../../adapters/media/packet-index.js';
import { planCopyPieces } from '../../adapters/media/playback.js';
import { PieceMismatchError } from '../../adapters/media/playback-copy.js';
import { ProcessError } from '../../adapters/media/run-process.js';
import type { AppContext } from '../../context.js';
import { playbackPieces, videos } from '../../db/schema.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import { jobWorkDir, playbackPieceKeys, videoKeys, videoStoragePrefixes } from '../../lib/storage-keys.js';
import type { VideoRow } from './video.lookup.js';

type PieceRow = typeof playbackPieces.$inferSelect;

/** A copy that retrying cannot make: it fails at once with this reason. */
class CopyFailure extends Error {}

function copyReason(error: unknown): string {
  if (error instanceof CopyFailure || error instanceof PieceMismatchError) return error.message;
  if (error instanceof ProcessError) {
    const detail = lastLine(error.stderrTail);
    return `Making the playable copy failed${detail ? `: ${detail}` : '.'}`;
  }
  return 'Making the playable copy failed unexpectedly.';
}

async function removeFilesOf(context: AppContext, video: VideoRow) {
  for (const prefix of videoStoragePrefixes(video)) await context.storage.deletePrefix(prefix);
}

async function loadVideo(context: AppContext, videoUuid: string): Promise<VideoRow | undefined> {
  const [video] = await context.db.select().from(videos).where(eq(videos.videoUuid, videoUuid)).limit(1);
  return video;
}

async function markCopyFailed(context: AppContext, videoUuid: string, reason: string) {
  await context.db
    .update(videos)
    .set({ playbackState: 'failed', playbackError: reason, updatedAt: new Date() })
    .where(and(eq(videos.videoUuid, videoUuid), eq(videos.playbackState, 'making')));
}

async function withWorkDir<T>(context: AppContext, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = jobWorkDir(context.config.dataDir, 'playback', randomUUID());
  await mkdir(dir, { recursive: true });
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Plans the copy of a video whose original browsers cannot play everywhere: its pieces (at keyframes of the
 * original's packet index, as many as workers and at most `playbackPieceSeconds` long) and one job per piece.
 * Runs inside `videos.process`.
 */
export function planPlaybackCopy(
  context: AppContext,
  video: VideoRow,
  index: PacketIndex,
  facts: Pick<VideoFacts, 'fps'>,
): (typeof playbackPieces.$inferInsert)[] {
  if (index.times.length === 0) throw new CopyFailure('The original has no video packets to copy.');
  const maxFrames = Math.max(1, Math.round(context.config.playbackPieceSeconds * facts.fps));
  const pieces = planCopyPieces(index, {
    parallelism: context.config.analysisWorkers,
    maxPieceFrames: maxFrames,
    // A piece shorter than ~10 s (or the maximum) costs more in start-up than it gains.
    minPieceFrames: Math.min(maxFrames, Math.max(1, Math.round(10 * facts.fps))),
  });
  return pieces.map((piece) => ({ videoUuid: video.videoUuid, ...piece }));
}

/** Queues a job for every piece not yet done (again after a retry: a piece still queued is not queued twice). */
export async function queuePlaybackPieces(context: AppContext, videoUuid: string) {
  const pieces = await context.db
    .select()
    .from(playbackPieces)
    .where(and(eq(playbackPieces.videoUuid, videoUuid), eq(playbackPieces.done, false)))
    .orderBy(asc(playbackPieces.index));
  for (const piece of pieces) {
    const jobId = await context.jobs.send(
      playbackPieceJob,
      { videoUuid, index: piece.index },
      { singletonKey: `${videoUuid}:${piece.index}` },
    );
    if (jobId) {
      await context.db
        .update(playbackPieces)
        .set({ jobId })
        .where(and(eq(playbackPieces.videoUuid, videoUuid), eq(playbackPieces.index, piece.index)));
    }
  }
}

/** Records a piece's frames done and the copy's progress (below 1 until the copy is stored). */
async function reportProgress(context: AppContext, videoUuid: string, index: number, framesDone: number) {
  await context.db
    .update(playbackPieces)
    .set({ framesDone })
    .where(and(eq(playbackPieces.videoUuid, videoUuid), eq(playbackPieces.index, index)));
  await context.db
    .update(videos)
    .set({
      playbackProgress: sql`least(0.99, coalesce((select sum(least(p.frames_done, p.end_frame - p.start_frame))::float8
        / nullif(sum(p.end_frame - p.start_frame), 0) from playback_pieces p where p.video_uuid = ${videoUuid}), 0))`,
    })
    .where(and(eq(videos.videoUuid, videoUuid), eq(videos.playbackState, 'making')));
}

/** Abort controllers of this process's running pieces, so a shutdown stops them (and their jobs are retried). */
const running = new Set<AbortController>();

async function makePiece(context: AppContext, video: VideoRow, piece: PieceRow) {
  if (!video.originalKey) throw new CopyFailure('The video has no original file.');
  const controller = new AbortController();
  running.add(controller);
  let framesDone = 0;
  let reporting = false;
  const ticker = setInterval(() => {
    if (reporting) return;
    reporting = true;
    reportProgress(context, video.videoUuid, piece.index, framesDone)
      .catch((error: unknown) => context.logger.warn({ err: error }, 'playback copy progress update failed'))
      .finally(() => {
        reporting = false;
      });
  }, 1000);
  const original = await context.storage.localFile(video.originalKey);
  try {
    await withWorkDir(context, async (dir) => {
      const output = path.join(dir, `piece-${piece.index}.mp4`);
      await context.media.encodePiece(
        storedInput(original.path, video.container),
        output,
        { ...piece, startS: piece.startS, endS: piece.endS, durationS: piece.durationS },
        {
          signal: controller.signal,
          threads: context.config.analysisWorkers > 1 ? 1 : 0,
          onFrames: (frames) => (framesDone = Math.max(framesDone, frames)),
          warn: (message) => context.logger.warn({ videoUuid: video.videoUuid }, message),
        },
      );
      await context.storage.importFile(playbackPieceKeys(video).piece(piece.index), output, 'video/mp4');
    });
  } finally {
    clearInterval(ticker);
    running.delete(controller);
    await original.release();
  }
  await reportProgress(context, video.videoUuid, piece.index, piece.endFrame - piece.startFrame);
}

/** Marks a stored piece done; true for the one caller that completes the set (the video row is locked). */
async function completePiece(context: AppContext, videoUuid: string, index: number): Promise<boolean> {
  return context.db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ state: videos.playbackState })
      .from(videos)
      .where(eq(videos.videoUuid, videoUuid))
      .for('update');
    if (locked?.state !== 'making') return false;
    await tx
      .update(playbackPieces)
      .set({ done: true })
      .where(and(eq(playbackPieces.videoUuid, videoUuid), eq(playbackPieces.index, index)));
    const [open] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(playbackPieces)
      .where(and(eq(playbackPieces.videoUuid, videoUuid), eq(playbackPieces.done, false)));
    return (open?.count ?? 0) === 0;
  });
}

/** Joins the stored pieces, checks the frame count against the original's, stores the copy and marks it ready. */
async function joinCopy(context: AppContext, video: VideoRow) {
  const pieceKeys = playbackPieceKeys(video);
  const pieces = await context.db
    .select()
    .from(playbackPieces)
    .where(eq(playbackPieces.videoUuid, video.videoUuid))
    .orderBy(asc(playbackPieces.index));
  const expected = pieces.reduce((sum, p) => sum + (p.endFrame - p.startFrame), 0);
  const copyKey = videoKeys(video, '').playback;
  const bytes = await withWorkDir(context, async (dir) => {
    const locals: { path: string; release(): Promise<void> }[] = [];
    try {
      for (const piece of pieces) locals.push(await context.storage.localFile(pieceKeys.piece(piece.index)));
      const output = path.join(dir, 'playback.mp4');
      const { frames } = await context.media.joinPieces(
        pieces.map((piece, i) => ({ file: locals[i]!.path, durationS: piece.durationS })),
        dir,
        output,
      );
      if (frames !== expected) {
        throw new CopyFailure(
          `The playable copy came out with ${frames} frames instead of the original's ${expected}; it was not kept.`,
        );
      }
      await context.storage.importFile(copyKey, output, 'video/mp4');
      return (await stat(output).catch(() => null))?.size ?? 0;
    } finally {
      for (const local of locals) await local.release();
    }
  });
  const [updated] = await context.db
    .update(videos)
    .set({
      playbackState: 'ready',
      playbackKey: copyKey,
      playbackProgress: 1,
      playbackError: null,
      derivedBytes: sql`${videos.derivedBytes} + ${bytes}`,
      updatedAt: new Date(),
    })
    .where(and(eq(videos.videoUuid, video.videoUuid), eq(videos.playbackState, 'making')))
    .returning({ videoUuid: videos.videoUuid });
  await context.storage.deletePrefix(pieceKeys.prefix);
  // Deleted while we worked: its files were already removed, so remove what we just added.
  if (!updated && !(await loadVideo(context, video.videoUuid))) await removeFilesOf(context, video);
  else if (updated) await context.db.delete(playbackPieces).where(eq(playbackPieces.videoUuid, video.videoUuid));
}

export const playbackPieceJob: JobDefinition<{ videoUuid: string; index: number }, AppContext> = {
  name: 'videos.playback-piece',
  heartbeatSeconds: 30,
  payload: z.object({ videoUuid: z.string().uuid(), index: z.number().int().min(0) }),
  retryLimit: 2,
  retryDelaySeconds: 10,
  expireInSeconds: 6 * 60 * 60,
  concurrency: (context) => context.config.analysisWorkers,
  onStop: () => {
    for (const controller of running) controller.abort();
  },
  async handle(context, { videoUuid, index }, job) {
    const video = await loadVideo(context, videoUuid);
    if (video?.playbackState !== 'making') return;
    const [piece] = await context.db
      .select()
      .from(playbackPieces)
      .where(and(eq(playbackPieces.videoUuid, videoUuid), eq(playbackPieces.index, index)));
    if (!piece) return;
    try {
      if (!piece.done) await makePiece(context, video, piece);
      if (await completePiece(context, videoUuid, index)) await joinCopy(context, video);
      // Deleted while this piece was made: remove what it stored.
      if (!(await loadVideo(context, videoUuid))) await removeFilesOf(context, video);
    } catch (error) {
      const permanent = error instanceof CopyFailure || error instanceof PieceMismatchError;
      if (permanent || job.isFinalAttempt) {
        context.logger.warn({ videoUuid, reason: copyReason(error) }, 'playback copy failed');
        await markCopyFailed(context, videoUuid, copyReason(error));
        if (permanent) return;
      }
      throw error;
    }
  },
};
