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
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { lastLine } from '../../adapters/media/ffmpeg-media.js';
import { storedInput } from '../../adapters/media/input-policy.js';
import type { VideoFacts } from '../../adapters/media/media.js';
import type { PacketIndex } from '../../adapters/media/packet-index.js';
import { planCopyPieces } from '../../adapters/media/playback.js';
import { PieceMismatchError } from '../../adapters/media/playback-copy.js';
import { ProcessError } from '../../adapters/media/run-process.js';
import type { AppContext } from '../../context.js';
import { playbackPieces, videos } from '../../db/schema.js';
import { checkPlan, definePieces, type Piece, type PieceWork } from '../../jobs/pieces.js';
import { playbackPieceKeys, videoKeys, videoStoragePrefixes } from '../../lib/storage-keys.js';
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
  context.logger.warn({ videoUuid, reason }, 'playback copy failed');
  await context.db
    .update(videos)
    .set({ playbackState: 'failed', playbackError: reason, updatedAt: new Date() })
    .where(and(eq(videos.videoUuid, videoUuid), eq(videos.playbackState, 'making')));
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
  const rows = pieces.map((piece) => ({ videoUuid: video.videoUuid, ...piece }));
  checkPlan(rows);
  return rows;
}

/** Encodes frames [start, end) of the original to an H.264 piece with their own timestamps. */
async function encodeOne(
  context: AppContext,
  video: VideoRow,
  original: string,
  piece: PieceRow,
  output: string,
  hooks: { signal: AbortSignal; onFrames(frames: number): void },
) {
  await context.media.encodePiece(
    storedInput(original, video.container),
    output,
    { ...piece, startS: piece.startS, endS: piece.endS, durationS: piece.durationS },
    {
      signal: hooks.signal,
      threads: context.config.analysisWorkers > 1 ? 1 : 0,
      onFrames: hooks.onFrames,
      warn: (message) => context.logger.warn({ videoUuid: video.videoUuid }, message),
    },
  );
}

/** The piece's own row (its times for the encode), read by index. */
async function pieceRow(context: AppContext, videoUuid: string, index: number): Promise<PieceRow> {
  const [row] = await context.db
    .select()
    .from(playbackPieces)
    .where(and(eq(playbackPieces.videoUuid, videoUuid), eq(playbackPieces.index, index)));
  if (!row) throw new CopyFailure('The piece to encode is gone.');
  return row;
}

async function makePiece(context: AppContext, video: VideoRow, work: PieceWork<never>) {
  if (!video.originalKey) throw new CopyFailure('The video has no original file.');
  const piece = await pieceRow(context, video.videoUuid, work.piece.index);
  const original = await context.storage.localFile(video.originalKey);
  try {
    const output = path.join(work.dir, `piece-${piece.index}.mp4`);
    await encodeOne(context, video, original.path, piece, output, work);
    await context.storage.importFile(playbackPieceKeys(video).piece(piece.index), output, 'video/mp4');
  } finally {
    await original.release();
  }
  return { frames: piece.endFrame - piece.startFrame };
}

/** Joins the stored pieces in plan order, checks the frame count against the original's, stores the copy. */
async function joinCopy(context: AppContext, video: VideoRow, planned: Piece[], dir: string) {
  const pieceKeys = playbackPieceKeys(video);
  const rows = await context.db.select().from(playbackPieces).where(eq(playbackPieces.videoUuid, video.videoUuid));
  const pieces = planned.map((piece) => rows.find((row) => row.index === piece.index)!);
  const expected = pieces.reduce((sum, p) => sum + (p.endFrame - p.startFrame), 0);
  const copyKey = videoKeys(video, '').playback;
  const locals: { path: string; release(): Promise<void> }[] = [];
  let bytes = 0;
  try {
    for (const piece of pieces) locals.push(await context.storage.localFile(pieceKeys.piece(piece.index)));
    const output = path.join(dir, 'playback.mp4');
    // Joined by the concat demuxer without re-encoding; the port answers the joined copy's frame count.
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
    bytes = (await stat(output).catch(() => null))?.size ?? 0;
  } finally {
    for (const local of locals) await local.release();
  }
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

/** The copy's pieces: side by side on any worker, each encoding its own frames (no state crosses a cut). */
export const playbackPieceKind = definePieces<'videoUuid', VideoRow>({
  name: 'videos.playback-piece',
  key: 'videoUuid',
  pieces: { table: playbackPieces, owner: playbackPieces.videoUuid },
  owner: {
    table: videos,
    key: videos.videoUuid,
    progress: videos.playbackProgress,
    active: sql`playback_state = 'making'`,
  },
  handOff: { mode: 'independent' },
  // Every piece, the last too, has the frames the packet index counted (encodePiece checks them).
  openEnded: false,
  workDir: 'playback',
  progressEveryMs: 1000,
  job: {
    heartbeatSeconds: 30,
    retryLimit: 2,
    retryDelaySeconds: 10,
    expireInSeconds: 6 * 60 * 60,
    concurrency: (context) => context.config.analysisWorkers,
  },
  async load(context, videoUuid) {
    const video = await loadVideo(context, videoUuid);
    return video?.playbackState === 'making' ? video : undefined;
  },
  work: makePiece,
  join: joinCopy,
  async after(context, video) {
    // Deleted while this piece was made: remove what it stored.
    if (!(await loadVideo(context, video.videoUuid))) await removeFilesOf(context, video);
  },
  isPermanent: (error) => error instanceof CopyFailure || error instanceof PieceMismatchError,
  reason: copyReason,
  countMismatch: (_video, piece, frames) =>
    `Piece ${piece.index + 1} of the playable copy has ${frames} frames instead of ${piece.endFrame - piece.startFrame}.`,
  fail: markCopyFailed,
});

export const playbackPieceJob = playbackPieceKind.job;

/** Queues a job for every piece not yet done (again after a retry: a piece still queued is not queued twice). */
export const queuePlaybackPieces = (context: AppContext, videoUuid: string) =>
  playbackPieceKind.queue(context, videoUuid);
