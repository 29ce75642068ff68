/**
 * A location-tracking run's series as a table to export (CSV or XLSX through lib/table-export):
 * `frame,time_s,x,y,distance_px`, then `distance_<unit>` when the run has a scale, then one 0/1 column per zone,
 * named by the zone. A frame without a position has empty x, y, distance and zone cells; distance_px is the step
 * from the frame before, 0 when that frame had no position (so the column adds up to the summary's distance).
 */
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { analyses } from '../../db/schema.js';
import { exportPercent, exportSeconds } from '../../lib/export-numbers.js';
import type { Cell, Table } from '../../lib/table-export.js';
import type { AnalysisRow, RunSource } from './analysis.runs.js';
import { polygonsMask } from './engine/location/polygon-mask.js';
import { insideMask, unitsPerPixel } from './engine/location/summary.js';
import { formatTime } from './engine/series-csv.js';
import { type LocationParameters, SCALE_UNITS } from './location.schemas.js';
import { readTrack } from './location.tracking.js';

export async function locationSeriesTable(context: AppContext, run: AnalysisRow): Promise<Table> {
  const source = run.source as RunSource;
  const parameters = run.parameters as LocationParameters;
  if (!run.seriesKey) throw new Error('a succeeded location run has its positions');
  const { x, y } = await readTrack(context, run.seriesKey);
  const { width, height, fps } = source;
  const masks = parameters.zones.map((zone) => polygonsMask([zone.points], width, height));
  const toUnit = parameters.scale ? unitsPerPixel(parameters.scale) : null;
  const columns = [
    'frame',
    'time_s',
    'x',
    'y',
    'distance_px',
    ...(parameters.scale ? [`distance_${parameters.scale.unit}`] : []),
    ...parameters.zones.map((zone) => zone.name),
  ];
  function* rows(): Generator<Cell[]> {
    const row: Cell[] = new Array(columns.length).fill(null);
    const zonesAt = columns.length - masks.length;
    for (let f = 0; f < x.length; f++) {
      const px = x[f]!;
      const py = y[f]!;
      const has = !Number.isNaN(px) && !Number.isNaN(py);
      row[0] = f;
      row[1] = Number(formatTime(f / fps));
      if (!has) {
        row.fill(null, 2);
        yield row;
        continue;
      }
      const before = f > 0 && !Number.isNaN(x[f - 1]!) && !Number.isNaN(y[f - 1]!);
      const step = before ? Math.hypot(px - x[f - 1]!, py - y[f - 1]!) : 0;
      row[2] = px;
      row[3] = py;
      row[4] = step;
      if (toUnit !== null) row[5] = step * toUnit;
      for (let z = 0; z < masks.length; z++) row[zonesAt + z] = insideMask(masks[z]!, width, height, px, py) ? 1 : 0;
      yield row;
    }
  }
  return { name: 'positions', columns, rows: rows() };
}

/** Per zone, after `zone_<name>_` in the project summary's header: the summary's zone figures. */
export const ZONE_FIGURES = ['time_s', 'percent', 'entries', 'latency_s', 'distance_px'] as const;

/** A zone's figures in a location run's stored summary (location.schemas.ts). */
export interface StoredZone {
  name: string;
  time_s: number;
  percent: number | null;
  entries: number;
  latency_s: number | null;
  distance_px: number;
}

/** What the exports read of a location run's stored summary (location.schemas.ts). */
export interface StoredLocation {
  frames_tracked: number;
  tracked_s: number;
  distance_px: number;
  distance: number | null;
  unit: string | null;
  mean_speed: number | null;
  zones: StoredZone[];
  bins?: {
    start_s: number;
    end_s: number;
    frames_tracked: number;
    distance_px: number;
    distance: number | null;
    zones: StoredZone[];
  }[];
}

/** A zone's five figures as the exports write them (ZONE_FIGURES' order); `framesTracked` sets the % precision. */
export function zoneCells(zone: StoredZone | undefined, framesTracked: number): Cell[] {
  if (!zone) return ZONE_FIGURES.map(() => null);
  return [
    exportSeconds(zone.time_s),
    exportPercent(zone.percent, framesTracked),
    zone.entries,
    exportSeconds(zone.latency_s),
    zone.distance_px,
  ];
}

/**
 * The location columns of a table holding runs scaled in `units` with zones named `zones`: distance in pixels and
 * in each unit, the mean speed likewise, and the five zone figures of every zone. Empty cells for any other run and
 * for a unit or zone a run does not have. The one definition of these columns: the project summary and the batches'
 * results tables (modules/batches) both use it.
 */
export function locationColumns(units: readonly string[], zones: readonly string[]) {
  const columns = [
    'distance_px',
    ...units.map((unit) => `distance_${unit}`),
    'mean_speed_px_per_s',
    ...units.map((unit) => `mean_speed_${unit}_per_s`),
    ...zones.flatMap((zone) => ZONE_FIGURES.map((figure) => `zone_${zone}_${figure}`)),
  ];
  const empty = (): Cell[] => new Array(columns.length).fill(null);
  /** The cells of one run (empty unless it is a location run with a summary). */
  const cells = (run: { kind: string; summary: unknown } | null): Cell[] => {
    const location = (run?.kind === 'location_tracking' ? (run.summary as { location?: StoredLocation } | null) : null)
      ?.location;
    if (!location) return empty();
    const speedPx = location.frames_tracked > 0 ? location.distance_px / location.tracked_s : null;
    const byName = new Map(location.zones.map((zone) => [zone.name, zone]));
    return [
      location.distance_px,
      ...units.map((unit) => (location.unit === unit ? location.distance : null)),
      speedPx,
      ...units.map((unit) => (location.unit === unit ? location.mean_speed : null)),
      ...zones.flatMap((name) => zoneCells(byName.get(name), location.frames_tracked)),
    ];
  };
  return { columns, cells, empty };
}

/**
 * The project summary's location columns: distance in pixels and in each unit the project's location runs were
 * scaled to, the mean speed likewise, and the five zone figures of every zone name the runs have. Empty cells for
 * any other run (a movement run keeps its columns as they were) and for a unit or zone a run does not have.
 */
export async function locationSummaryColumns(context: AppContext, projectUuid: string) {
  const found = await context.db.execute(sql`
    select distinct ${analyses.summary} -> 'location' ->> 'unit' as unit, zone ->> 'name' as zone
    from ${analyses}
    left join lateral jsonb_array_elements(coalesce(${analyses.summary} -> 'location' -> 'zones', '[]'::jsonb)) as zone
      on true
    where ${analyses.projectUuid} = ${projectUuid} and ${analyses.kind} = 'location_tracking'
      and ${analyses.status} = 'succeeded'`);
  const { rows } = found as unknown as { rows: { unit: string | null; zone: string | null }[] };
  const units = SCALE_UNITS.filter((unit) => rows.some((row) => row.unit === unit));
  const zones = [...new Set(rows.map((row) => row.zone).filter((zone): zone is string => zone !== null))].sort((a, b) =>
    a.localeCompare(b),
  );
  return locationColumns(units, zones);
}

/** The location columns' meanings, for the project summary's definitions sheet. */
export const LOCATION_DEFINITIONS: [column: string, meaning: string][] = [
  ['distance_px', 'Location runs: distance travelled, the sum of steps between consecutive tracked frames (px)'],
  ['distance_<unit>', 'Location runs scaled in that unit: the same distance in it'],
  ['mean_speed_px_per_s', 'Location runs: distance_px / tracked time (px/s)'],
  ['mean_speed_<unit>_per_s', 'Location runs scaled in that unit: distance_<unit> / tracked time'],
  ['zone_<name>_time_s', 'Location runs: seconds of tracked frames inside the zone'],
  ['zone_<name>_percent', 'Location runs: % of the tracked frames inside the zone'],
  ['zone_<name>_entries', 'Location runs: out→in transitions, plus one when the first tracked frame is inside'],
  ['zone_<name>_latency_s', 'Location runs: seconds to the first tracked frame inside; empty if never'],
  ['zone_<name>_distance_px', 'Location runs: steps whose both ends are inside the zone (px)'],
];
