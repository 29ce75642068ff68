/**
 * Tables users take to their statistics: a run's series and events, and the project summary (one row per
 * subject × video × run, with the video's annotation figures). Rows are generated lazily; the writers in
 * lib/table-export stream them.
 */
import { and, asc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context.js';
import { analyses, analysisEvents, annotationConfigs, subjects, users, videos } from '../../db/schema.js';
import { fileDate } from '../../lib/download-names.js';
import { exportPercent, exportSeconds } from '../../lib/export-numbers.js';
import type { Cell, Table } from '../../lib/table-export.js';
import { type SuggestionSource, suggestionFor, votesOf } from '../suggestions/suggestions.cache.js';
import { displayName } from '../users/user.serializer.js';
import { COUNT_DEFINITIONS, eventCounts, eventGroupsSql } from './analysis.counts.js';
import { readSeries } from './analysis.results.js';
import type { AnalysisRow, RunSource } from './analysis.runs.js';
import { formatTime } from './engine/series-csv.js';
import { LOCATION_DEFINITIONS, locationSummaryColumns } from './location.export.js';

export const EVENT_COLUMNS = [
  'id',
  'time',
  'original_time',
  'label',
  'flagged',
  'discarded',
  'reviewed_by',
  'reviewed_at',
  // ADR 014: reviewed_* name the first decision's author and time; the last look is kept apart.
  'last_viewed_by',
  'last_viewed_at',
  // ADR 038, after the columns above so they keep their places: the suggestion an event has (nobody decided on it
  // yet) or had (it was accepted), and the acceptance — in bulk means nobody looked at the event.
  'suggestion_discard',
  'suggestion_label',
  'suggestion_confidence',
  'suggestion_model_version',
  'suggestion_accepted_by',
  'suggestion_accepted_at',
  'suggestion_accepted_in_bulk',
];

const reviewers = alias(users, 'reviewers');
const viewers = alias(users, 'viewers');
const acceptors = alias(users, 'acceptors');

const nameOf = (email: string | null, firstName: string | null, lastName: string | null) =>
  email === null ? null : displayName({ email, firstName: firstName ?? '', lastName: lastName ?? '' });

/** The events table; `suggestions` (the run's cached votes at the default bar) fills the suggestion columns. */
export function eventsTable(context: AppContext, run: AnalysisRow, suggestions: SuggestionSource | null = null): Table {
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
          viewerEmail: viewers.email,
          viewerFirst: viewers.firstName,
          viewerLast: viewers.lastName,
          acceptorEmail: acceptors.email,
          acceptorFirst: acceptors.firstName,
          acceptorLast: acceptors.lastName,
        })
        .from(analysisEvents)
        .leftJoin(reviewers, eq(reviewers.id, analysisEvents.reviewedById))
        .leftJoin(viewers, eq(viewers.id, analysisEvents.lastViewedById))
        .leftJoin(acceptors, eq(acceptors.id, analysisEvents.suggestionAcceptedById))
        .where(
          and(
            eq(analysisEvents.analysisUuid, run.analysisUuid),
            sql`(${analysisEvents.time}, ${analysisEvents.id}) > (${lastTime}, ${lastId})`,
          ),
        )
        .orderBy(asc(analysisEvents.time), asc(analysisEvents.id))
        .limit(1000);
      const votes = suggestions
        ? await votesOf(
            context,
            run.analysisUuid,
            suggestions.modelUuid,
            page.map((row) => row.event.id),
          )
        : null;
      for (const row of page) {
        const { event } = row;
        const reviewer = event.reviewedAt ? nameOf(row.email, row.firstName, row.lastName) : null;
        const offered =
          suggestions && votes && !event.reviewedAt && !event.suggestionAcceptedAt
            ? suggestionFor(suggestions, votes.get(event.id))
            : null;
        const accepted = event.suggestionAcceptedAt !== null;
        yield [
          event.id,
          exportSeconds(event.time),
          exportSeconds(event.originalTime),
          event.label,
          event.flagged,
          event.discarded,
          reviewer,
          event.reviewedAt?.toISOString() ?? null,
          nameOf(row.viewerEmail, row.viewerFirst, row.viewerLast),
          event.lastViewedAt?.toISOString() ?? null,
          accepted ? event.suggestionDiscard : (offered?.discard ?? null),
          accepted ? event.suggestionLabel : (offered?.label ?? null),
          accepted ? event.suggestionConfidence : (offered?.confidence ?? null),
          accepted ? event.suggestionModelVersion : (offered?.model_version ?? null),
          accepted ? nameOf(row.acceptorEmail, row.acceptorFirst, row.acceptorLast) : null,
          event.suggestionAcceptedAt?.toISOString() ?? null,
          accepted ? event.suggestionInBulk : null,
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

/**
 * The project summary: one row per succeeded run (who/what it analysed, how, and its results — the events as
 * detected and after review, with the definitions of analysis.counts.ts, the rates and % freezing when the run
 * computed it), plus one row for each video that has annotation tracks but no run. Every row carries its video's
 * annotation figures per track name: bouts, total and mean bout duration (s) and % of the video; empty where the
 * video has no track of that name. Location-tracking figures follow at the end (location.export.ts), so the
 * columns before them stay where they were. The XLSX has a second sheet defining every count column.
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
  const trackNames = (
    await context.db
      .selectDistinct({ name: annotationConfigs.name })
      .from(annotationConfigs)
      .where(eq(annotationConfigs.projectUuid, projectUuid))
  )
    .map((r) => r.name)
    .sort((a, b) => a.localeCompare(b));
  const columns = [
    'subject',
    'group',
    'video',
    'analysis_uuid',
    'kind',
    'created_at',
    'duration_s',
    'detected_events',
    'detected_rate_per_min',
    'kept_events',
    'kept_rate_per_min',
    'events',
    'events_unlabelled',
    ...labels.map((label) => `events_${label}`),
    'flagged',
    'discarded',
    'added_events',
    'reviewed',
    'event_rate_per_min',
    'freezing_percent',
    ...trackNames.flatMap((name) => ANNOTATION_FIGURES.map((figure) => `${name}_${figure}`)),
  ];
  const location = await locationSummaryColumns(context, projectUuid);
  // A video with tracks but no run: its run columns (analysis_uuid … freezing_percent) stay empty.
  const emptyRunCells: Cell[] = Array.from(
    { length: columns.length - 3 - trackNames.length * ANNOTATION_FIGURES.length },
    () => null,
  );
  columns.push(...location.columns);
  const hasTracks = sql`exists (select 1 from ${annotationConfigs} where ${annotationConfigs.videoUuid} = ${videos.videoUuid})`;
  async function* rows(): AsyncGenerator<Cell[]> {
    // Offset pages: a project holds thousands of runs at most, and the order is total.
    for (let offset = 0; ; offset += 500) {
      const page = await context.db
        .select({
          run: analyses,
          subjectName: subjects.name,
          group: subjects.group,
          videoUuid: videos.videoUuid,
          videoName: videos.name,
          videoDuration: videos.durationS,
          videoFps: videos.fps,
          groups: eventGroupsSql,
        })
        .from(videos)
        .innerJoin(subjects, eq(subjects.subjectUuid, videos.subjectUuid))
        .leftJoin(analyses, and(eq(analyses.videoUuid, videos.videoUuid), eq(analyses.status, 'succeeded')))
        .where(and(eq(videos.projectUuid, projectUuid), or(isNotNull(analyses.analysisUuid), hasTracks)))
        .orderBy(
          asc(subjects.name),
          asc(videos.name),
          asc(videos.videoUuid),
          asc(analyses.createdAt),
          asc(analyses.analysisUuid),
        )
        .limit(500)
        .offset(offset);
      const figures = await trackFigures(context, [...new Set(page.map((row) => row.videoUuid))]);
      for (const row of page) {
        const tracks = figures.get(row.videoUuid);
        const videoDuration = row.videoDuration;
        // A percentage of the video is as precise as one of its frames.
        const frames = videoDuration && row.videoFps ? Math.round(videoDuration * row.videoFps) : null;
        const annotationCells = trackNames.flatMap((name) => {
          const track = tracks?.get(name);
          if (!track) return ANNOTATION_FIGURES.map(() => null);
          const { count, total } = track;
          return [
            count,
            exportSeconds(total),
            count > 0 ? exportSeconds(total / count) : null,
            videoDuration ? exportPercent((total / videoDuration) * 100, frames) : null,
          ];
        });
        const run = row.run;
        if (!run) {
          yield [row.subjectName, row.group, row.videoName, ...emptyRunCells, ...annotationCells, ...location.empty()];
          continue;
        }
        const counts = eventCounts(row.groups, run.summary);
        const summary = run.summary as { duration_s?: number; freezing?: FreezingSummary | null } | null;
        const freezing = summary?.freezing ?? null;
        yield [
          row.subjectName,
          row.group,
          row.videoName,
          run.analysisUuid,
          run.kind,
          run.createdAt.toISOString(),
          exportSeconds(summary?.duration_s ?? null),
          counts.detected,
          counts.detected_rate_per_min,
          counts.kept,
          counts.kept_rate_per_min,
          counts.kept,
          counts.unlabelled,
          ...labels.map((label) => counts.by_label[label] ?? 0),
          counts.flagged,
          counts.discarded,
          counts.added,
          counts.reviewed,
          counts.kept_rate_per_min,
          freezing ? exportPercent(freezing.percent, freezing.valid_frames) : null,
          ...annotationCells,
          ...location.cells(run),
        ];
      }
      if (page.length < 500) return;
    }
  }
  return { name: 'summary', columns, rows: rows() };
}

interface FreezingSummary {
  percent: number | null;
  valid_frames: number;
}

/** The summary to download: the table (XLSX: and the count definitions) and the parts of the file's name. */
export async function projectSummaryTables(
  context: AppContext,
  project: { projectUuid: string; name: string },
  format: 'csv' | 'xlsx',
) {
  const table = await projectSummaryTable(context, project.projectUuid);
  return {
    tables:
      format === 'xlsx'
        ? [table, { ...countDefinitionsTable(), rows: [...COUNT_DEFINITIONS, ...LOCATION_DEFINITIONS] }]
        : [table],
    nameParts: [project.name, `summary-${fileDate(new Date())}`],
  };
}

/** The definitions of the count columns, as a sheet of the XLSX exports. */
export function countDefinitionsTable(): Table {
  return { name: 'definitions', columns: ['column', 'meaning'], rows: COUNT_DEFINITIONS };
}

/** A run's counts (analysis.counts.ts) as a sheet of the events XLSX: figure, value, meaning. */
export async function runCountsTable(context: AppContext, run: AnalysisRow): Promise<Table> {
  const [row] = await context.db
    .select({ groups: eventGroupsSql })
    .from(analyses)
    .where(eq(analyses.analysisUuid, run.analysisUuid));
  const counts = eventCounts(row?.groups ?? [], run.summary);
  const meaning = new Map(COUNT_DEFINITIONS);
  const figures: [string, number | null, string][] = [
    ['detected_events', counts.detected, meaning.get('detected_events')!],
    ['detected_rate_per_min', counts.detected_rate_per_min, meaning.get('detected_rate_per_min')!],
    ['kept_events', counts.kept, meaning.get('kept_events')!],
    ['kept_rate_per_min', counts.kept_rate_per_min, meaning.get('kept_rate_per_min')!],
    ['flagged', counts.flagged, meaning.get('flagged')!],
    ['discarded', counts.discarded, meaning.get('discarded')!],
    ['added_events', counts.added, meaning.get('added_events')!],
    ['reviewed', counts.reviewed, meaning.get('reviewed')!],
    ['events_unlabelled', counts.unlabelled, meaning.get('events_unlabelled')!],
    ...Object.entries(counts.by_label)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([label, n]): [string, number, string] => [`events_${label}`, n, meaning.get('events_<label>')!]),
  ];
  return { name: 'counts', columns: ['figure', 'value', 'meaning'], rows: figures };
}

/** Per track name, after the track's name in the summary's header: `grooming_bouts`, `grooming_total_s`… */
export const ANNOTATION_FIGURES = ['bouts', 'total_s', 'mean_s', 'percent'] as const;

/** Bout count and total duration of each track of the given videos (the figures kept beside the ranges). */
async function trackFigures(context: AppContext, videoUuids: string[]) {
  const byVideo = new Map<string, Map<string, { count: number; total: number }>>();
  if (videoUuids.length === 0) return byVideo;
  const rows = await context.db
    .select({
      videoUuid: annotationConfigs.videoUuid,
      name: annotationConfigs.name,
      count: annotationConfigs.rangeCount,
      total: annotationConfigs.totalDurationS,
    })
    .from(annotationConfigs)
    .where(inArray(annotationConfigs.videoUuid, videoUuids));
  for (const row of rows) {
    const tracks = byVideo.get(row.videoUuid) ?? new Map<string, { count: number; total: number }>();
    byVideo.set(row.videoUuid, tracks);
    tracks.set(row.name, { count: row.count, total: row.total });
  }
  return byVideo;
}
