/**
 * A location-tracking run's series as a table to export (CSV or XLSX through lib/table-export):
 * `frame,time_s,x,y,distance_px`, then `distance_<unit>` when the run has a scale, then one 0/1 column per zone,
 * named by the zone. A frame without a position has empty x, y, distance and zone cells; distance_px is the step
 * from the frame before, 0 when that frame had no position (so the column adds up to the summary's distance).
 */
import type { AppContext } from '../../context.js';
import type { Cell, Table } from '../../lib/table-export.js';
import type { AnalysisRow, RunSource } from './analysis.runs.js';
import { polygonsMask } from './engine/location/polygon-mask.js';
import { insideMask, unitsPerPixel } from './engine/location/summary.js';
import { formatTime } from './engine/series-csv.js';
import { readTrack } from './location.runs.js';
import type { LocationParameters } from './location.schemas.js';

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
