/**
 * The results table of a batch, or of a protocol across its batches (ADR 035): one row per run — each video's
 * newest run in each batch, when it succeeded — with who and what it analysed (subject, group, the subject's
 * metadata, video, recorded_at, run, protocol version, whether it was reviewed), then one column per outcome
 * measure of the kind (batch.measures.ts). Wide (a row per run) or long (a row per run × measure: measure, value,
 * unit), as JSON pages for the batch page, or CSV / XLSX for R, Prism and SPSS.
 */
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { analyses, batches, batchRuns, type ProtocolKind, protocols, subjects, videos } from '../../db/schema.js';
import { isUuid } from '../../lib/access.js';
import { fileDate } from '../../lib/download-names.js';
import { notFound } from '../../lib/errors.js';
import type { Cell, Table } from '../../lib/table-export.js';
import { type EventGroup, eventGroupsSql } from '../analysis/analysis.counts.js';
import { type MeasureColumn, measuresFor } from './batch.measures.js';
import type { resultsQuery } from './batch.schemas.js';
import { requireBatch } from './batch.service.js';

export type Layout = 'wide' | 'long';

/** The rows of a results table, before a layout is chosen. */
export interface Results {
  kind: ProtocolKind;
  idColumns: string[];
  measures: MeasureColumn[];
  runs: { id: Cell[]; group: string; cells: Cell[] }[];
}

/** Each video's newest run of these batches, when it succeeded, with what the table shows of it. */
async function succeededRuns(context: AppContext, batchUuids: string[]) {
  if (batchUuids.length === 0) return [];
  const newest = context.db
    .selectDistinctOn([batchRuns.batchUuid, batchRuns.videoUuid], {
      analysisUuid: batchRuns.analysisUuid,
      batchUuid: batchRuns.batchUuid,
    })
    .from(batchRuns)
    .where(inArray(batchRuns.batchUuid, batchUuids))
    .orderBy(batchRuns.batchUuid, batchRuns.videoUuid, desc(batchRuns.attempt))
    .as('newest');
  return context.db
    .select({
      batchUuid: newest.batchUuid,
      batchCreatedAt: batches.createdAt,
      analysisUuid: analyses.analysisUuid,
      kind: analyses.kind,
      summary: analyses.summary,
      protocolVersion: analyses.protocolVersion,
      fps: sql<number | null>`(${analyses.source} ->> 'fps')::float8`,
      groups: eventGroupsSql,
      subjectUuid: subjects.subjectUuid,
      subjectName: subjects.name,
      group: subjects.group,
      metadata: subjects.metadata,
      videoUuid: videos.videoUuid,
      videoName: videos.name,
      recordedAt: videos.recordedAt,
    })
    .from(newest)
    .innerJoin(analyses, eq(analyses.analysisUuid, newest.analysisUuid))
    .innerJoin(batches, eq(batches.batchUuid, newest.batchUuid))
    .innerJoin(videos, eq(videos.videoUuid, analyses.videoUuid))
    .innerJoin(subjects, eq(subjects.subjectUuid, videos.subjectUuid))
    .where(eq(analyses.status, 'succeeded'))
    .orderBy(
      asc(subjects.name),
      asc(videos.name),
      asc(videos.videoUuid),
      asc(batches.createdAt),
      asc(analyses.analysisUuid),
    );
}

/** A metadata value as one cell: text and numbers as they are, anything else as JSON. */
function metadataCell(value: unknown): Cell {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

async function resultsOf(context: AppContext, kind: ProtocolKind, batchUuids: string[]): Promise<Results> {
  const rows = await succeededRuns(context, batchUuids);
  const measures = measuresFor(
    kind,
    rows.map((row) => ({
      kind: row.kind,
      summary: row.summary,
      groups: row.groups as EventGroup[] | string,
      fps: row.fps,
    })),
  );
  const metadataKeys = [
    ...new Set(rows.flatMap((row) => Object.keys((row.metadata as Record<string, unknown> | null) ?? {}))),
  ].sort((a, b) => a.localeCompare(b));
  const reviewable = kind !== 'location_tracking';
  const idColumns = [
    'batch_uuid',
    'subject',
    'subject_uuid',
    'group',
    ...metadataKeys.map((key) => `subject_${key}`),
    'video',
    'video_uuid',
    'recorded_at',
    'analysis_uuid',
    'protocol_version',
    ...(reviewable ? ['reviewed'] : []),
  ];
  return {
    kind,
    idColumns,
    measures: measures.columns,
    runs: rows.map((row) => {
      const { cells, reviewed } = measures.of({
        kind: row.kind,
        summary: row.summary,
        groups: row.groups as EventGroup[] | string,
        fps: row.fps,
      });
      const metadata = (row.metadata as Record<string, unknown> | null) ?? {};
      return {
        group: row.group.trim(),
        cells,
        id: [
          row.batchUuid,
          row.subjectName,
          row.subjectUuid,
          row.group,
          ...metadataKeys.map((key) => metadataCell(metadata[key])),
          row.videoName,
          row.videoUuid,
          row.recordedAt?.toISOString() ?? null,
          row.analysisUuid,
          row.protocolVersion,
          ...(reviewable ? [reviewed] : []),
        ],
      };
    }),
  };
}

/** A batch's results, and the names its downloads carry. */
export async function batchResults(
  context: AppContext,
  project: { projectUuid: string; name: string },
  batchUuid: string,
) {
  const batch = await requireBatch(context, project.projectUuid, batchUuid);
  const results = await resultsOf(context, batch.kind, [batch.batchUuid]);
  return { results, nameParts: [project.name, `batch-${fileDate(batch.createdAt)}`, 'results'] };
}

/** A protocol's results across all its batches (a live protocol of the project, else 404). */
export async function protocolResults(
  context: AppContext,
  project: { projectUuid: string; name: string },
  protocolUuid: string,
) {
  if (!isUuid(protocolUuid)) throw notFound();
  const [protocol] = await context.db
    .select()
    .from(protocols)
    .where(
      and(
        eq(protocols.protocolUuid, protocolUuid),
        eq(protocols.projectUuid, project.projectUuid),
        isNull(protocols.deletedAt),
      ),
    )
    .limit(1);
  if (!protocol) throw notFound();
  const own = await context.db
    .select({ batchUuid: batches.batchUuid })
    .from(batches)
    .where(and(eq(batches.protocolUuid, protocol.protocolUuid), eq(batches.projectUuid, project.projectUuid)));
  const results = await resultsOf(
    context,
    protocol.kind,
    own.map((row) => row.batchUuid),
  );
  return { results, nameParts: [project.name, protocol.name, 'results', fileDate(new Date())] };
}

/** The table in a layout: wide (a row per run) or long (a row per run × measure: measure, value, unit). */
export function layoutTable(results: Results, layout: Layout): { columns: string[]; rows: Cell[][] } {
  if (layout === 'wide') {
    return {
      columns: [...results.idColumns, ...results.measures.map((measure) => measure.name)],
      rows: results.runs.map((run) => [...run.id, ...run.cells]),
    };
  }
  return {
    columns: [...results.idColumns, 'measure', 'value', 'unit'],
    rows: results.runs.flatMap((run) =>
      results.measures.map((measure, i) => [...run.id, measure.name, run.cells[i] ?? null, measure.unit]),
    ),
  };
}

/** What every column means, as the XLSX's second sheet. */
function definitionsTable(results: Results): Table {
  const identity: [string, string][] = [
    ['batch_uuid', 'The batch the run belongs to'],
    ['subject', "The subject's name"],
    ['group', "The subject's group (statistics compare groups; runs without one are left out of them)"],
    ['subject_<key>', "The subject's metadata field <key>"],
    ['recorded_at', 'When the video was recorded, as given'],
    ['protocol_version', 'The version of the protocol the run used'],
    [
      'reviewed',
      'TRUE when every event of the run carries a review decision (or it has none); kept_* are empty otherwise',
    ],
  ];
  return {
    name: 'definitions',
    columns: ['column', 'unit', 'meaning'],
    rows: [
      ...identity
        .filter(([column]) => column !== 'reviewed' || results.idColumns.includes('reviewed'))
        .map(([column, meaning]): Cell[] => [column, null, meaning]),
      ...results.measures.map((measure): Cell[] => [measure.name, measure.unit, measure.meaning]),
    ],
  };
}

/** The tables of a download: the results (and, in XLSX, the definitions). */
export function resultTables(results: Results, layout: Layout, format: 'csv' | 'xlsx'): Table[] {
  const table = layoutTable(results, layout);
  const main: Table = { name: `results (${layout})`, columns: table.columns, rows: table.rows };
  return format === 'xlsx' ? [main, definitionsTable(results)] : [main];
}

/** A page of the table as JSON, with what each column is. */
export function resultsPage(
  results: Results,
  query: z.output<typeof resultsQuery>,
  page: (
    count: number,
    rows: Cell[][],
  ) => { count: number; next: string | null; previous: string | null; results: Cell[][] },
) {
  const table = layoutTable(results, query.layout);
  const start = (query.page - 1) * query.page_size;
  const measureUnit = new Map(results.measures.map((measure) => [measure.name, measure]));
  return {
    kind: results.kind,
    layout: query.layout,
    columns: table.columns.map((name) => {
      const measure = measureUnit.get(name);
      return {
        name,
        role: measure ? ('measure' as const) : results.idColumns.includes(name) ? ('id' as const) : ('long' as const),
        unit: measure?.unit ?? null,
      };
    }),
    measures: results.measures,
    ...page(table.rows.length, table.rows.slice(start, start + query.page_size)),
  };
}
