/**
 * Making a batch's runs (ADR 035). Every video's run is prepared first — through the very function
 * `POST …/videos/{v}/analysis/` uses, with the protocol and the video's adjustments as a run's overrides — so that a
 * bad video, override or geometry refuses the whole request (400, by video and field) before anything exists. The
 * batch and all its runs are then stored in one transaction, and every run is queued at once: their pieces are jobs
 * any worker takes. A run that cannot be queued fails on its own; the others go on.
 */
import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { analyses, batches, batchRuns, type ProtocolKind, subjects, videos } from '../../db/schema.js';
import { isUuid } from '../../lib/access.js';
import { badRequest, HttpError } from '../../lib/errors.js';
import { type PreparedRun, prepareRun, queueRuns, storeRuns } from '../analysis/analysis.create.js';
import { protocolForRun } from '../protocols/protocol.service.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { loadStoredPacketIndexes } from '../videos/video.packet-index.js';
import { adjustedGeometry } from './batch.geometry.js';
import type { CreateBatchBody, VideoAdjustment } from './batch.schemas.js';
import { MAX_BATCH_VIDEOS } from './batch.schemas.js';

type Protocol = Awaited<ReturnType<typeof protocolForRun>>;

/** A video of the batch, with the names its errors and rows are shown by. */
export interface BatchVideo {
  video: VideoRow;
  subjectName: string;
}

const errorsOf = (field: string, message: string) => badRequest({ [field]: [message] });

/** The project's videos with their subjects' names, in the batch's order (subject, then video name). */
function videosOfProject(context: AppContext, projectUuid: string) {
  return context.db
    .select({ video: videos, subjectName: subjects.name, group: subjects.group })
    .from(videos)
    .innerJoin(subjects, eq(subjects.subjectUuid, videos.subjectUuid))
    .$dynamic()
    .orderBy(asc(subjects.name), asc(videos.name), asc(videos.videoUuid))
    .where(eq(videos.projectUuid, projectUuid));
}

/** The videos the request names: a list, chosen subjects' or a group's ready videos, or every ready video. */
export async function selectVideos(
  context: AppContext,
  projectUuid: string,
  body: Pick<CreateBatchBody, 'video_uuids' | 'subject_uuids' | 'group'>,
): Promise<BatchVideo[]> {
  const given = (['video_uuids', 'subject_uuids', 'group'] as const).filter((key) => body[key] !== undefined);
  if (given.length > 1) {
    throw badRequest(
      Object.fromEntries(
        given.map((key) => [key, ['Choose the videos one way: video_uuids, subject_uuids or group.']]),
      ),
    );
  }
  const ready = eq(videos.status, 'ready');
  const inProject = eq(videos.projectUuid, projectUuid);
  let rows: { video: VideoRow; subjectName: string }[];
  let field = 'videos';
  if (body.video_uuids) {
    field = 'video_uuids';
    const wanted = [...new Set(body.video_uuids)];
    const valid = wanted.filter(isUuid);
    rows = valid.length
      ? await videosOfProject(context, projectUuid).where(and(inProject, inArray(videos.videoUuid, valid)))
      : [];
    const known = new Set(rows.map((row) => row.video.videoUuid));
    const missing = wanted.filter((uuid) => !known.has(uuid));
    if (missing.length > 0) throw errorsOf(field, `No video of this project has the id(s) ${missing.join(', ')}.`);
  } else if (body.subject_uuids) {
    field = 'subject_uuids';
    const wanted = [...new Set(body.subject_uuids)];
    const valid = wanted.filter(isUuid);
    const found = valid.length
      ? await context.db
          .select({ subjectUuid: subjects.subjectUuid })
          .from(subjects)
          .where(and(eq(subjects.projectUuid, projectUuid), inArray(subjects.subjectUuid, valid)))
      : [];
    const known = new Set(found.map((row) => row.subjectUuid));
    const missing = wanted.filter((uuid) => !known.has(uuid));
    if (missing.length > 0) throw errorsOf(field, `No subject of this project has the id(s) ${missing.join(', ')}.`);
    rows = await videosOfProject(context, projectUuid).where(
      and(inProject, ready, inArray(videos.subjectUuid, [...known])),
    );
  } else if (body.group !== undefined) {
    field = 'group';
    rows = await videosOfProject(context, projectUuid).where(
      and(inProject, ready, sql`trim(${subjects.group}) = ${body.group}`),
    );
  } else {
    rows = await videosOfProject(context, projectUuid).where(and(inProject, ready));
  }
  if (rows.length === 0) {
    throw errorsOf(
      field,
      field === 'group'
        ? `No subject of the group "${body.group}" has a ready video.`
        : field === 'subject_uuids'
          ? 'These subjects have no ready video.'
          : 'The project has no ready video to analyse.',
    );
  }
  if (rows.length > MAX_BATCH_VIDEOS) {
    throw errorsOf(field, `That is ${rows.length} videos; a batch takes at most ${MAX_BATCH_VIDEOS}.`);
  }
  return rows.map((row) => ({ video: row.video, subjectName: row.subjectName }));
}

/**
 * For an event-detection protocol: each video's newest succeeded run with a series to detect on (movement, imported
 * or pose-derived); a video without one is an error of the request.
 */
async function seriesRunsOf(context: AppContext, videoUuids: string[]): Promise<Map<string, string>> {
  const rows = await context.db
    .selectDistinctOn([analyses.videoUuid], { videoUuid: analyses.videoUuid, analysisUuid: analyses.analysisUuid })
    .from(analyses)
    .where(
      and(
        inArray(analyses.videoUuid, videoUuids),
        eq(analyses.status, 'succeeded'),
        inArray(analyses.kind, ['movement_detection', 'timeseries_import', 'pose_series']),
        isNotNull(analyses.seriesKey),
      ),
    )
    .orderBy(analyses.videoUuid, desc(analyses.createdAt));
  return new Map(rows.map((row) => [row.videoUuid, row.analysisUuid]));
}

export interface PreparedVideo extends BatchVideo {
  prepared: PreparedRun;
  adjustment: VideoAdjustment | null;
}

/** The run's overrides for one video: the geometry moved (as overrides of its keys), then its own parameters. */
function runOverrides(kind: ProtocolKind, protocol: Protocol, video: VideoRow, adjustment: VideoAdjustment | null) {
  if (!adjustment) return {};
  if (adjustment.geometry && kind === 'event_detection') {
    throw errorsOf('geometry', 'An event-detection protocol has no geometry to move.');
  }
  const moved = adjustment.geometry
    ? adjustedGeometry(kind, protocol.parameters, adjustment.geometry, {
        width: video.width ?? 0,
        height: video.height ?? 0,
      })
    : {};
  return { ...moved, ...adjustment.parameters };
}

/** A video's error, named by the video: `videos.<uuid>.<field>`, each message after "subject / video: ". */
function videoErrors(item: BatchVideo, error: HttpError): Record<string, string[]> {
  const name = `${item.subjectName} / ${item.video.name}`;
  const prefix = `videos.${item.video.videoUuid}`;
  if (typeof error.errors === 'string') return { [prefix]: [`${name}: ${error.errors}`] };
  return Object.fromEntries(
    Object.entries(error.errors).map(([field, messages]) => [
      `${prefix}.${field}`,
      messages.map((message) => `${name}: ${message}`),
    ]),
  );
}

/** How many videos are prepared at once: their checks wait on the database and storage, not the CPU. */
const PREPARE_CONCURRENCY = 4;

/**
 * Prepares every video's run (nothing is written); every video's problems are collected, and any refuses the
 * whole request with all of them.
 */
export async function prepareVideos(
  context: AppContext,
  userId: number,
  protocol: Protocol,
  items: BatchVideo[],
  adjustments: Map<string, VideoAdjustment>,
): Promise<PreparedVideo[]> {
  const sources =
    protocol.kind === 'event_detection'
      ? await seriesRunsOf(
          context,
          items.map((item) => item.video.videoUuid),
        )
      : null;
  // Every video's packet index in one read (each run's clean starts are found on it).
  const indexes = await loadStoredPacketIndexes(
    context,
    items.map((item) => item.video.videoUuid),
  );
  // As many videos as workers or more: each run whole (up to ANALYSIS_SEGMENT_SECONDS a piece), since cutting
  // every run into a piece per worker would add each piece's start-up cost and no parallelism the videos lack.
  const parallelism = items.length >= context.config.analysisWorkers ? 1 : undefined;
  const errors: Record<string, string[]> = {};
  const prepared = new Array<PreparedVideo | undefined>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index]!;
      const adjustment = adjustments.get(item.video.videoUuid) ?? null;
      try {
        const sourceRun = sources?.get(item.video.videoUuid);
        if (sources && !sourceRun) {
          throw errorsOf('source_analysis_uuid', 'The video has no finished run with a time series to detect on.');
        }
        const run = await prepareRun(
          context,
          item.video,
          userId,
          {
            protocol_uuid: protocol.protocolUuid,
            protocol_version: protocol.version,
            parameters: runOverrides(protocol.kind, protocol, item.video, adjustment),
            source_analysis_uuid: sourceRun,
          },
          { protocol, packetIndex: indexes.get(item.video.videoUuid), parallelism },
        );
        prepared[index] = { ...item, prepared: run, adjustment };
      } catch (error) {
        if (!(error instanceof HttpError) || error.status !== 400) throw error;
        Object.assign(errors, videoErrors(item, error));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PREPARE_CONCURRENCY, items.length) }, worker));
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  return prepared as PreparedVideo[];
}

/** Stores the prepared runs and their links (attempt per video) in the caller's transaction. */
export async function storeBatchRuns(
  tx: Database,
  batchUuid: string,
  runs: PreparedVideo[],
  attempts: Map<string, number> = new Map(),
): Promise<string[]> {
  const uuids = await storeRuns(
    tx,
    runs.map((run) => run.prepared),
  );
  await tx.insert(batchRuns).values(
    runs.map((run, i) => ({
      analysisUuid: uuids[i]!,
      batchUuid,
      videoUuid: run.video.videoUuid,
      attempt: attempts.get(run.video.videoUuid) ?? 1,
      overrides: run.adjustment as Record<string, unknown> | null,
    })),
  );
  return uuids;
}

/** Queues every stored run at once; runs that cannot be queued are failed (queueRuns) and the others go on. */
export async function queueBatchRuns(context: AppContext, runs: PreparedVideo[], uuids: string[]): Promise<void> {
  await queueRuns(
    context,
    runs.map((run, i) => ({ prepared: run.prepared, analysisUuid: uuids[i]! })),
  ).catch((error: unknown) => {
    context.logger.error({ err: error, batchRuns: uuids.length }, 'queueing some runs of a batch failed');
  });
}

/** The protocol, the videos and every video's prepared run of a batch request (400 on anything wrong). */
async function prepareBatch(context: AppContext, projectUuid: string, userId: number, body: CreateBatchBody) {
  const protocol = await protocolForRun(context, projectUuid, body.protocol_uuid, body.protocol_version);
  const items = await selectVideos(context, projectUuid, body);
  const inBatch = new Set(items.map((item) => item.video.videoUuid));
  const strangers = Object.keys(body.overrides ?? {}).filter((uuid) => !inBatch.has(uuid));
  if (strangers.length > 0) {
    throw badRequest(
      Object.fromEntries(strangers.map((uuid) => [`overrides.${uuid}`, ['This video is not in the batch.']])),
    );
  }
  const prepared = await prepareVideos(context, userId, protocol, items, new Map(Object.entries(body.overrides ?? {})));
  return { protocol, prepared };
}

/**
 * `POST …/batches/check/`: what a batch request would run, without making anything — each video's parameters as its
 * run would use them (the protocol's, adjusted and overridden, defaults filled in), for a page to draw on the video's
 * frame before the batch starts. The same 400s as the batch itself.
 */
export async function checkBatch(context: AppContext, projectUuid: string, userId: number, body: CreateBatchBody) {
  const { protocol, prepared } = await prepareBatch(context, projectUuid, userId, body);
  return {
    protocol_uuid: protocol.protocolUuid,
    protocol_version: protocol.version,
    kind: protocol.kind,
    runs: prepared.map((run) => ({
      video_uuid: run.video.videoUuid,
      video_name: run.video.name,
      subject_name: run.subjectName,
      parameters: run.prepared.values.parameters as Record<string, unknown>,
      notices: run.prepared.notices,
    })),
  };
}

/** `POST /projects/{p}/batches/`: answers the new batch's uuid. */
export async function createBatch(
  context: AppContext,
  projectUuid: string,
  userId: number,
  body: CreateBatchBody,
): Promise<string> {
  const { protocol, prepared } = await prepareBatch(context, projectUuid, userId, body);
  const selection = Object.fromEntries(
    (['video_uuids', 'subject_uuids', 'group'] as const)
      .filter((key) => body[key] !== undefined)
      .map((key) => [key, body[key]]),
  );
  const { batchUuid, uuids } = await context.db.transaction(async (raw) => {
    const tx = raw as unknown as Database;
    const [batch] = await tx
      .insert(batches)
      .values({
        projectUuid,
        protocolUuid: protocol.protocolUuid,
        protocolVersion: protocol.version,
        kind: protocol.kind,
        selection,
        createdById: userId,
      })
      .returning({ batchUuid: batches.batchUuid });
    return { batchUuid: batch!.batchUuid, uuids: await storeBatchRuns(tx, batch!.batchUuid, prepared) };
  });
  await queueBatchRuns(context, prepared, uuids);
  return batchUuid;
}
