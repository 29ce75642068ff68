/** Reading runs: one run of a video, the project's list, a run's series and tables, the series download. */
import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { preparedOnce } from '../../db/prepared.js';
import { analyses, subjects, users, videos } from '../../db/schema.js';
import { isUuid } from '../../lib/access.js';
import { runNamePart } from '../../lib/download-names.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { exportPercent, exportRate } from '../../lib/export-numbers.js';
import { toPage } from '../../lib/pagination.js';
import { downloadUrl } from '../files/file-urls.js';
import { suggestionSource } from '../suggestions/suggestions.cache.js';
import { displayName } from '../users/user.serializer.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { type EventGroup, eventCounts, eventGroupsSql } from './analysis.counts.js';
import { countDefinitionsTable, eventsTable, runCountsTable, seriesTable } from './analysis.exports.js';
import type { AnalysisRow } from './analysis.runs.js';
import type { analysisListQuery, analysisSchema } from './analysis.schemas.js';
import { presentSourceSeries, sourceSeriesSql } from './analysis.source-series.js';
import { locationSeriesTable } from './location.export.js';

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
    hasTimes: run.timesKey !== null,
    open: () => context.storage.read(key),
  };
}

/**
 * A succeeded run's events or series as tables to export (the events XLSX adds the run's counts and their
 * definitions), and the parts of the file's name: subject, video, run, table.
 */
export async function runTables(
  context: AppContext,
  scope: { subject: { name: string }; video: VideoRow },
  analysisUuid: string,
  table: 'events' | 'series',
  format: 'csv' | 'xlsx',
) {
  const run = await findRunOfVideo(context, scope.video, analysisUuid);
  if (run.status !== 'succeeded') throw badRequest('This run has not succeeded, so it has nothing to export.');
  if (run.kind === 'location_tracking' && table === 'events') {
    throw badRequest({ table: ['A location-tracking run has no events: export its series (table=series).'] });
  }
  const tables =
    run.kind === 'location_tracking'
      ? [await locationSeriesTable(context, run)]
      : table === 'series'
        ? [await seriesTable(context, run)]
        : format === 'xlsx'
          ? [
              eventsTable(context, run, await suggestionSource(context, run)),
              await runCountsTable(context, run),
              countDefinitionsTable(),
            ]
          : [eventsTable(context, run, await suggestionSource(context, run))];
  return { tables, nameParts: [scope.subject.name, scope.video.name, runNamePart(run), table] };
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
  eventGroups: sql<EventGroup[] | string | null>`case when ${analyses.status} = 'succeeded' then ${eventGroupsSql} end`,
  sourceSeries: sourceSeriesSql,
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
  eventGroups: EventGroup[] | string | null;
  sourceSeries: Parameters<typeof presentSourceSeries>[0];
};

/** The stored summary with its rate and percentages as precise as they are (the exports' rounding). */
function presentSummary(summary: AnalysisResponse['summary'] | undefined): AnalysisResponse['summary'] {
  if (!summary) return null;
  const { freezing } = summary;
  return {
    ...summary,
    event_rate_per_min: exportRate(summary.event_rate_per_min),
    freezing: freezing && { ...freezing, percent: exportPercent(freezing.percent, freezing.valid_frames) },
  };
}

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
    source_series: presentSourceSeries(row.sourceSeries),
    protocol_uuid: run.protocolUuid,
    protocol_version: run.protocolVersion,
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
    summary: presentSummary(run.summary as AnalysisResponse['summary']),
    event_count: row.eventCount === null ? null : Number(row.eventCount),
    event_counts: row.eventGroups === null ? null : eventCounts(row.eventGroups, run.summary),
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

/** A page of a project's runs, newest first, without filters: prepared once per database. */
function runsPage(db: Database) {
  return db
    .select(listColumns)
    .from(analyses)
    .innerJoin(subjects, eq(subjects.subjectUuid, analyses.subjectUuid))
    .innerJoin(videos, eq(videos.videoUuid, analyses.videoUuid))
    .leftJoin(users, eq(users.id, analyses.createdById))
    .where(eq(analyses.projectUuid, sql.placeholder('projectUuid')))
    .orderBy(desc(analyses.createdAt), desc(analyses.analysisUuid))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare('analyses_page');
}

/**
 * The project's runs, newest first. Without filters the total is the project's maintained `analysis_count`
 * (triggers, migration 0014), read with the scope, and the page is one prepared statement; filters count matches.
 */
export async function listAnalyses(
  context: AppContext,
  project: { projectUuid: string; analysisCount: number },
  query: z.output<typeof analysisListQuery>,
  requestUrl: string,
) {
  const { projectUuid } = project;
  const conditions: SQL[] = [eq(analyses.projectUuid, projectUuid)];
  if (query.kind) conditions.push(eq(analyses.kind, query.kind));
  if (query.status) conditions.push(eq(analyses.status, query.status));
  for (const [value, column, field] of [
    [query.subject, analyses.subjectUuid, 'subject'],
    [query.video, analyses.videoUuid, 'video'],
    [query.protocol, analyses.protocolUuid, 'protocol'],
  ] as const) {
    if (value === undefined) continue;
    if (!isUuid(value)) throw badRequest({ [field]: ['Must be a valid UUID.'] });
    conditions.push(eq(column, value));
  }
  if (query.has_events !== undefined) {
    // Quick Score opens a run worth reviewing: one that found events, when the project has one.
    const found = sql`exists (select 1 from analysis_events e where e.analysis_uuid = ${analyses.analysisUuid})`;
    conditions.push(query.has_events === 'true' ? found : sql`not ${found}`);
  }
  const offset = (query.page - 1) * query.page_size;
  let total: number;
  let rows: ListRow[];
  if (conditions.length === 1) {
    total = project.analysisCount;
    rows =
      offset >= total
        ? []
        : await preparedOnce(context.db, 'analyses page', runsPage).execute({
            projectUuid,
            limit: query.page_size,
            offset,
          });
  } else {
    const where = and(...conditions);
    total = (await context.db.select({ count: count() }).from(analyses).where(where))[0]?.count ?? 0;
    rows = await selectRuns(context)
      .where(where)
      .orderBy(desc(analyses.createdAt), desc(analyses.analysisUuid))
      .limit(query.page_size)
      .offset(offset);
  }
  return toPage(requestUrl, context.config.publicUrl, { ...query }, total, rows.map(serialize));
}

// ---- Time series ----

/** A short-lived download URL of the run's series CSV, for this user (checked again when it is fetched). */
export async function timeseriesUrl(context: AppContext, userId: number, run: AnalysisRow) {
  if (run.status !== 'succeeded' || !run.seriesCsvKey) throw badRequest('This run has no time series yet.');
  return downloadUrl(context, userId, run.seriesCsvKey);
}
