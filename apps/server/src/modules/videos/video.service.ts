import { rm } from 'node:fs/promises';
import path from 'node:path';
import { and, asc, count, eq, lt, notInArray, sql } from 'drizzle-orm';
import { UnreadableVideoError } from '../../adapters/media/media.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { preparedOnce } from '../../db/prepared.js';
import { analyses, videos } from '../../db/schema.js';
import { conflict, fieldError, HttpError, notFound } from '../../lib/errors.js';
import { type ListQuery, likePattern, parseOrdering, toPage } from '../../lib/pagination.js';
import { tusPartsDir, videoKeys, videoStoragePrefixes } from '../../lib/storage-keys.js';
import { deleteRowsAndFiles } from '../files/file-deletion.js';
import { type FileViewer, fileUrl } from '../files/file-urls.js';
import { getSubjectOrThrow, type SubjectRow } from '../subjects/subject.lookup.js';
import { processVideoJob } from './video.jobs.js';
import type { VideoRow } from './video.lookup.js';
import { parseRange } from './video.range.js';
import { VIDEO_CONTENT_TYPES, VIDEO_ORDERING, type VideoResponse } from './video.schemas.js';

/** The file `stream/` serves: the playback copy when there is one, else the original. */
export function playableKey(video: VideoRow): string | null {
  return video.playbackKey ?? video.originalKey;
}

export function contentTypeOf(key: string): string {
  return VIDEO_CONTENT_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * What `stream/` answers for a `Range` header: 206 with one range, 200 with the whole file, or 416 (thrown).
 * `open()` starts reading only when a body is wanted (not for HEAD).
 */
export async function planStream(context: AppContext, video: VideoRow, rangeHeader: string | undefined) {
  const key = playableKey(video);
  const info = key ? await context.storage.stat(key) : null;
  if (!key || !info) throw notFound('The video file is not available (yet).');
  const range = parseRange(rangeHeader, info.size);
  if (range.kind === 'unsatisfiable') {
    throw new HttpError(416, `The requested range is outside the file (${info.size} bytes).`, {
      'content-range': `bytes */${info.size}`,
      'accept-ranges': 'bytes',
    });
  }
  const headers: Record<string, string> = {
    'accept-ranges': 'bytes',
    'content-type': contentTypeOf(key),
    'cache-control': 'private, no-transform',
    etag: `"${video.videoUuid}-${info.size}-${video.updatedAt.getTime()}"`,
  };
  if (range.kind === 'partial') {
    headers['content-range'] = `bytes ${range.start}-${range.end}/${info.size}`;
    headers['content-length'] = String(range.end - range.start + 1);
  } else {
    headers['content-length'] = String(info.size);
  }
  return {
    status: range.kind === 'partial' ? (206 as const) : (200 as const),
    headers,
    open: () => context.storage.read(key, range.kind === 'partial' ? range : undefined),
  };
}

/** Rows not (yet) given a playback state: the copy follows the video's processing. */
function legacyPlaybackState(video: VideoRow): NonNullable<VideoRow['playbackState']> {
  if (video.playbackKey) return 'ready';
  if (video.status === 'ready') return 'not_needed';
  return video.status === 'failed' ? 'failed' : 'pending';
}

async function jobState(context: AppContext, video: VideoRow): Promise<VideoResponse['job']> {
  if (!video.processingJobId) return null;
  const job = await context.jobs.getJob(processVideoJob.name, video.processingJobId).catch(() => null);
  if (!job) return null;
  return { id: job.id, state: job.state, attempts: job.retryCount + (job.startedOn ? 1 : 0) };
}

/**
 * The API's view of a video. `stream_url` carries a token that lets this user stream this video.
 * `withJob: false` skips the job-queue lookup (lists ask only for videos still being processed).
 */
export async function toVideoResponse(
  context: AppContext,
  video: VideoRow,
  viewer: FileViewer,
  options: { withJob: boolean } = { withJob: true },
): Promise<VideoResponse> {
  const token = await context.tokens.signStream(viewer.id, video.videoUuid);
  const streamPath = `/api/projects/${video.projectUuid}/subjects/${video.subjectUuid}/videos/${video.videoUuid}/stream/`;
  return {
    video_uuid: video.videoUuid,
    subject_uuid: video.subjectUuid,
    project_uuid: video.projectUuid,
    name: video.name,
    original_filename: video.originalFilename,
    size_bytes: video.sizeBytes,
    duration_s: video.durationS,
    fps: video.fps,
    frame_count: video.frameCount,
    width: video.width,
    height: video.height,
    codec: video.codec,
    container: video.container,
    status: video.status,
    error: video.error,
    thumbnail_url: await fileUrl(context, viewer, video.thumbnailKey),
    stream_url: `${context.config.publicUrl}${streamPath}?token=${encodeURIComponent(token)}`,
    playback: video.playbackKey ? 'copy' : 'original',
    playback_copy: {
      state: video.playbackState ?? legacyPlaybackState(video),
      progress: video.playbackKey ? 1 : Math.min(1, Math.max(0, video.playbackProgress)),
      error: video.playbackError ?? (video.playbackState ? null : video.error),
    },
    recorded_at: video.recordedAt?.toISOString() ?? null,
    created_at: video.createdAt.toISOString(),
    updated_at: video.updatedAt.toISOString(),
    job: options.withJob ? await jobState(context, video) : null,
  };
}

type VideoOrder = (typeof VIDEO_ORDERING)[number];

const videoOrderColumns = {
  name: videos.name,
  created_at: videos.createdAt,
  updated_at: videos.updatedAt,
  recorded_at: videos.recordedAt,
  duration_s: videos.durationS,
  size_bytes: videos.sizeBytes,
  status: videos.status,
};

const videoOrder = (field: VideoOrder, descending: boolean) => {
  const column = videoOrderColumns[field];
  return [descending ? sql`${column} desc nulls last` : sql`${column} asc nulls last`, asc(videos.videoUuid)];
};

/** A page of a subject's or a project's videos in one ordering, without a search: prepared once per database. */
function videoPage(db: Database, by: 'subject' | 'project', field: VideoOrder, descending: boolean) {
  return db
    .select()
    .from(videos)
    .where(
      by === 'subject'
        ? eq(videos.subjectUuid, sql.placeholder('owner'))
        : eq(videos.projectUuid, sql.placeholder('owner')),
    )
    .orderBy(...videoOrder(field, descending))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(`videos_page_${by}_${field}_${descending ? 'desc' : 'asc'}`);
}

/**
 * Videos of one subject, or of the whole project when no subject is given (the dashboard's recent videos). Without a
 * search the total is the subject's or project's maintained `video_count` (triggers, migration 0014), read with the
 * scope, and the page is one prepared statement; a search counts its matches.
 */
export async function listVideos(
  context: AppContext,
  scope: { projectUuid: string; subjectUuid?: string; videoCount: number },
  viewer: FileViewer,
  query: ListQuery,
  url: string,
) {
  const { field, descending } = parseOrdering<VideoOrder>(query.ordering, VIDEO_ORDERING, '-created_at');
  const offset = (query.page - 1) * query.page_size;
  let total: number;
  let rows: VideoRow[];
  if (!query.search) {
    total = scope.videoCount;
    const by = scope.subjectUuid ? 'subject' : 'project';
    rows =
      offset >= total
        ? []
        : await preparedOnce(context.db, `videos ${by} ${field} ${descending}`, (db) =>
            videoPage(db, by, field, descending),
          ).execute({ owner: scope.subjectUuid ?? scope.projectUuid, limit: query.page_size, offset });
  } else {
    const pattern = likePattern(query.search);
    const where = and(
      scope.subjectUuid ? eq(videos.subjectUuid, scope.subjectUuid) : eq(videos.projectUuid, scope.projectUuid),
      sql`(${videos.name} ilike ${pattern} or ${videos.originalFilename} ilike ${pattern})`,
    );
    const [counted] = await context.db.select({ value: count() }).from(videos).where(where);
    total = counted?.value ?? 0;
    rows = await context.db
      .select()
      .from(videos)
      .where(where)
      .orderBy(...videoOrder(field, descending))
      .limit(query.page_size)
      .offset(offset);
  }
  // One job-queue lookup per row would make every page an N+1; only unfinished videos need their job's state.
  const results = await Promise.all(
    rows.map((row) =>
      toVideoResponse(context, row, viewer, { withJob: row.status === 'processing' || row.status === 'uploading' }),
    ),
  );
  return toPage(url, context.config.publicUrl, query, total, results);
}

export interface IngestInput {
  userId: number;
  subject: SubjectRow;
  /** The complete upload on local disk; it is moved into storage, or removed when rejected. */
  localPath: string;
  originalFilename: string;
  extension: string;
  name?: string;
  recordedAt?: Date | null;
  /** A row made earlier for this upload (status `uploading`, tus); otherwise a new row is inserted. */
  videoUuid?: string;
}

/**
 * The one pipeline behind both upload paths (multipart and tus): probe the file (an unreadable one is
 * rejected with 400 and nothing is kept), record the video (status processing), move the file into storage,
 * and queue the processing job.
 */
export async function ingestVideo(context: AppContext, input: IngestInput): Promise<VideoRow> {
  let facts: Awaited<ReturnType<AppContext['media']['probe']>>;
  try {
    facts = await context.media.probe(input.localPath);
  } catch (error) {
    await rm(input.localPath, { force: true });
    if (error instanceof UnreadableVideoError) throw fieldError('file', error.message);
    throw error;
  }
  const values = {
    projectUuid: input.subject.projectUuid,
    subjectUuid: input.subject.subjectUuid,
    name: input.name?.trim() || path.basename(input.originalFilename, path.extname(input.originalFilename)),
    originalFilename: input.originalFilename,
    sizeBytes: facts.sizeBytes,
    durationS: facts.durationS,
    fps: facts.fps,
    frameCount: facts.frameCount,
    width: facts.width,
    height: facts.height,
    codec: facts.codec,
    profile: facts.profile,
    container: facts.container,
    pixelFormat: facts.pixelFormat,
    fullRange: facts.fullRange,
    startTime: facts.startTime,
    status: 'processing' as const,
    error: null,
    recordedAt: input.recordedAt ?? null,
    uploadedById: input.userId,
    updatedAt: new Date(),
  };
  let video: VideoRow | undefined;
  if (input.videoUuid) {
    [video] = await context.db
      .update(videos)
      .set(values)
      .where(and(eq(videos.videoUuid, input.videoUuid), eq(videos.status, 'uploading')))
      .returning();
    if (!video) {
      await rm(input.localPath, { force: true });
      throw notFound('This upload no longer has a video: it was deleted while uploading.');
    }
  } else {
    [video] = await context.db.insert(videos).values(values).returning();
  }
  const row = video!;
  const originalKey = videoKeys(row, input.extension).original;
  try {
    await context.storage.importFile(originalKey, input.localPath, contentTypeOf(originalKey));
    // The key is recorded before the job exists: a worker may pick the job up at once.
    await context.db.update(videos).set({ originalKey }).where(eq(videos.videoUuid, row.videoUuid));
    const jobId = await context.jobs.send(
      processVideoJob,
      { videoUuid: row.videoUuid },
      { singletonKey: row.videoUuid },
    );
    const [updated] = await context.db
      .update(videos)
      .set({ processingJobId: jobId })
      .where(eq(videos.videoUuid, row.videoUuid))
      .returning();
    return updated ?? row;
  } catch (error) {
    // Storage or queue failed: leave nothing half-made behind.
    await rm(input.localPath, { force: true });
    await deleteRowsAndFiles(context, videoStoragePrefixes(row), async (tx) => {
      await tx.delete(videos).where(eq(videos.videoUuid, row.videoUuid));
    });
    throw error;
  }
}

export async function updateVideo(
  context: AppContext,
  video: VideoRow,
  changes: { name?: string; recorded_at?: Date | null; subject_uuid?: string },
): Promise<VideoRow> {
  const targetSubject = changes.subject_uuid
    ? await getSubjectOrThrow(context, video.projectUuid, changes.subject_uuid).catch(() => {
        throw fieldError('subject_uuid', 'No such subject in this project.');
      })
    : undefined;
  const set: Partial<typeof videos.$inferInsert> = { updatedAt: new Date() };
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.recorded_at !== undefined) set.recordedAt = changes.recorded_at;
  if (targetSubject && targetSubject.subjectUuid !== video.subjectUuid) {
    return moveVideo(context, video, targetSubject, set);
  }
  const [updated] = await context.db.update(videos).set(set).where(eq(videos.videoUuid, video.videoUuid)).returning();
  if (!updated) throw notFound();
  return updated;
}

/**
 * Moves a video to another subject of its project: one transaction re-points every row that names its subject
 * (the video and its runs; tracks, events and review positions hang off those). No file moves: storage keys name
 * the project and the video, never the subject (files/storage-keys.ts), so nothing can be lost half-way.
 */
async function moveVideo(
  context: AppContext,
  video: VideoRow,
  target: SubjectRow,
  set: Partial<typeof videos.$inferInsert>,
): Promise<VideoRow> {
  if (video.status === 'uploading' || video.status === 'processing') {
    throw conflict('This video is still being uploaded or processed; move it once it is ready.');
  }
  const updated = await context.db.transaction(async (tx) => {
    const [row] = await tx
      .update(videos)
      .set({ ...set, subjectUuid: target.subjectUuid })
      .where(and(eq(videos.videoUuid, video.videoUuid), notInArray(videos.status, ['uploading', 'processing'])))
      .returning();
    if (!row) return undefined;
    await tx.update(analyses).set({ subjectUuid: target.subjectUuid }).where(eq(analyses.videoUuid, video.videoUuid));
    return row;
  });
  if (!updated) throw notFound();
  return updated;
}

/** How long an unfinished resumable upload is kept: its row (status `uploading`) and its parts go after. */
export const UPLOAD_EXPIRY_MS = 7 * 24 * 60 * 60 * 1000;

export const tusDirectory = (context: AppContext) => tusPartsDir(context.config.dataDir);

/** Removes tus's partial upload files of a video still being uploaded (they live outside storage). */
export async function removeTusParts(context: AppContext, videoUuids: string[]) {
  const dir = tusDirectory(context);
  for (const id of videoUuids) {
    await rm(path.join(dir, id), { force: true });
    await rm(path.join(dir, `${id}.json`), { force: true });
  }
}

export async function deleteVideo(context: AppContext, video: VideoRow): Promise<void> {
  await deleteRowsAndFiles(context, videoStoragePrefixes(video), async (tx) => {
    await tx.delete(videos).where(eq(videos.videoUuid, video.videoUuid));
  });
  if (video.status === 'uploading') await removeTusParts(context, [video.videoUuid]);
}

/** Forgets resumable uploads abandoned for longer than UPLOAD_EXPIRY_MS: their rows and their parts. */
export async function cleanUpAbandonedUploads(context: AppContext, now = new Date()): Promise<number> {
  const stale = await context.db
    .delete(videos)
    .where(and(eq(videos.status, 'uploading'), lt(videos.updatedAt, new Date(now.getTime() - UPLOAD_EXPIRY_MS))))
    .returning({ videoUuid: videos.videoUuid });
  await removeTusParts(
    context,
    stale.map((row) => row.videoUuid),
  );
  return stale.length;
}
