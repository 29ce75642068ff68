import { type AxisMap, toPixel } from './chart-data';

/** What a line is traced into: a Path2D in the chart, a recorder in tests. */
export interface PathSink {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
}

/**
 * Traces values[i0..i1] against times as a line into `sink`, in pixels of `xMap`/`yMap`. NaN values are gaps (the pen
 * lifts). When there are more points than twice the pixel columns, each column is reduced to its first, lowest,
 * highest and last value: the drawing is the same as with every point (every spike keeps its height) while the path
 * holds at most four vertices a column, so 10^6 points cost one pass and a path of a few thousand vertices.
 * Returns the number of vertices emitted.
 */
export function traceLine(
  sink: PathSink,
  times: Float64Array,
  values: Float64Array,
  i0: number,
  i1: number,
  xMap: AxisMap,
  yMap: AxisMap,
): number {
  const start = Math.max(0, i0);
  const end = Math.min(i1, times.length - 1, values.length - 1);
  if (end < start) return 0;
  const xScale = xMap.size / (xMap.max - xMap.min);
  const xOffset = xMap.offset - xMap.min * xScale;
  let vertices = 0;
  let penDown = false;

  if (end - start + 1 <= 2 * Math.abs(xMap.size)) {
    for (let i = start; i <= end; i++) {
      const v = values[i]!;
      if (Number.isNaN(v)) {
        penDown = false;
        continue;
      }
      const x = xOffset + times[i]! * xScale;
      const y = toPixel(v, yMap);
      if (penDown) sink.lineTo(x, y);
      else sink.moveTo(x, y);
      penDown = true;
      vertices++;
    }
    return vertices;
  }

  // Column state (plain locals: a closure over them would slow this loop several times over).
  let column = 0;
  let first = 0;
  let low = 0;
  let high = 0;
  let last = 0;
  let open = false;
  for (let i = start; i <= end + 1; i++) {
    // One step past the end flushes the last column.
    const v = i <= end ? values[i]! : Number.NaN;
    const gap = Number.isNaN(v);
    const col = gap ? 0 : Math.floor(xOffset + times[i]! * xScale);
    if (open && !gap && col === column) {
      if (v < low) low = v;
      else if (v > high) high = v;
      last = v;
      continue;
    }
    if (open) {
      vertices += emitColumn(sink, column, first, low, high, last, penDown, yMap);
      penDown = true;
    }
    if (gap) {
      penDown = false;
      open = false;
      continue;
    }
    column = col;
    first = low = high = last = v;
    open = true;
  }
  return vertices;
}

/** One pixel column: from its first value to the extreme nearest it, to the other extreme, to its last value. */
function emitColumn(
  sink: PathSink,
  column: number,
  first: number,
  low: number,
  high: number,
  last: number,
  penDown: boolean,
  yMap: AxisMap,
): number {
  const yFirst = toPixel(first, yMap);
  if (penDown) sink.lineTo(column, yFirst);
  else sink.moveTo(column, yFirst);
  if (low === high) return 1;
  // Ending on the extreme nearer the last value keeps the join to it short.
  const lowFirst = Math.abs(last - high) <= Math.abs(last - low);
  sink.lineTo(column, toPixel(lowFirst ? low : high, yMap));
  sink.lineTo(column, toPixel(lowFirst ? high : low, yMap));
  sink.lineTo(column, toPixel(last, yMap));
  return 4;
}
