/**
 * A run's event counts, defined once: every screen and every export reads them from here (ADR 015).
 *
 * - detected: the events the detection found when the run finished (its summary's `events`); review never
 *   changes it.
 * - after review, over the run's events as they are now (deleted events are gone, events added by hand count):
 *   kept (not discarded), discarded, flagged (every flagged event, discarded or not), added (by hand, kept or
 *   discarded), reviewed (has a reviewer), and the kept events per label.
 * - rates: detected and kept events per minute of the analysed series (`summary.duration_s`), to 0.001.
 */
import { sql } from 'drizzle-orm';
import { exportRate } from '../../lib/export-numbers.js';

/** One group of a run's events with the same label and marks, as the SQL below returns them. */
export interface EventGroup {
  label: string | null;
  discarded: boolean;
  flagged: boolean;
  added: boolean;
  reviewed: boolean;
  n: number;
}

export interface EventCounts {
  detected: number;
  detected_rate_per_min: number | null;
  kept: number;
  kept_rate_per_min: number | null;
  discarded: number;
  flagged: number;
  added: number;
  reviewed: number;
  unlabelled: number;
  by_label: Record<string, number>;
}

/**
 * The groups of the run in the query's `analyses` row, as JSON (one small row per label × marks, so a long run
 * costs one index scan, not a row per event). Only for queries that select from `analyses`.
 */
export const eventGroupsSql = sql<EventGroup[] | string>`coalesce((
  select json_agg(g) from (
    select e.label, e.discarded, e.flagged, (e.original_time is null) as added,
      (e.reviewed_at is not null) as reviewed, count(*)::int as n
    from analysis_events e
    where e.analysis_uuid = "analyses"."analysis_uuid"
    group by 1, 2, 3, 4, 5
  ) g), '[]'::json)`;

/** The run's stored summary, as far as the counts need it. */
interface SummaryFigures {
  events?: number;
  duration_s?: number;
}

const perMinute = (count: number, durationS: number | null) =>
  durationS && durationS > 0 ? exportRate((count / durationS) * 60) : null;

/** The counts of a run from its groups (`eventGroupsSql`) and its summary. */
export function eventCounts(raw: EventGroup[] | string, summary: unknown): EventCounts {
  const groups = (typeof raw === 'string' ? JSON.parse(raw) : raw) as EventGroup[];
  const figures = (summary ?? {}) as SummaryFigures;
  const durationS = figures.duration_s ?? null;
  const counts: EventCounts = {
    detected: figures.events ?? groups.filter((g) => !g.added).reduce((n, g) => n + g.n, 0),
    detected_rate_per_min: null,
    kept: 0,
    kept_rate_per_min: null,
    discarded: 0,
    flagged: 0,
    added: 0,
    reviewed: 0,
    unlabelled: 0,
    by_label: {},
  };
  for (const group of groups) {
    if (group.discarded) counts.discarded += group.n;
    else {
      counts.kept += group.n;
      if (group.label === null) counts.unlabelled += group.n;
      else counts.by_label[group.label] = (counts.by_label[group.label] ?? 0) + group.n;
    }
    if (group.flagged) counts.flagged += group.n;
    if (group.added) counts.added += group.n;
    if (group.reviewed) counts.reviewed += group.n;
  }
  counts.detected_rate_per_min = perMinute(counts.detected, durationS);
  counts.kept_rate_per_min = perMinute(counts.kept, durationS);
  return counts;
}

/** What each count column of the exports means: the exports' definitions sheet and the docs say the same. */
export const COUNT_DEFINITIONS: [column: string, meaning: string][] = [
  ['detected_events', 'Events the detection found when the run finished; review never changes it'],
  ['detected_rate_per_min', 'detected_events per minute of the analysed video (0.001)'],
  ['kept_events', 'After review: events not discarded, events added by hand included, deleted ones gone'],
  ['kept_rate_per_min', 'kept_events per minute of the analysed video (0.001)'],
  ['events', 'The same as kept_events (after review)'],
  ['events_unlabelled', 'After review: kept events without a label'],
  ['events_<label>', 'After review: kept events with that label'],
  ['flagged', 'After review: flagged events, discarded or not'],
  ['discarded', 'After review: discarded events'],
  ['added_events', 'After review: events added by hand, kept or discarded'],
  ['reviewed', 'Events someone reviewed in Quick Score'],
  ['event_rate_per_min', 'The same as kept_rate_per_min (after review)'],
];
