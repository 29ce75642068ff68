/** Pure helpers behind the series chart: x arrays, visible windows, ranges, pixel mapping, labels. */
import { countOf } from '@/lib/format';

export interface ChartSeries {
  values: Float64Array;
  times: Float64Array | null;
  fps: number;
}

export interface ChartEvent {
  time: number;
  discarded?: boolean;
  selected?: boolean;
}

/** A linear map between data values and pixels: `min` sits at `offset`, `max` at `offset + size`. */
export interface AxisMap {
  min: number;
  max: number;
  offset: number;
  size: number;
}

const DEFAULT_FPS = 30;

/**
 * The x values of a series: its own times when they match the values one to one, else i / fps.
 * The run's own array is returned as is: 10^6 points must not be copied per render.
 */
export function buildTimes(series: ChartSeries): Float64Array {
  if (series.times && series.times.length === series.values.length) return series.times;
  const fps = series.fps > 0 && Number.isFinite(series.fps) ? series.fps : DEFAULT_FPS;
  const times = new Float64Array(series.values.length);
  for (let i = 0; i < times.length; i++) times[i] = i / fps;
  return times;
}

/** First index in ascending `sorted` whose value is >= `value` (sorted.length when none). */
export function lowerBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in ascending `sorted` whose value is > `value` (sorted.length when none). */
export function upperBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Indices [i0, i1] of the points to draw for the x window [min, max]: those inside plus one neighbour on each side,
 * so the line runs to the plot's edges. Null when the series is empty or entirely outside the window.
 */
export function visibleIndexRange(times: Float64Array, min: number, max: number): [number, number] | null {
  const n = times.length;
  if (n === 0 || min > max) return null;
  const first = lowerBound(times, min);
  const last = upperBound(times, max) - 1;
  // Nothing inside and nothing on one side: the window is beyond the data.
  if (first > last && (first === 0 || first === n)) return null;
  return [Math.max(0, first - 1), Math.min(n - 1, last + 1)];
}

/** Smallest and largest finite value in values[i0..i1] (NaN marks bypassed frames), or null when there is none. */
export function finiteExtent(values: Float64Array, i0: number, i1: number): [number, number] | null {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  const end = Math.min(i1, values.length - 1);
  for (let i = Math.max(0, i0); i <= end; i++) {
    const v = values[i]!;
    // NaN fails both comparisons, so gaps never become a bound.
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min <= max ? [min, max] : null;
}

/**
 * finiteExtent with the whole-series answer remembered: the full view (the first draw, every zoom reset) scans the
 * values once per data set.
 */
export function cachedExtent(values: Float64Array): (i0: number, i1: number) => [number, number] | null {
  let whole: [number, number] | null | undefined;
  return (i0, i1) => {
    if (i0 > 0 || i1 < values.length - 1) return finiteExtent(values, i0, i1);
    if (whole === undefined) whole = finiteExtent(values, 0, values.length - 1);
    return whole;
  };
}

/**
 * The y range for the data extents in view and the threshold: starts at 0 for non-negative data (counts), with
 * 5% headroom so peaks and the threshold line are not drawn on the frame.
 */
export function yRange(extents: ([number, number] | null)[], threshold: number | null | undefined): [number, number] {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const extent of extents) {
    if (!extent) continue;
    min = Math.min(min, extent[0]);
    max = Math.max(max, extent[1]);
  }
  if (threshold != null && Number.isFinite(threshold)) {
    min = Math.min(min, threshold);
    max = Math.max(max, threshold);
  }
  if (min > max) return [0, 1];
  if (min >= 0) min = 0;
  const span = max - min;
  // A flat line of zeros (a still video) reads 0…1, never a negative count.
  if (span === 0) return min === 0 ? [0, 1] : [min - 1, max + 1];
  const pad = span * 0.05;
  return [min < 0 ? min - pad : min, max + pad];
}

/** The x window for a request: the main series' full extent stands for the full extent of every series shown. */
export function xWindow(
  requested: [number, number],
  main: Float64Array,
  compare: Float64Array | null,
): [number, number] {
  const [min, max] = requested;
  const first = main[0];
  const last = main[main.length - 1];
  if (first === undefined || last === undefined || min > first || max < last) return requested;
  let fullMin = first;
  let fullMax = last;
  if (compare && compare.length > 0) {
    fullMin = Math.min(fullMin, compare[0]!);
    fullMax = Math.max(fullMax, compare[compare.length - 1]!);
  }
  return [Math.min(min, fullMin), Math.max(max, fullMax)];
}

export function toPixel(value: number, map: AxisMap): number {
  return map.offset + ((value - map.min) / (map.max - map.min)) * map.size;
}

export function fromPixel(pixel: number, map: AxisMap): number {
  return map.min + ((pixel - map.offset) / map.size) * (map.max - map.min);
}

/** The time under a pointer `offsetX` CSS pixels into the plot, kept inside the window and never negative. */
export function seekTimeAt(offsetX: number, plotWidth: number, xMin: number, xMax: number): number {
  if (plotWidth <= 0) return Math.max(0, xMin);
  const time = fromPixel(offsetX, { min: xMin, max: xMax, offset: 0, size: plotWidth });
  return Math.max(0, Math.min(xMax, Math.max(xMin, time)));
}

export interface EventPixels {
  normal: number[];
  discarded: number[];
  selected: number[];
}

/** Pixel x of each event inside the plot, grouped by how it is drawn (a discarded event is dimmed even if selected). */
export function eventPixels(events: readonly ChartEvent[], map: AxisMap): EventPixels {
  const out: EventPixels = { normal: [], discarded: [], selected: [] };
  const left = map.offset;
  const right = map.offset + map.size;
  for (const event of events) {
    if (!Number.isFinite(event.time)) continue;
    const x = toPixel(event.time, map);
    if (x < left || x > right) continue;
    if (event.discarded) out.discarded.push(x);
    else if (event.selected) out.selected.push(x);
    else out.normal.push(x);
  }
  return out;
}

/** Pixel spans [left, right) of bypass ranges [start, end) seconds, clipped to the plot; empty or hidden ones dropped. */
export function bypassPixelSpans(ranges: readonly (readonly [number, number])[], map: AxisMap): [number, number][] {
  const left = map.offset;
  const right = map.offset + map.size;
  const spans: [number, number][] = [];
  for (const [start, end] of ranges) {
    if (!(end > start)) continue;
    const a = Math.max(left, toPixel(start, map));
    const b = Math.min(right, toPixel(end, map));
    if (b > a) spans.push([a, b]);
  }
  return spans;
}

/** Seconds on the time axis: "12.5 s" under two minutes, "m:ss" beyond. */
export function formatSeconds(seconds: number, span: number): string {
  if (!Number.isFinite(seconds)) return '';
  if (span < 120) return `${Number(seconds.toFixed(span < 2 ? 3 : span < 20 ? 2 : 1))} s`;
  const sign = seconds < 0 ? '-' : '';
  const whole = Math.round(Math.abs(seconds));
  const minutes = Math.floor(whole / 60);
  return `${sign}${minutes}:${String(whole % 60).padStart(2, '0')}`;
}

/** Compact y-axis numbers so large counts fit the axis: 1500 → "1.5k", 2300000 → "2.3M". */
export function formatCompact(value: number): string {
  if (!Number.isFinite(value)) return '';
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${Number((value / 1e9).toFixed(1))}G`;
  if (abs >= 1e6) return `${Number((value / 1e6).toFixed(1))}M`;
  if (abs >= 1e4) return `${Number((value / 1e3).toFixed(1))}k`;
  return String(Number(value.toPrecision(4)));
}

/** The chart's accessible summary: what is plotted, how many points over how long, and the events. */
export function describeChart(input: {
  label?: string;
  points: number;
  duration: number;
  events: readonly ChartEvent[];
  threshold?: number | null;
  compareLabel?: string | null;
}): string {
  const parts = [
    `${input.label ?? 'Series'} over time: ${countOf(input.points, 'point')}, ${formatSeconds(input.duration, input.duration)}`,
  ];
  const discarded = input.events.filter((e) => e.discarded).length;
  const events = input.events.length;
  parts.push(`${countOf(events, 'event')}${discarded ? ` (${discarded.toLocaleString('en-US')} discarded)` : ''}`);
  if (input.threshold != null && Number.isFinite(input.threshold)) parts.push(`threshold ${input.threshold}`);
  if (input.compareLabel) parts.push(`compared with ${input.compareLabel}`);
  return `${parts.join(', ')}.`;
}
