/**
 * Tables users take to their statistics: a run's series and events, and the project summary (one row per
 * subject × video × run). Rows are generated lazily; the writers in lib/table-export stream them.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context.js';
import { analyses, analysisEvents, subjects, users, videos } from '../../db/schema.js';
import type { Cell, Table } from '../../lib/table-export.js';
import { displayName } from '../users/user.serializer.js';
import type { AnalysisRow, RunSource } from './analysis.runs.js';
import { readSeries } from './analysis.runs.js';
import { formatTime } from './engine/series-csv.js';

export const EVENT_COLUMNS = [
  'id',
  'time',
  'original_time',
  'label',
  'flagged',
  'discarded',
  'reviewed_by',
  'reviewed_at',
];

const reviewers = alias(users, 'reviewers');

export function eventsTable(context: AppContext, run: AnalysisRow): Table {
  async function* rows(): AsyncGenerator<Cell[]> {
    // Keyset pages of 1000: any number of events without holding them all.
    let lastTime = Number.NEGATIVE_INFINITY;
    let lastId = 0;
    for (;;) {
      const page = await context.db
        .select({
          event: analysisEvents,
          email: reviewers.email,
          firstName: reviewers.firstName,
          lastName: reviewers.lastName,
        })
        .from(analysisEvents)
        .leftJoin(reviewers, eq(reviewers.id, analysisEvents.reviewedById))
        .where(
          and(
            eq(analysisEvents.analysisUuid, run.analysisUuid),
            sql`(${analysisEvents.time}, ${analysisEvents.id}) > (${lastTime}, ${lastId})`,
          ),
        )
        .orderBy(asc(analysisEvents.time), asc(analysisEvents.id))
        .limit(1000);
      for (const { event, email, firstName, lastName } of page) {
        const reviewer =
          event.reviewedAt && email !== null
            ? displayName({ email, firstName: firstName ?? '', lastName: lastName ?? '' })
            : null;
        yield [
          event.id,
          event.time,
          event.originalTime,
          event.label,
          event.flagged,
          event.discarded,
          reviewer,
          event.reviewedAt?.toISOString() ?? null,
        ];
      }
      const last = page.at(-1)?.event;
      if (!last || page.length < 1000) return;
      lastTime = last.time;
      lastId = last.id;
    }
  }
  return { name: 'events', columns: EVENT_COLUMNS, rows: rows() };
}

export async function seriesTable(context: AppContext, run: AnalysisRow): Promise<Table> {
  const fps = (run.source as RunSource | null)?.fps ?? 30;
  const series = await readSeries(context, run, fps);
  function* rows(): Generator<Cell[]> {
    const row: Cell[] = [0, 0, null];
    for (let i = 0; i < series.values.length; i++) {
      const time = series.times ? series.times[i]! : i / fps;
      const value = series.values[i]!;
      row[0] = series.times ? Math.round(time * fps) : i;
      row[1] = Number(formatTime(time));
      row[2] = Number.isNaN(value) ? null : value;
      yield row;
    }
  }
  return { name: 'time series', columns: ['frame', 'time_s', 'value'], rows: rows() };
}

interface EventCount {
  label: string | null;
  discarded: boolean;
  flagged: boolean;
  reviewed: boolean;
  n: number;
}

/**
 * One row per run of the project that has events: who/what it analysed, how, and its results — events per
 * label (discarded events left out), how many were reviewed, the event rate and % freezing when the run computed it.
 */
export async function projectSummaryTable(context: AppContext, projectUuid: string): Promise<Table> {
  const labelRows = await context.db
    .selectDistinct({ label: analysisEvents.label })
    .from(analysisEvents)
    .innerJoin(analyses, eq(analyses.analysisUuid, analysisEvents.analysisUuid))
    .where(and(eq(analyses.projectUuid, projectUuid), eq(analysisEvents.discarded, false)));
  const labels = labelRows
    .map((r) => r.label)
    .filter((l): l is string => l !== null)
    .sort((a, b) => a.localeCompare(b));
  const columns = [
    'subject',
    'group',
    'video',
    'analysis_uuid',
    'kind',
    'created_at',
    'duration_s',
    'events',
    'events_unlabelled',
    ...labels.map((label) => `events_${label}`),
    'flagged',
    'discarded',
    'reviewed',
    'event_rate_per_min',
    'freezing_percent',
  ];
  async function* rows(): AsyncGenerator<Cell[]> {
    // Offset pages: a project holds thousands of runs at most, and the order is total.
    for (let offset = 0; ; offset += 500) {
      const page = await context.db
        .select({
          run: analyses,
          subjectName: subjects.name,
          group: subjects.group,
          videoName: videos.name,
          counts: sql<EventCount[]>`coalesce((
            select json_agg(c) from (
              select e.label, e.discarded, e.flagged, (e.reviewed_at is not null) as reviewed, count(*)::int as n
              from analysis_events e
              where e.analysis_uuid = "analyses"."analysis_uuid" group by 1, 2, 3, 4
            ) c), '[]'::json)`,
        })
        .from(analyses)
        .innerJoin(subjects, eq(subjects.subjectUuid, analyses.subjectUuid))
        .innerJoin(videos, eq(videos.videoUuid, analyses.videoUuid))
        .where(and(eq(analyses.projectUuid, projectUuid), eq(analyses.status, 'succeeded')))
        .orderBy(asc(subjects.name), asc(videos.name), asc(analyses.createdAt), asc(analyses.analysisUuid))
        .limit(500)
        .offset(offset);
      for (const row of page) {
        const counts: EventCount[] = typeof row.counts === 'string' ? JSON.parse(row.counts) : row.counts;
        const kept = counts.filter((c) => !c.discarded);
        const total = kept.reduce((n, c) => n + c.n, 0);
        const perLabel = (label: string | null) => kept.filter((c) => c.label === label).reduce((n, c) => n + c.n, 0);
        const summary = row.run.summary as { duration_s?: number; freezing?: { percent: number | null } | null } | null;
        const duration = summary?.duration_s ?? null;
        yield [
          row.subjectName,
          row.group,
          row.videoName,
          row.run.analysisUuid,
          row.run.kind,
          row.run.createdAt.toISOString(),
          duration,
          total,
          perLabel(null),
          ...labels.map(perLabel),
          kept.filter((c) => c.flagged).reduce((n, c) => n + c.n, 0),
          counts.filter((c) => c.discarded).reduce((n, c) => n + c.n, 0),
          counts.filter((c) => c.reviewed).reduce((n, c) => n + c.n, 0),
          duration ? (total / duration) * 60 : null,
          summary?.freezing?.percent ?? null,
        ];
      }
      if (page.length < 500) return;
    }
  }
  return { name: 'summary', columns, rows: rows() };
}
