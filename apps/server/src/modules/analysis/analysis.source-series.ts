/**
 * What the series of a run with a source is (ADR 037): an event detection reads its source's series, so its answer
 * says which run made those values — a movement run (changed pixels), an import, or a pose-derived series with its
 * measure, body parts and unit — and the web names the chart's axis from it without a request per row.
 */
import { sql } from 'drizzle-orm';
import type { analysisKinds } from '../../db/schema.js';
import { type PoseMeasure, UNIT_OF_MEASURE } from './engine/pose-measures.js';
import { type NamedPart, namedParts, type PartRequest } from './pose-settings.js';

type AnalysisKind = (typeof analysisKinds)[number];

/** The run that made the series, as the SQL below returns it (JSON; some drivers hand it over as text). */
interface SeriesRow {
  analysis_uuid: string;
  kind: AnalysisKind;
  pose: { measure: string; individual: string | null; parts: PartRequest[]; unit: string | null } | null;
}

/** The longest chain of detections on detections followed (the web never makes one; the API allows it). */
const MAX_CHAIN = 32;

/**
 * The run whose values the query's `analyses` row reads: its source, or — for a detection on a detection, which
 * shares its source's series — the first run up the chain that is not a detection. Null without a source (or when
 * the source is gone). Only for queries that select from `analyses`.
 */
export const sourceSeriesSql = sql<
  SeriesRow | string | null
>`case when "analyses"."source_analysis_uuid" is not null then (
  with recursive chain(analysis_uuid, kind, parameters, summary, source_analysis_uuid, depth) as (
    select s.analysis_uuid, s.kind, s.parameters, s.summary, s.source_analysis_uuid, 1
    from analyses s where s.analysis_uuid = "analyses"."source_analysis_uuid"
    union all
    select t.analysis_uuid, t.kind, t.parameters, t.summary, t.source_analysis_uuid, c.depth + 1
    from analyses t join chain c on t.analysis_uuid = c.source_analysis_uuid
    where c.kind = 'event_detection' and c.depth < ${sql.raw(String(MAX_CHAIN))}
  )
  select json_build_object(
    'analysis_uuid', analysis_uuid,
    'kind', kind,
    'pose', case when kind = 'pose_series' then json_build_object(
      'measure', parameters->>'measure',
      'individual', parameters->>'individual',
      'parts', parameters->'parts',
      'unit', summary->'pose_series'->>'unit'
    ) end
  )
  from chain where kind <> 'event_detection' order by depth limit 1
) end`;

export interface SourceSeries {
  analysis_uuid: string;
  kind: AnalysisKind;
  pose: { measure: string; parts: NamedPart[]; unit: string } | null;
}

/** The row's source series as the answer gives it: a pose series' parts each with its individual. */
export function presentSourceSeries(raw: SeriesRow | string | null): SourceSeries | null {
  if (raw === null) return null;
  const row = typeof raw === 'string' ? (JSON.parse(raw) as SeriesRow) : raw;
  const pose = row.pose
    ? {
        measure: row.pose.measure,
        parts: namedParts({ individual: row.pose.individual ?? undefined, parts: row.pose.parts ?? [] }),
        // A succeeded series says its unit (a detection's source has succeeded); else the measure's own.
        unit: row.pose.unit ?? UNIT_OF_MEASURE[row.pose.measure as PoseMeasure] ?? '',
      }
    : null;
  return { analysis_uuid: row.analysis_uuid, kind: row.kind, pose };
}
