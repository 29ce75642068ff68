/**
 * A run's event counts in words — detected and after review, side by side — for every screen that counts a run's
 * events. The server defines each count once (apps/server/src/modules/analysis/analysis.counts.ts, ADR 015) and
 * rounds the rates; the screens only say them, so they show the numbers the exports hold.
 */
import type { AnalysisRun, EventCounts } from './api';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "104 detected · 103 kept": the short form, for lists and menus. */
export function eventCountsShort(counts: EventCounts): string {
  return `${counts.detected} detected · ${counts.kept} kept`;
}

/** A run's counts for a menu option: the short form, or the count of events before the run finished. */
export function runCountsLabel(run: Pick<AnalysisRun, 'event_counts' | 'event_count'>): string {
  return run.event_counts ? eventCountsShort(run.event_counts) : plural(run.event_count ?? 0, 'event');
}

/** What the short form means, for its tooltip. */
export const EVENT_COUNTS_MEANING =
  'Detected: what the detection found (review never changes it). Kept: after review — not discarded, events added by hand included.';

export interface EventCountLine {
  key: string;
  label: string;
  value: string;
}

const rate = (perMinute: number | null) => (perMinute === null ? '' : ` · ${perMinute} per minute`);

/** The full form: detected, then after review (kept, discarded, flagged, added, by label). */
export function eventCountLines(counts: EventCounts): EventCountLine[] {
  const labels = Object.entries(counts.by_label).sort(([a], [b]) => a.localeCompare(b));
  const byLabel = [
    ...labels.map(([label, n]) => `${label} ${n}`),
    ...(counts.unlabelled > 0 && labels.length > 0 ? [`unlabelled ${counts.unlabelled}`] : []),
  ];
  return [
    {
      key: 'detected',
      label: 'Detected',
      value: `${plural(counts.detected, 'event')}${rate(counts.detected_rate_per_min)}`,
    },
    {
      key: 'kept',
      label: 'After review',
      value: `${counts.kept} kept${rate(counts.kept_rate_per_min)}`,
    },
    {
      key: 'review',
      label: 'Review',
      value: `${counts.discarded} discarded · ${counts.flagged} flagged · ${counts.added} added by hand`,
    },
    ...(byLabel.length > 0 ? [{ key: 'labels', label: 'Kept by label', value: byLabel.join(' · ') }] : []),
  ];
}
