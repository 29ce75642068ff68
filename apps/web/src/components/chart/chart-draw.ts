/** What the chart draws on its canvas: the traced lines, bypass shading, event markers and the threshold line. */
import uPlot from 'uplot';
import { type AxisMap, bypassPixelSpans, type ChartEvent, eventPixels, visibleIndexRange } from './chart-data';
import { traceLine } from './chart-paths';
import type { ChartColors } from './chart-theme';

/** What the canvas hooks read at draw time, so changing it needs a redraw, never a new chart. */
export interface DrawState {
  events: readonly ChartEvent[];
  bypassRanges: readonly (readonly [number, number])[];
  threshold: number | null;
  colors: ChartColors;
}

export function formatValue(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return '—';
  return Number.isInteger(value) ? value.toLocaleString('en-US') : String(Number(value.toPrecision(4)));
}

/** Canvas-pixel maps of the plot box for the current scales (null before the first ranging). */
export function plotMaps(u: uPlot): { x: AxisMap; y: AxisMap } | null {
  const { min: xMin, max: xMax } = u.scales.x ?? {};
  const { min: yMin, max: yMax } = u.scales.y ?? {};
  if (xMin == null || xMax == null || yMin == null || yMax == null || xMax === xMin || yMax === yMin) return null;
  const { left, top, width, height } = u.bbox;
  return {
    x: { min: xMin, max: xMax, offset: left, size: width },
    // Canvas y grows downwards: the minimum sits at the bottom edge.
    y: { min: yMin, max: yMax, offset: top + height, size: -height },
  };
}

/** A line series traced from its own x and y arrays (NaN gaps, per-pixel min/max beyond 2 points a pixel). */
export function linePaths(times: Float64Array, values: Float64Array): uPlot.Series.PathBuilder {
  // The full view's path, kept so that resetting a zoom does not trace every point again.
  let fullView: { key: string; stroke: Path2D } | null = null;
  return (u) => {
    const maps = plotMaps(u);
    if (!maps) return null;
    const range = visibleIndexRange(times, maps.x.min, maps.x.max);
    const whole = range !== null && range[0] === 0 && range[1] === times.length - 1;
    const key = whole
      ? [maps.x.min, maps.x.max, maps.x.offset, maps.x.size, maps.y.min, maps.y.max, maps.y.offset].join()
      : '';
    if (whole && fullView?.key === key) return { stroke: fullView.stroke, fill: null, clip: null, flags: 0 };
    const stroke = new Path2D();
    if (range) traceLine(stroke, times, values, range[0], range[1], maps.x, maps.y);
    if (whole) fullView = { key, stroke };
    return { stroke, fill: null, clip: null, flags: 0 };
  };
}

export function drawBypass(u: uPlot, live: DrawState) {
  const maps = plotMaps(u);
  if (!maps || live.bypassRanges.length === 0) return;
  const { ctx } = u;
  ctx.save();
  ctx.fillStyle = live.colors.bypass;
  ctx.globalAlpha = 0.16;
  for (const [a, b] of bypassPixelSpans(live.bypassRanges, maps.x)) ctx.fillRect(a, u.bbox.top, b - a, u.bbox.height);
  ctx.restore();
}

export function drawMarkers(u: uPlot, live: DrawState) {
  const maps = plotMaps(u);
  if (!maps) return;
  const { ctx } = u;
  const ratio = uPlot.pxRatio;
  const { top, height, left, width } = u.bbox;
  ctx.save();
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();

  const strokeVerticals = (xs: number[], color: string, lineWidth: number, alpha: number, dash: number[]) => {
    if (xs.length === 0) return;
    ctx.strokeStyle = color;
    ctx.lineWidth = lineWidth * ratio;
    ctx.globalAlpha = alpha;
    ctx.setLineDash(dash.map((d) => d * ratio));
    ctx.beginPath();
    // Whole-pixel centres keep thin lines crisp.
    const snap = Math.round(lineWidth * ratio) % 2 === 1 ? 0.5 : 0;
    for (const x of xs) {
      const px = Math.round(x) + snap;
      ctx.moveTo(px, top);
      ctx.lineTo(px, top + height);
    }
    ctx.stroke();
  };
  const markers = eventPixels(live.events, maps.x);
  strokeVerticals(markers.discarded, live.colors.discarded, 1, 0.45, [3, 3]);
  strokeVerticals(markers.normal, live.colors.event, 1, 0.75, []);
  strokeVerticals(markers.selected, live.colors.selected, 3, 1, []);

  const threshold = live.threshold;
  if (threshold != null && Number.isFinite(threshold)) {
    const y = Math.round(maps.y.offset + ((threshold - maps.y.min) / (maps.y.max - maps.y.min)) * maps.y.size) + 0.5;
    ctx.strokeStyle = live.colors.threshold;
    ctx.lineWidth = ratio;
    ctx.globalAlpha = 0.7;
    ctx.setLineDash([6 * ratio, 4 * ratio]);
    ctx.beginPath();
    ctx.moveTo(left, y);
    ctx.lineTo(left + width, y);
    ctx.stroke();
  }
  ctx.restore();
}
