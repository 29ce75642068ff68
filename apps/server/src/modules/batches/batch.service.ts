/**
 * Batches as the API shows them (ADR 035): a page of the project's batches, one batch with each video's newest run,
 * retry (new runs for the videos whose newest run failed or was stopped) and stop (revokes what has not finished).
 */
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { analyses, batches, batchRuns, protocolVersions, subjects, users, videos } from '../../db/schema.js';
import { isUuid } from '../../lib/access.js';
import { conflict, notFound } from '../../lib/errors.js';
import { toPage } from '../../lib/pagination.js';
import { stopRuns } from '../analysis/analysis.service.js';
import { protocolForRun } from '../protocols/protocol.service.js';
import { displayName } from '../users/user.serializer.js';
import { prepareVideos, queueBatchRuns, storeBatchRuns } from './batch.create.js';
import { batchProgress } from './batch.progress.js';
import type {
  batchDetailSchema,
  batchListQuery,
  batchRunSchema,
  batchSchema,
  VideoAdjustment,
} from './batch.schemas.js';

export type BatchRow = typeof batches.$inferSelect;
type BatchAnswer = z.infer<typeof batchSchema>;
type RunAnswer = z.infer<typeof batchRunSchema>;

/** The batch of the project, or 404 (another project's batch is one that does not exist). */
export async function requireBatch(context: AppContext, projectUuid: string, batchUuid: string): Promise<BatchRow> {
  if (!isUuid(batchUuid)) throw notFound();
  const [row] = await context.db
    .select()
    .from(batches)
    .where(and(eq(batches.batchUuid, batchUuid), eq(batches.projectUuid, projectUuid)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** Each video's newest run of these batches, with its video and subject, by subject and video name. */
export async function newestRuns(db: Database, batchUuids: string[]) {
  if (batchUuids.length === 0) return [];
  const newest = db
    .selectDistinctOn([batchRuns.batchUuid, batchRuns.videoUuid], {
      analysisUuid: batchRuns.analysisUuid,
      batchUuid: batchRuns.batchUuid,
      attempt: batchRuns.attempt,
      overrides: batchRuns.overrides,
      linkedAt: batchRuns.createdAt,
    })
    .from(batchRuns)
    .where(inArray(batchRuns.batchUuid, batchUuids))
    .orderBy(batchRuns.batchUuid, batchRuns.videoUuid, desc(batchRuns.attempt))
    .as('newest');
  return db
    .select({
      batchUuid: newest.batchUuid,
      attempt: newest.attempt,
      overrides: newest.overrides,
      linkedAt: newest.linkedAt,
      analysisUuid: analyses.analysisUuid,
      status: analyses.status,
      progress: analyses.progress,
      error: analyses.error,
      frames: sql<number | null>`(${analyses.source} ->> 'frameCount')::int`,
      createdAt: analyses.createdAt,
      startedAt: analyses.startedAt,
      finishedAt: analyses.finishedAt,
      videoUuid: videos.videoUuid,
      videoName: videos.name,
      subjectUuid: subjects.subjectUuid,
      subjectName: subjects.name,
      group: subjects.group,
    })
    .from(newest)
    .innerJoin(analyses, eq(analyses.analysisUuid, newest.analysisUuid))
    .innerJoin(videos, eq(videos.videoUuid, analyses.videoUuid))
    .innerJoin(subjects, eq(subjects.subjectUuid, videos.subjectUuid))
    .orderBy(asc(subjects.name), asc(videos.name), asc(videos.videoUuid));
}

type NewestRun = Awaited<ReturnType<typeof newestRuns>>[number];

function runAnswer(run: NewestRun): RunAnswer {
  return {
    video_uuid: run.videoUuid,
    video_name: run.videoName,
    subject_uuid: run.subjectUuid,
    subject_name: run.subjectName,
    group: run.group,
    analysis_uuid: run.analysisUuid,
    attempt: run.attempt,
    status: run.status,
    progress: run.status === 'succeeded' ? 1 : run.progress,
    error: run.error,
    overrides: (run.overrides as VideoAdjustment | null) ?? null,
    created_at: run.createdAt.toISOString(),
    started_at: run.startedAt?.toISOString() ?? null,
    finished_at: run.finishedAt?.toISOString() ?? null,
  };
}

/** The batches' rows as answers (their runs read in one query), in the given order. */
async function answers(context: AppContext, rows: BatchRow[]): Promise<(BatchAnswer & { runs: RunAnswer[] })[]> {
  if (rows.length === 0) return [];
  const runs = await newestRuns(
    context.db,
    rows.map((row) => row.batchUuid),
  );
  const names = await context.db
    .select({
      protocolUuid: protocolVersions.protocolUuid,
      version: protocolVersions.version,
      name: protocolVersions.name,
    })
    .from(protocolVersions)
    .where(inArray(protocolVersions.protocolUuid, [...new Set(rows.map((row) => row.protocolUuid))]));
  const people = await userNames(
    context,
    rows.map((row) => row.createdById),
  );
  const now = new Date();
  return rows.map((row) => {
    const own = runs.filter((run) => run.batchUuid === row.batchUuid);
    const progress = batchProgress(
      own.map((run) => ({ status: run.status, progress: run.progress, frames: run.frames, linkedAt: run.linkedAt })),
      now,
    );
    return {
      batch_uuid: row.batchUuid,
      project_uuid: row.projectUuid,
      protocol_uuid: row.protocolUuid,
      protocol_name:
        names.find((name) => name.protocolUuid === row.protocolUuid && name.version === row.protocolVersion)?.name ??
        '',
      protocol_version: row.protocolVersion,
      kind: row.kind,
      selection: row.selection as BatchAnswer['selection'],
      created_by: row.createdById === null ? null : (people.get(row.createdById) ?? null),
      created_at: row.createdAt.toISOString(),
      ...progress,
      runs: own.map(runAnswer),
    };
  });
}

async function userNames(context: AppContext, ids: (number | null)[]) {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  const rows = wanted.length ? await context.db.select().from(users).where(inArray(users.id, wanted)) : [];
  return new Map(rows.map((row) => [row.id, { id: row.id, display_name: displayName(row) }]));
}

export async function listBatches(
  context: AppContext,
  projectUuid: string,
  query: z.output<typeof batchListQuery>,
  requestUrl: string,
) {
  const where = and(
    eq(batches.projectUuid, projectUuid),
    query.protocol_uuid === undefined
      ? undefined
      : isUuid(query.protocol_uuid)
        ? eq(batches.protocolUuid, query.protocol_uuid)
        : sql`false`,
  );
  const [total] = await context.db.select({ count: count() }).from(batches).where(where);
  const rows = await context.db
    .select()
    .from(batches)
    .where(where)
    .orderBy(desc(batches.createdAt), desc(batches.batchUuid))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  const results = (await answers(context, rows)).map(({ runs: _runs, ...batch }) => batch);
  return toPage(requestUrl, context.config.publicUrl, query, total?.count ?? 0, results);
}

export async function getBatch(
  context: AppContext,
  projectUuid: string,
  batchUuid: string,
): Promise<z.infer<typeof batchDetailSchema>> {
  const row = await requireBatch(context, projectUuid, batchUuid);
  const [answer] = await answers(context, [row]);
  return answer!;
}

/**
 * `POST …/retry/`: a new run (the next attempt) for every video whose newest run failed or was stopped, with the
 * batch's protocol version and the video's adjustments, checked and stored as a batch's first runs are (all or
 * nothing). The failed runs stay as they were (their errors are history); the batch shows the new ones.
 */
export async function retryBatch(context: AppContext, projectUuid: string, batchUuid: string, userId: number) {
  const batch = await requireBatch(context, projectUuid, batchUuid);
  const runs = (await newestRuns(context.db, [batch.batchUuid])).filter(
    (run) => run.status === 'failed' || run.status === 'revoked',
  );
  if (runs.length === 0) throw conflict('Nothing to retry: no video’s newest run has failed or been stopped.');
  const protocol = await protocolForRun(context, projectUuid, batch.protocolUuid, batch.protocolVersion);
  const rows = await context.db
    .select()
    .from(videos)
    .where(
      inArray(
        videos.videoUuid,
        runs.map((run) => run.videoUuid),
      ),
    );
  const byUuid = new Map(rows.map((row) => [row.videoUuid, row]));
  const prepared = await prepareVideos(
    context,
    userId,
    protocol,
    runs.map((run) => ({ video: byUuid.get(run.videoUuid)!, subjectName: run.subjectName })),
    new Map(
      runs.filter((run) => run.overrides).map((run) => [run.videoUuid, run.overrides as unknown as VideoAdjustment]),
    ),
  );
  const attempts = new Map(runs.map((run) => [run.videoUuid, run.attempt + 1]));
  const uuids = await context.db.transaction((tx) =>
    storeBatchRuns(tx as unknown as Database, batch.batchUuid, prepared, attempts),
  );
  await queueBatchRuns(context, prepared, uuids);
  return getBatch(context, projectUuid, batch.batchUuid);
}

/** `POST …/stop/`: revokes every newest run still queued or running (the revoke path of a single run). */
export async function stopBatch(context: AppContext, projectUuid: string, batchUuid: string) {
  const batch = await requireBatch(context, projectUuid, batchUuid);
  const active = (await newestRuns(context.db, [batch.batchUuid])).filter(
    (run) => run.status === 'queued' || run.status === 'running',
  );
  const revoked = await stopRuns(
    context,
    active.map((run) => run.analysisUuid),
  );
  if (revoked.length === 0) throw conflict('Nothing to stop: every run of this batch has finished.');
  return getBatch(context, projectUuid, batch.batchUuid);
}
