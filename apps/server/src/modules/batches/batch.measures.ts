/**
 * The outcome measures of a batch's runs, one column each (ADR 035). Each measure is defined once, where the rest of
 * the app defines it: event counts and rates by `analysis.counts.ts`, % freezing by the run's freezing summary,
 * distance, speed and zone figures by the location summary through `location.export.ts` (the project summary's own
 * columns and names). Only the per-bin columns are new here, and they are named after their bin's seconds.
 *
 * Reviewed events count only when the run was reviewed: a run is reviewed when every event it has (kept or
 * discarded, added by hand included) carries a review decision, or it has no event at all (nothing to review: its
 * count, 0, is final). `kept_events` and `kept_rate_per_min` are empty for any other run, so a statistic of kept
 * events is never a mix of reviewed counts and raw detections; `detected_*` are there for every run.
 */
import type { ProtocolKind } from '../../db/schema.js';
import { exportPercent } from '../../lib/export-numbers.js';
import type { Cell } from '../../lib/table-export.js';
import { COUNT_DEFINITIONS, type EventCounts, type EventGroup, eventCounts } from '../analysis/analysis.counts.js';
import {
  LOCATION_DEFINITIONS,
  locationColumns,
  type StoredLocation,
  ZONE_FIGURES,
  zoneCells,
} from '../analysis/location.export.js';
import { SCALE_UNITS } from '../analysis/location.schemas.js';

/** A run as the results table reads it. */
export interface ResultRun {
  kind: string;
  summary: unknown;
  /** Its events grouped by label and marks (`eventGroupsSql`). */
  groups: EventGroup[] | string;
  fps: number | null;
}

export interface MeasureColumn {
  name: string;
  unit: string;
  meaning: string;
}

export interface Measures {
  columns: MeasureColumn[];
  /** The run's cells, in the columns' order, and whether it counts as reviewed (null: the kind has no events). */
  of(run: ResultRun): { cells: Cell[]; reviewed: boolean | null };
}

interface FreezingSummary {
  percent: number | null;
  valid_frames: number;
  bins: { start_s: number; end_s: number; percent: number | null }[];
}

/** A bin's part of a column name: `0_60s`, `60_120s`. */
const binName = (bin: { start_s: number; end_s: number }) =>
  `${Number(bin.start_s.toPrecision(12))}_${Number(bin.end_s.toPrecision(12))}s`;

const meaningOf = (definitions: [string, string][], column: string) =>
  definitions.find(([name]) => name === column)?.[1] ?? '';

/** Whether a run's events have all been reviewed (see the file's comment). */
export function isReviewed(counts: EventCounts): boolean {
  const total = counts.kept + counts.discarded;
  return counts.reviewed >= total;
}

/** Bins of the runs' summaries, each once, in time order. */
function binsOf(list: ({ start_s: number; end_s: number }[] | undefined)[]) {
  const seen = new Map<string, { start_s: number; end_s: number }>();
  for (const bins of list) for (const bin of bins ?? []) seen.set(binName(bin), bin);
  return [...seen.values()].sort((a, b) => a.start_s - b.start_s || a.end_s - b.end_s);
}

function eventMeasures(runs: ResultRun[]): Measures {
  const freezings = runs.map((run) => (run.summary as { freezing?: FreezingSummary | null } | null)?.freezing ?? null);
  const hasFreezing = freezings.some((freezing) => freezing !== null);
  const bins = binsOf(freezings.map((freezing) => freezing?.bins));
  const columns: MeasureColumn[] = [
    { name: 'detected_events', unit: 'events', meaning: meaningOf(COUNT_DEFINITIONS, 'detected_events') },
    {
      name: 'detected_rate_per_min',
      unit: 'events/min',
      meaning: meaningOf(COUNT_DEFINITIONS, 'detected_rate_per_min'),
    },
    {
      name: 'kept_events',
      unit: 'events',
      meaning: `${meaningOf(COUNT_DEFINITIONS, 'kept_events')}; empty unless the run was reviewed`,
    },
    {
      name: 'kept_rate_per_min',
      unit: 'events/min',
      meaning: `${meaningOf(COUNT_DEFINITIONS, 'kept_rate_per_min')}; empty unless the run was reviewed`,
    },
    ...(hasFreezing
      ? [{ name: 'freezing_percent', unit: '%', meaning: '% of the analysed frames spent freezing' }]
      : []),
    ...bins.map((bin) => ({
      name: `freezing_percent_${binName(bin)}`,
      unit: '%',
      meaning: `% of the analysed frames from ${bin.start_s} s to ${bin.end_s} s spent freezing`,
    })),
  ];
  return {
    columns,
    of(run) {
      const counts = eventCounts(run.groups, run.summary);
      const reviewed = isReviewed(counts);
      const freezing = (run.summary as { freezing?: FreezingSummary | null } | null)?.freezing ?? null;
      const byBin = new Map((freezing?.bins ?? []).map((bin) => [binName(bin), bin]));
      const cells: Cell[] = [
        counts.detected,
        counts.detected_rate_per_min,
        reviewed ? counts.kept : null,
        reviewed ? counts.kept_rate_per_min : null,
        ...(hasFreezing ? [freezing ? exportPercent(freezing.percent, freezing.valid_frames) : null] : []),
        ...bins.map((bin) => {
          const found = byBin.get(binName(bin));
          const frames = run.fps ? Math.round((bin.end_s - bin.start_s) * run.fps) : null;
          return found ? exportPercent(found.percent, frames) : null;
        }),
      ];
      return { cells, reviewed };
    },
  };
}

/** The unit of a location column, from its name (the names carry it: `_px`, `_cm`, `_s`, `_percent`…). */
function locationUnit(column: string): string {
  if (column.startsWith('mean_speed_')) return `${column.slice('mean_speed_'.length, -'_per_s'.length)}/s`;
  if (column.endsWith('_percent')) return '%';
  if (column.endsWith('_entries')) return 'entries';
  if (column.endsWith('_time_s') || column.endsWith('_latency_s')) return 's';
  return column.slice(column.lastIndexOf('_') + 1);
}

const locationOf = (run: ResultRun) => (run.summary as { location?: StoredLocation } | null)?.location ?? null;

function locationMeasures(runs: ResultRun[]): Measures {
  const summaries = runs.map(locationOf);
  const units = SCALE_UNITS.filter((unit) => summaries.some((summary) => summary?.unit === unit));
  const zones = [...new Set(summaries.flatMap((summary) => summary?.zones.map((zone) => zone.name) ?? []))].sort(
    (a, b) => a.localeCompare(b),
  );
  const overall = locationColumns(units, zones);
  const bins = binsOf(summaries.map((summary) => summary?.bins));
  const binColumns = bins.flatMap((bin) => [
    `bin_${binName(bin)}_distance_px`,
    ...units.map((unit) => `bin_${binName(bin)}_distance_${unit}`),
    ...zones.flatMap((zone) => ZONE_FIGURES.map((figure) => `bin_${binName(bin)}_zone_${zone}_${figure}`)),
  ]);
  const unitSuffix = units.length > 0 ? new RegExp(`_(${units.join('|')})(_per_s)?$`) : null;
  const generic = (column: string) => {
    const plain = column
      .replace(/^bin_[^_]+_[^_]+s_/, '')
      .replace(/^zone_.+_(time_s|percent|entries|latency_s|distance_px)$/, 'zone_<name>_$1');
    return unitSuffix ? plain.replace(unitSuffix, '_<unit>$2') : plain;
  };
  const columns: MeasureColumn[] = [...overall.columns, ...binColumns].map((name) => {
    const meaning = meaningOf(LOCATION_DEFINITIONS, generic(name));
    const bin = name.match(/^bin_([^_]+)_([^_]+)s_/);
    return {
      name,
      unit: locationUnit(name),
      meaning: bin ? `From ${bin[1]} s to ${bin[2]} s: ${meaning.replace(/^Location runs: /, '')}` : meaning,
    };
  });
  return {
    columns,
    of(run) {
      const location = locationOf(run);
      const byBin = new Map((location?.bins ?? []).map((bin) => [binName(bin), bin]));
      const binCells = bins.flatMap((wanted) => {
        const bin = byBin.get(binName(wanted));
        const width = 1 + units.length + zones.length * ZONE_FIGURES.length;
        if (!bin || !location) return new Array<Cell>(width).fill(null);
        const byZone = new Map(bin.zones.map((zone) => [zone.name, zone]));
        return [
          bin.distance_px,
          ...units.map((unit) => (location.unit === unit ? bin.distance : null)),
          ...zones.flatMap((zone) => zoneCells(byZone.get(zone), bin.frames_tracked)),
        ];
      });
      return { cells: [...overall.cells(run), ...binCells], reviewed: null };
    },
  };
}

/** The measures a kind of run yields, over these runs (their zones, units and bins make the columns). */
export function measuresFor(kind: ProtocolKind, runs: ResultRun[]): Measures {
  return kind === 'location_tracking' ? locationMeasures(runs) : eventMeasures(runs);
}
