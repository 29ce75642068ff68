import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { runProcess } from '../../adapters/media/run-process.js';
import type { AppContext } from '../../context.js';
import { analyses, analysisEvents, analysisSegments, subjects, users, videos } from '../../db/schema.js';
import { isUuid } from '../../lib/access.js';
import {
  badRequest,
  conflict,
  type HttpError,
  notFound,
  payloadTooLarge,
  unsupportedMediaType,
} from '../../lib/errors.js';
import { toPage } from '../../lib/pagination.js';
import { APP_VERSION } from '../../version.js';
import { displayName } from '../users/user.serializer.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { eventsTable, seriesTable } from './analysis.exports.js';
import {
  type AnalysisRow,
  abortLocalRun,
  analysisDetectJob,
  analysisSegmentJob,
  analysisStoragePrefix,
  completeRun,
  openMediaInput,
  type RunSource,
} from './analysis.runs.js';
import {
  type analysisListQuery,
  type analysisSchema,
  type createAnalysisBody,
  type EventChange,
  eventDetectionParameters,
  type eventSchema,
  movementParameters,
  type previewBody,
  type updateEventsBody,
} from './analysis.schemas.js';
import { planSegments } from './engine/plan.js';
import { runTask } from './engine/worker-client.js';

/**
 * Bumped whenever a change to the algorithms could change a result; stored with every run. intensity-change 2
 * (2026-11-23) counts exactly as OpenCV does: the 3×3 mean rounded to 8 bits with reflected borders (ADR 006);
 * version 1 compared unrounded sums with replicated borders and counted a few percent more.
 */
export const ALGORITHM_VERSION = 'intensity-change 2, event-detection 1';

let ffmpegVersion: Promise<string> | undefined;
async function softwareVersion(context: AppContext): Promise<string> {
  ffmpegVersion ??= runProcess(context.media.binaries.ffmpeg, ['-hide_banner', '-version'], { timeoutMs: 10_000 })
    .then(({ stdout }) => /ffmpeg version (\S+)/.exec(stdout.toString('utf8'))?.[1] ?? 'unknown')
    .catch(() => 'unknown');
  return `app ${APP_VERSION}; ${ALGORITHM_VERSION}; ffmpeg ${await ffmpegVersion}`;
}

/** zod issues of `parameters` → the spec's field errors, named `parameters.<field>`. */
function parameterErrors(error: z.ZodError): HttpError {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const field = ['parameters', ...issue.path.filter((p) => typeof p !== 'number').map(String)].join('.');
    const message =
      issue.code === 'unrecognized_keys'
        ? `Unknown parameter${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`
        : issue.message;
    const where = issue.path.find((p) => typeof p === 'number');
    const text = where !== undefined && issue.path[0] === 'rois' ? `ROI ${Number(where) + 1}: ${message}` : message;
    fields[field] = [...(fields[field] ?? []), text];
  }
  return badRequest(fields);
}

function parseMovementParameters(raw: unknown, video: VideoRow) {
  const parsed = movementParameters.safeParse(raw);
  if (!parsed.success) throw parameterErrors(parsed.error);
  const width = video.width ?? 0;
  const height = video.height ?? 0;
  const outside = parsed.data.rois.findIndex((r) => r.x + r.width > width || r.y + r.height > height);
  if (outside !== -1) {
    throw badRequest({ 'parameters.rois': [`ROI ${outside + 1} lies outside the ${width}×${height} picture.`] });
  }
  const late = parsed.data.rois.findIndex((r) => r.start_s >= (video.durationS ?? Number.POSITIVE_INFINITY));
  if (late > 0) throw badRequest({ 'parameters.rois': [`ROI ${late + 1} starts after the end of the video.`] });
  return parsed.data;
}

function parseEventParameters(raw: unknown) {
  const parsed = eventDetectionParameters.safeParse(raw);
  if (!parsed.success) throw parameterErrors(parsed.error);
  return parsed.data;
}

function requireReady(video: VideoRow) {
  if (video.status !== 'ready') {
    throw badRequest('The video is not ready yet: analyse it once it has been uploaded and processed.');
  }
}

/**
 * What every worker needs to decode the video the same way: the facts ffprobe read at upload, or (for videos
 * uploaded before those were kept) a probe now.
 */
async function probeSource(context: AppContext, video: VideoRow): Promise<RunSource> {
  if (!video.originalKey) throw badRequest('The video has no original file.');
  if (video.pixelFormat !== null && video.fullRange !== null && video.fps && video.width && video.height) {
    return {
      fps: video.fps,
      width: video.width,
      height: video.height,
      pixelFormat: video.pixelFormat,
      fullRange: video.fullRange,
      startTime: video.startTime ?? 0,
      frameCount: video.frameCount ?? 0,
      durationS: video.durationS ?? 0,
      originalKey: video.originalKey,
    };
  }
  const local = await context.storage.localFile(video.originalKey);
  try {
    const facts = await context.media.probe(local.path);
    return {
      fps: facts.fps,
      width: facts.width,
      height: facts.height,
      pixelFormat: facts.pixelFormat,
      fullRange: facts.fullRange,
      startTime: facts.startTime,
      frameCount: facts.frameCount,
      durationS: facts.durationS,
      originalKey: video.originalKey,
    };
  } finally {
    await local.release();
  }
}

function basicSource(video: VideoRow): RunSource {
  return {
    fps: video.fps ?? 30,
    width: video.width ?? 0,
    height: video.height ?? 0,
    pixelFormat: 'unknown',
    fullRange: false,
    startTime: 0,
    frameCount: video.frameCount ?? 0,
    durationS: video.durationS ?? 0,
    originalKey: video.originalKey ?? '',
  };
}

export async function createAnalysis(
  context: AppContext,
  video: VideoRow,
  userId: number,
  body: z.output<typeof createAnalysisBody>,
): Promise<string> {
  requireReady(video);
  const base = {
    projectUuid: video.projectUuid,
    subjectUuid: video.subjectUuid,
    videoUuid: video.videoUuid,
    createdById: userId,
    softwareVersion: await softwareVersion(context),
  };
  if (body.kind === 'timeseries_import') {
    throw badRequest({ kind: ['A time series import needs its file: upload it with import_timeseries/.'] });
  }
  if (body.kind === 'event_detection') {
    if (!body.source_analysis_uuid) {
      throw badRequest({ source_analysis_uuid: ['Name the run whose time series the detection reads.'] });
    }
    const source = await findRunOfVideo(context, video, body.source_analysis_uuid).catch(() => undefined);
    if (!source) throw badRequest({ source_analysis_uuid: ['No run of this video has that id.'] });
    if (source.status !== 'succeeded' || !source.seriesKey) {
      throw badRequest({ source_analysis_uuid: ['That run has no time series yet: pick a run that has succeeded.'] });
    }
    const parameters = parseEventParameters(body.parameters);
    const [run] = await context.db
      .insert(analyses)
      .values({
        ...base,
        kind: 'event_detection',
        parameters,
        sourceAnalysisUuid: source.analysisUuid,
        source: basicSource(video),
      })
      .returning();
    await sendOrFail(context, run!.analysisUuid, () =>
      context.jobs.send(analysisDetectJob, { analysisUuid: run!.analysisUuid }),
    );
    return run!.analysisUuid;
  }
  const parameters = parseMovementParameters(body.parameters, video);
  const source = await probeSource(context, video);
  const segments = planSegments(source.frameCount, {
    parallelism: context.config.analysisWorkers,
    maxSegmentFrames: Math.max(1, Math.round(context.config.analysisSegmentSeconds * source.fps)),
    minSegmentFrames: Math.min(300, Math.max(1, Math.round(context.config.analysisSegmentSeconds * source.fps))),
  });
  const analysisUuid = await context.db.transaction(async (tx) => {
    const [run] = await tx
      .insert(analyses)
      .values({ ...base, kind: 'movement_detection', parameters, source })
      .returning({ analysisUuid: analyses.analysisUuid });
    await tx.insert(analysisSegments).values(
      segments.map((segment) => ({
        analysisUuid: run!.analysisUuid,
        index: segment.index,
        startFrame: segment.startFrame,
        endFrame: segment.endFrame,
      })),
    );
    return run!.analysisUuid;
  });
  for (const segment of segments) {
    const jobId = await sendOrFail(context, analysisUuid, () =>
      context.jobs.send(analysisSegmentJob, { analysisUuid, index: segment.index }),
    );
    await context.db
      .update(analysisSegments)
      .set({ jobId })
      .where(and(eq(analysisSegments.analysisUuid, analysisUuid), eq(analysisSegments.index, segment.index)));
  }
  return analysisUuid;
}

/** A run whose jobs cannot be queued fails visibly instead of waiting forever. */
async function sendOrFail(context: AppContext, analysisUuid: string, send: () => Promise<string | null>) {
  try {
    return await send();
  } catch (error) {
    await context.db
      .update(analyses)
      .set({ status: 'failed', error: 'The run could not be queued. Try again.', finishedAt: new Date() })
      .where(eq(analyses.analysisUuid, analysisUuid));
    throw error;
  }
}

/** A run of this video by id, or 404. */
export async function findRunOfVideo(context: AppContext, video: VideoRow, analysisUuid: string): Promise<AnalysisRow> {
  if (!isUuid(analysisUuid)) throw notFound();
  const [run] = await context.db
    .select()
    .from(analyses)
    .where(and(eq(analyses.analysisUuid, analysisUuid), eq(analyses.videoUuid, video.videoUuid)))
    .limit(1);
  if (!run) throw notFound();
  return run;
}

/** A run's stored series (`values`) or its own sample times (`times`), for charts. */
export async function seriesFile(context: AppContext, video: VideoRow, analysisUuid: string, part: 'values' | 'times') {
  const run = await findRunOfVideo(context, video, analysisUuid);
  const key = part === 'times' ? run.timesKey : run.seriesKey;
  if (run.status !== 'succeeded' || !run.seriesKey) throw badRequest('This run has no time series yet.');
  if (!key) throw notFound('This series has no times of its own: sample i is at i / fps.');
  const info = await context.storage.stat(key);
  if (!info) throw notFound();
  return {
    size: info.size,
    sampleCount: run.sampleCount ?? info.size / 8,
    fps: (run.source as { fps?: number } | null)?.fps ?? null,
    open: () => context.storage.read(key),
  };
}

/** A succeeded run's events or series as a table to export. */
export async function runTable(context: AppContext, video: VideoRow, analysisUuid: string, table: 'events' | 'series') {
  const run = await findRunOfVideo(context, video, analysisUuid);
  if (run.status !== 'succeeded') throw badRequest('This run has not succeeded, so it has nothing to export.');
  return table === 'events' ? eventsTable(context, run) : seriesTable(context, run);
}

/** The named run, or the video's latest succeeded run that has events and a series. */
export async function selectRun(context: AppContext, video: VideoRow, analysisUuid: string | undefined) {
  if (analysisUuid) return findRunOfVideo(context, video, analysisUuid);
  const [run] = await context.db
    .select()
    .from(analyses)
    .where(and(eq(analyses.videoUuid, video.videoUuid), eq(analyses.status, 'succeeded')))
    .orderBy(desc(analyses.createdAt))
    .limit(1);
  if (!run) throw notFound('This video has no finished analysis run yet.');
  return run;
}

type AnalysisResponse = z.infer<typeof analysisSchema>;

const listColumns = {
  run: analyses,
  subjectName: subjects.name,
  videoName: videos.name,
  creatorId: users.id,
  creatorEmail: users.email,
  creatorFirst: users.firstName,
  creatorLast: users.lastName,
  eventCount: sql<
    number | null
  >`case when ${analyses.status} = 'succeeded' then (select count(*)::int from analysis_events e where e.analysis_uuid = "analyses"."analysis_uuid") end`,
};

type ListRow = {
  run: AnalysisRow;
  subjectName: string;
  videoName: string;
  creatorId: number | null;
  creatorEmail: string | null;
  creatorFirst: string | null;
  creatorLast: string | null;
  eventCount: number | null;
};

function serialize(row: ListRow): AnalysisResponse {
  const { run } = row;
  const end = run.finishedAt ?? null;
  return {
    analysis_uuid: run.analysisUuid,
    project_uuid: run.projectUuid,
    subject_uuid: run.subjectUuid,
    video_uuid: run.videoUuid,
    subject_name: row.subjectName,
    video_name: row.videoName,
    kind: run.kind,
    parameters: run.parameters as Record<string, unknown>,
    source_analysis_uuid: run.sourceAnalysisUuid,
    status: run.status,
    progress: run.progress,
    error: run.error,
    software_version: run.softwareVersion,
    created_by:
      row.creatorId === null
        ? null
        : {
            id: row.creatorId,
            display_name: displayName({
              email: row.creatorEmail ?? '',
              firstName: row.creatorFirst ?? '',
              lastName: row.creatorLast ?? '',
            }),
          },
    created_at: run.createdAt.toISOString(),
    started_at: run.startedAt?.toISOString() ?? null,
    finished_at: end?.toISOString() ?? null,
    duration_s: run.startedAt && end ? (end.getTime() - run.startedAt.getTime()) / 1000 : null,
    summary: (run.summary as AnalysisResponse['summary']) ?? null,
    event_count: row.eventCount === null ? null : Number(row.eventCount),
  };
}

function selectRuns(context: AppContext) {
  return context.db
    .select(listColumns)
    .from(analyses)
    .innerJoin(subjects, eq(subjects.subjectUuid, analyses.subjectUuid))
    .innerJoin(videos, eq(videos.videoUuid, analyses.videoUuid))
    .leftJoin(users, eq(users.id, analyses.createdById));
}

export async function getAnalysis(context: AppContext, video: VideoRow, analysisUuid: string) {
  const run = await findRunOfVideo(context, video, analysisUuid);
  const [row] = await selectRuns(context).where(eq(analyses.analysisUuid, run.analysisUuid));
  return serialize(row!);
}

export async function listAnalyses(
  context: AppContext,
  projectUuid: string,
  query: z.output<typeof analysisListQuery>,
  requestUrl: string,
) {
  const conditions: SQL[] = [eq(analyses.projectUuid, projectUuid)];
  if (query.kind) conditions.push(eq(analyses.kind, query.kind));
  if (query.status) conditions.push(eq(analyses.status, query.status));
  for (const [value, column, field] of [
    [query.subject, analyses.subjectUuid, 'subject'],
    [query.video, analyses.videoUuid, 'video'],
  ] as const) {
    if (value === undefined) continue;
    if (!isUuid(value)) throw badRequest({ [field]: ['Must be a valid UUID.'] });
    conditions.push(eq(column, value));
  }
  const where = and(...conditions);
  const [total] = await context.db.select({ count: count() }).from(analyses).where(where);
  const rows = await selectRuns(context)
    .where(where)
    .orderBy(desc(analyses.createdAt), desc(analyses.analysisUuid))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  return toPage(requestUrl, context.config.publicUrl, { ...query }, total?.count ?? 0, rows.map(serialize));
}

export async function revokeAnalysis(context: AppContext, video: VideoRow, analysisUuid: string) {
  const run = await findRunOfVideo(context, video, analysisUuid);
  const [revoked] = await context.db
    .update(analyses)
    .set({ status: 'revoked', finishedAt: new Date() })
    .where(and(eq(analyses.analysisUuid, run.analysisUuid), inArray(analyses.status, ['queued', 'running'])))
    .returning({ analysisUuid: analyses.analysisUuid });
  if (!revoked) throw conflict(`This run has already ${run.status === 'revoked' ? 'been revoked' : 'finished'}.`);
  abortLocalRun(run.analysisUuid);
  // Jobs still waiting never start; running ones stop at their next status check.
  const segments = await context.db
    .select({ jobId: analysisSegments.jobId })
    .from(analysisSegments)
    .where(eq(analysisSegments.analysisUuid, run.analysisUuid));
  const jobIds = segments.map((s) => s.jobId).filter((id): id is string => id !== null);
  await context.jobs.cancel(analysisSegmentJob.name, jobIds).catch((error: unknown) => {
    context.logger.warn({ err: error, analysisUuid }, 'cancelling queued segment jobs failed');
  });
  return getAnalysis(context, video, run.analysisUuid);
}

// ---- Events (Quick Score) ----

type EventResponse = z.infer<typeof eventSchema>;

export async function readEvents(context: AppContext, run: AnalysisRow) {
  const rows = await context.db
    .select({
      event: analysisEvents,
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(analysisEvents)
    .leftJoin(users, eq(users.id, analysisEvents.updatedById))
    .where(eq(analysisEvents.analysisUuid, run.analysisUuid))
    .orderBy(asc(analysisEvents.time), asc(analysisEvents.id));
  const events: EventResponse[] = rows.map(({ event, userId, email, firstName, lastName }) => ({
    id: event.id,
    time: event.time,
    original_time: event.originalTime,
    label: event.label,
    flagged: event.flagged,
    discarded: event.discarded,
    updated_by:
      userId === null
        ? null
        : {
            id: userId,
            display_name: displayName({ email: email ?? '', firstName: firstName ?? '', lastName: lastName ?? '' }),
          },
    updated_at: event.updatedAt?.toISOString() ?? null,
  }));
  return { analysis_uuid: run.analysisUuid, version: run.eventsVersion, events };
}

function requireEvents(run: AnalysisRow) {
  if (run.status !== 'succeeded') throw badRequest('This run has not succeeded, so it has no events to review.');
}

/**
 * Applies Quick Score's changes all together or not at all. The caller names the version it changed; if
 * someone else saved since, nothing is applied and the answer is 409 with the current version.
 */
export async function updateEvents(
  context: AppContext,
  video: VideoRow,
  userId: number,
  body: z.output<typeof updateEventsBody>,
) {
  const selected = await selectRun(context, video, body.analysis_uuid);
  requireEvents(selected);
  const duration = video.durationS ?? Number.POSITIVE_INFINITY;
  const halfFrame = 0.5 / (video.fps ?? 30);
  await context.db.transaction(async (tx) => {
    const [run] = await tx
      .select()
      .from(analyses)
      .where(eq(analyses.analysisUuid, selected.analysisUuid))
      .for('update');
    if (!run) throw notFound();
    if (run.eventsVersion !== body.version) {
      throw conflict(
        'These events were changed by someone else since you loaded them. Reload to see the current version.',
        {
          version: run.eventsVersion,
        },
      );
    }
    const existing = await tx
      .select({ id: analysisEvents.id, time: analysisEvents.time })
      .from(analysisEvents)
      .where(eq(analysisEvents.analysisUuid, run.analysisUuid));
    const times = new Map(existing.map((e) => [e.id, e.time]));
    let nextId = run.nextEventId;
    const now = new Date();
    const stamp = { updatedById: userId, updatedAt: now };
    const problems: string[] = [];
    const checkTime = (index: number, time: number) => {
      if (time < 0) problems.push(`Change ${index}: an event cannot be before 0 s.`);
      else if (time > duration + 1e-9) problems.push(`Change ${index}: ${time} s is after the end of the video.`);
      else return true;
      return false;
    };
    const where = (id: number) => and(eq(analysisEvents.analysisUuid, run.analysisUuid), eq(analysisEvents.id, id));
    for (const [i, change] of body.changes.entries()) {
      const index = i + 1;
      if (change.action !== 'add' && !times.has(change.id)) {
        problems.push(`Change ${index}: event ${change.id} does not exist.`);
        continue;
      }
      await applyChange(change, index);
    }
    if (problems.length > 0) throw badRequest({ changes: problems });
    await tx
      .update(analyses)
      .set({ eventsVersion: run.eventsVersion + 1, nextEventId: nextId })
      .where(eq(analyses.analysisUuid, run.analysisUuid));

    async function applyChange(change: EventChange, index: number) {
      switch (change.action) {
        case 'add': {
          if (!checkTime(index, change.time)) return;
          const clash = [...times.values()].some((t) => Math.abs(t - change.time) < halfFrame);
          if (clash) {
            problems.push(`Change ${index}: there is already an event at ${change.time} s.`);
            return;
          }
          const id = nextId++;
          await tx.insert(analysisEvents).values({
            analysisUuid: run!.analysisUuid,
            id,
            time: change.time,
            originalTime: null,
            label: change.label ?? null,
            flagged: change.flagged ?? false,
            ...stamp,
          });
          times.set(id, change.time);
          return;
        }
        case 'move':
          if (!checkTime(index, change.time)) return;
          await tx
            .update(analysisEvents)
            .set({ time: change.time, ...stamp })
            .where(where(change.id));
          times.set(change.id, change.time);
          return;
        case 'discard':
        case 'restore':
          await tx
            .update(analysisEvents)
            .set({ discarded: change.action === 'discard', ...stamp })
            .where(where(change.id));
          return;
        case 'flag':
        case 'unflag':
          await tx
            .update(analysisEvents)
            .set({ flagged: change.action === 'flag', ...stamp })
            .where(where(change.id));
          return;
        case 'label':
          await tx
            .update(analysisEvents)
            .set({ label: change.label || null, ...stamp })
            .where(where(change.id));
          return;
        case 'delete':
          await tx.delete(analysisEvents).where(where(change.id));
          times.delete(change.id);
          return;
      }
    }
  });
  const [fresh] = await context.db.select().from(analyses).where(eq(analyses.analysisUuid, selected.analysisUuid));
  return readEvents(context, fresh!);
}

// ---- Time series ----

const DOWNLOAD_SECONDS = 60 * 60;

export async function timeseriesUrl(context: AppContext, run: AnalysisRow) {
  if (run.status !== 'succeeded' || !run.seriesCsvKey) throw badRequest('This run has no time series yet.');
  const presigned = await context.storage.presignedUrl(run.seriesCsvKey, DOWNLOAD_SECONDS);
  if (presigned) return { url: presigned, expires_at: new Date(Date.now() + DOWNLOAD_SECONDS * 1000).toISOString() };
  const { token, expiresAt } = await context.tokens.signDownload(run.seriesCsvKey, DOWNLOAD_SECONDS);
  return { url: `${context.config.publicUrl}/api/files/${token}`, expires_at: expiresAt.toISOString() };
}

// ---- Preview ----

export async function preview(context: AppContext, video: VideoRow, body: z.output<typeof previewBody>) {
  requireReady(video);
  const parameters = parseMovementParameters(body.parameters, video);
  const source = await probeSource(context, video);
  const startFrame = Math.min(Math.round(body.start_s * source.fps), Math.max(0, source.frameCount - 1));
  const endFrame = Math.min(source.frameCount, startFrame + Math.max(1, Math.round(body.length_s * source.fps)));
  const started = performance.now();
  const local = await openMediaInput(context, source.originalKey);
  try {
    const result = await runTask({
      kind: 'preview',
      ffmpeg: context.media.binaries.ffmpeg,
      source: { ...source, path: local.path },
      parameters,
      startFrame,
      endFrame,
    });
    return {
      start_s: startFrame / source.fps,
      fps: source.fps,
      frames: Array.from(result.values, (_, i) => startFrame + i),
      values: Array.from(result.values, (v) => (Number.isNaN(v) ? null : v)),
      events: Array.from(result.eventTimes),
      threshold: result.threshold,
      image: `data:image/png;base64,${Buffer.from(result.png).toString('base64')}`,
      elapsed_ms: Math.round(performance.now() - started),
    };
  } finally {
    await local.release();
  }
}

// ---- Time series import ----

const MAX_TIMESERIES_BYTES = 512 * 1024 * 1024;

/**
 * Imports an uploaded CSV as a run of the video: the file streams to disk, a worker thread parses and checks
 * it (a broken row is named, nothing is stored), then event detection runs on it.
 */
export async function importTimeseries(context: AppContext, video: VideoRow, userId: number, request: FastifyRequest) {
  requireReady(video);
  if (!request.isMultipart()) {
    throw unsupportedMediaType('Send the time series as multipart/form-data in the field "timeseries".');
  }
  const dir = path.join(context.config.dataDir, 'tmp', `import-${randomUUID()}`);
  await mkdir(dir, { recursive: true });
  try {
    const file = path.join(dir, 'timeseries.csv');
    let fileName: string | undefined;
    let rawParameters: unknown = {};
    for await (const part of request.parts({ limits: { fileSize: MAX_TIMESERIES_BYTES, files: 1 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'timeseries') {
          part.file.resume();
          continue;
        }
        fileName = part.filename;
        await pipeline(part.file, createWriteStream(file));
        if (part.file.truncated) {
          throw payloadTooLarge(`The time series file is larger than ${MAX_TIMESERIES_BYTES / 1024 / 1024} MB.`);
        }
      } else if (part.fieldname === 'parameters') {
        try {
          rawParameters = JSON.parse(String(part.value));
        } catch {
          throw badRequest({ parameters: ['Must be a JSON object.'] });
        }
      }
    }
    if (fileName === undefined) throw badRequest({ timeseries: ['CSV is empty'] });
    if (!fileName.toLowerCase().endsWith('.csv')) throw badRequest({ timeseries: ['File is not a CSV'] });
    const parameters = parseEventParameters(rawParameters);
    const parsed = await runTask({ kind: 'import', path: file });
    if (!parsed.ok) throw badRequest({ timeseries: [parsed.error] });
    const fps = video.fps ?? 30;
    const series = { values: parsed.values, times: parsed.times, fps };
    const [run] = await context.db
      .insert(analyses)
      .values({
        projectUuid: video.projectUuid,
        subjectUuid: video.subjectUuid,
        videoUuid: video.videoUuid,
        kind: 'timeseries_import',
        parameters,
        status: 'running',
        startedAt: new Date(),
        source: { ...basicSource(video), fileName },
        createdById: userId,
        softwareVersion: await softwareVersion(context),
      })
      .returning();
    const prefix = analysisStoragePrefix(run!);
    try {
      const keys = {
        seriesKey: `${prefix}series.f64`,
        timesKey: series.times ? `${prefix}times.f64` : null,
        seriesCsvKey: `${prefix}series.csv`,
      };
      await context.storage.write(keys.seriesKey, Buffer.from(series.values.buffer, 0, series.values.byteLength));
      if (series.times && keys.timesKey) {
        await context.storage.write(keys.timesKey, Buffer.from(series.times.buffer, 0, series.times.byteLength));
      }
      const csvPath = path.join(dir, 'series.csv');
      const detected = await runTask({ kind: 'detect', series, events: parameters, freezing: null, csvPath });
      await context.storage.importFile(keys.seriesCsvKey, csvPath, 'text/csv');
      await completeRun(context, run!, series, detected, keys);
    } catch (error) {
      // Nothing half-imported stays behind.
      await context.db.delete(analyses).where(eq(analyses.analysisUuid, run!.analysisUuid));
      await context.storage.deletePrefix(prefix);
      throw error;
    }
    return run!.analysisUuid;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
