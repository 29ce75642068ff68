import 'uplot/dist/uPlot.min.css';
import { ZoomOut } from 'lucide-react';
import { type JSX, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import { Button } from '@/components/ui/button';
import {
  type AxisMap,
  buildTimes,
  bypassPixelSpans,
  type ChartEvent,
  cachedExtent,
  describeChart,
  eventPixels,
  formatCompact,
  formatSeconds,
  lowerBound,
  seekTimeAt,
  visibleIndexRange,
  xWindow,
  yRange,
} from '../chart-data';
import { traceLine } from '../chart-paths';
import { type ChartColors, documentChartColors } from '../chart-theme';

export interface SeriesChartProps {
  /** NaN = no value (bypassed frame): drawn as a gap. */
  series: { values: Float64Array; times: Float64Array | null; fps: number };
  /** Vertical markers; discarded ones dimmed, selected ones emphasised. */
  events?: { time: number; discarded?: boolean; selected?: boolean }[];
  /** Shaded spans [start, end) in seconds. */
  bypassRanges?: [number, number][];
  /** A dashed horizontal line. */
  threshold?: number | null;
  /** A second series on its own x values, in another colour and in the legend. */
  compare?: { values: Float64Array; times: Float64Array | null; fps: number; label: string } | null;
  /** A cursor line at this time; moving it never redraws the data. */
  currentTime?: number;
  /** A click (without a drag) on the plot: the time under the pointer. */
  onSeek?: (timeSeconds: number) => void;
  height?: number;
  /** The y-axis label, e.g. "changed pixels". */
  label?: string;
}

/** The performance measure around the first full draw after data is set (read by the chart benchmark). */
export const DRAW_MEASURE = 'series-chart-draw';

const NO_EVENTS: ChartEvent[] = [];
const NO_RANGES: [number, number][] = [];
const LINE_WIDTH = 1.25;
/** Pointer travel (CSS px) below which a press is a click (seek), not a drag (zoom). */
const CLICK_SLOP = 4;

/** The props and theme the canvas hooks read at draw time, so changing them needs a redraw, never a new chart. */
interface Live {
  events: readonly ChartEvent[];
  bypassRanges: readonly [number, number][];
  threshold: number | null;
  currentTime: number | undefined;
  compareLabel: string | null;
  onSeek: ((time: number) => void) | undefined;
  colors: ChartColors;
}

function formatValue(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return '—';
  return Number.isInteger(value) ? value.toLocaleString('en-US') : String(Number(value.toPrecision(4)));
}

/** Canvas-pixel maps of the plot box for the current scales (null before the first ranging). */
function plotMaps(u: uPlot): { x: AxisMap; y: AxisMap } | null {
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
function linePaths(times: Float64Array, values: Float64Array): uPlot.Series.PathBuilder {
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

function drawBypass(u: uPlot, live: Live) {
  const maps = plotMaps(u);
  if (!maps || live.bypassRanges.length === 0) return;
  const { ctx } = u;
  ctx.save();
  ctx.fillStyle = live.colors.bypass;
  ctx.globalAlpha = 0.16;
  for (const [a, b] of bypassPixelSpans(live.bypassRanges, maps.x)) ctx.fillRect(a, u.bbox.top, b - a, u.bbox.height);
  ctx.restore();
}

function drawMarkers(u: uPlot, live: Live) {
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

/**
 * A time-series chart on uPlot for up to millions of points: typed arrays passed as they are, lines traced with
 * per-pixel min/max, NaN drawn as gaps. Drag on the plot to zoom into a time window, double-click (or the button) to
 * see everything again, click to seek. The `currentTime` cursor is a positioned element over the canvas, so a playing
 * video moves it without redrawing the data.
 */
export function SeriesChart({
  series,
  events = NO_EVENTS,
  bypassRanges = NO_RANGES,
  threshold = null,
  compare = null,
  currentTime,
  onSeek,
  height = 240,
  label,
}: SeriesChartProps): JSX.Element {
  const { values, times: ownTimes, fps } = series;
  const times = useMemo(() => buildTimes({ values, times: ownTimes, fps }), [values, ownTimes, fps]);
  const compareValues = compare?.values ?? null;
  const compareOwnTimes = compare?.times ?? null;
  const compareFps = compare?.fps ?? 0;
  const compareTimes = useMemo(
    () => (compareValues ? buildTimes({ values: compareValues, times: compareOwnTimes, fps: compareFps }) : null),
    [compareValues, compareOwnTimes, compareFps],
  );
  const compareLabel = compare?.label ?? null;

  const hostRef = useRef<HTMLDivElement>(null);
  const readoutRef = useRef<HTMLSpanElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  const cursorLineRef = useRef<HTMLDivElement | null>(null);
  const heightRef = useRef(height);
  const [zoomed, setZoomed] = useState(false);
  const liveRef = useRef<Live>(null as unknown as Live);
  // Lazy, so the theme's computed style is read once, not on every render (currentTime changes at 60 Hz).
  if (liveRef.current === null)
    liveRef.current = {
      events,
      bypassRanges,
      threshold,
      currentTime,
      compareLabel,
      onSeek,
      colors: documentChartColors(),
    };
  /** The data extents in the current x window, kept by the y range so a threshold change can re-range cheaply. */
  const extentsRef = useRef<([number, number] | null)[]>([]);

  const positionCursorLine = useCallback(() => {
    const u = chartRef.current;
    const line = cursorLineRef.current;
    if (!u || !line) return;
    const time = liveRef.current.currentTime;
    const { min, max } = u.scales.x ?? {};
    if (time == null || !Number.isFinite(time) || min == null || max == null || time < min || time > max) {
      line.style.display = 'none';
      return;
    }
    line.style.display = '';
    line.style.transform = `translateX(${u.valToPos(time, 'x') - 1}px)`;
  }, []);

  // One chart per data set: new series (or a new compare series, or axis label) build a new chart; everything else
  // updates the one that exists.
  useLayoutEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    let drawStart: number | null = null;
    let lastX: [number, number] = [times[0] ?? 0, times[times.length - 1] ?? 1];
    const mainExtent = cachedExtent(values);
    const compareExtent = compareValues ? cachedExtent(compareValues) : null;

    const readout = (u: uPlot) => {
      const element = readoutRef.current;
      if (!element) return;
      const idx = u.cursor.idx;
      if (idx == null || u.cursor.left == null || u.cursor.left < 0) {
        element.textContent = '';
        return;
      }
      const span = (u.scales.x?.max ?? 0) - (u.scales.x?.min ?? 0);
      let text = `${formatSeconds(times[idx] ?? 0, span)} · ${formatValue(values[idx])}`;
      if (compareTimes && compareValues && compareTimes.length > 0) {
        const time = u.posToVal(u.cursor.left, 'x');
        const at = Math.min(compareTimes.length - 1, lowerBound(compareTimes, time));
        text += ` · ${liveRef.current.compareLabel ?? 'compare'} ${formatValue(compareValues[at])}`;
      }
      element.textContent = text;
    };

    const lineSeries = (seriesLabel: string, color: () => string, x: Float64Array, y: Float64Array): uPlot.Series => ({
      label: seriesLabel,
      stroke: color,
      width: LINE_WIDTH,
      // Ranging is ours (NaN-aware, windowed): uPlot's own scan would stop at the first NaN.
      auto: false,
      points: { show: false },
      paths: linePaths(x, y),
    });
    const axisColor = () => liveRef.current.colors.axis;
    const gridColor = () => liveRef.current.colors.grid;

    const options: uPlot.Options = {
      width: Math.max(1, Math.floor(host.clientWidth) || 600),
      height: heightRef.current,
      legend: { show: false },
      cursor: {
        y: false,
        points: { show: false },
        // uPlot swallows any click after the pointer moved at all; the seek handler applies its own slop instead, so a
        // slightly shaky click still seeks.
        drag: { x: true, y: false, setScale: true, dist: CLICK_SLOP, click: () => {} },
      },
      scales: {
        x: {
          time: false,
          range: (_u, min, max) => {
            if (min == null || max == null) return lastX;
            lastX = xWindow([min, max], times, compareTimes);
            return lastX;
          },
        },
        y: {
          range: () => {
            const mainRange = visibleIndexRange(times, lastX[0], lastX[1]);
            const compareRange = compareTimes ? visibleIndexRange(compareTimes, lastX[0], lastX[1]) : null;
            extentsRef.current = [
              mainRange && mainExtent(mainRange[0], mainRange[1]),
              compareRange && compareExtent ? compareExtent(compareRange[0], compareRange[1]) : null,
            ];
            return yRange(extentsRef.current, liveRef.current.threshold);
          },
        },
      },
      series: [
        {},
        lineSeries(label ?? 'Value', () => liveRef.current.colors.series, times, values),
        ...(compareTimes && compareValues
          ? [lineSeries('Compare', () => liveRef.current.colors.compare, compareTimes, compareValues)]
          : []),
      ],
      axes: [
        {
          stroke: axisColor,
          grid: { stroke: gridColor, width: 1 },
          ticks: { stroke: gridColor, width: 1 },
          values: (u, splits) => {
            const span = (u.scales.x?.max ?? 0) - (u.scales.x?.min ?? 0);
            return splits.map((s) => formatSeconds(s, span));
          },
        },
        {
          stroke: axisColor,
          grid: { stroke: gridColor, width: 1 },
          ticks: { stroke: gridColor, width: 1 },
          values: (_u, splits) => splits.map(formatCompact),
          size: 56,
          ...(label ? { label, labelSize: 20 } : {}),
        },
      ],
      hooks: {
        drawClear: [(u) => drawBypass(u, liveRef.current)],
        draw: [
          (u) => {
            drawMarkers(u, liveRef.current);
            if (drawStart !== null) {
              measureDraw(drawStart, values.length);
              drawStart = null;
            }
          },
        ],
        setScale: [
          (u, key) => {
            if (key !== 'x') return;
            positionCursorLine();
            const full = xWindow([times[0] ?? 0, times[times.length - 1] ?? 0], times, compareTimes);
            const { min, max } = u.scales.x ?? {};
            const epsilon = (full[1] - full[0]) * 1e-9;
            setZoomed(min != null && max != null && (min > full[0] + epsilon || max < full[1] - epsilon));
          },
        ],
        setSize: [() => positionCursorLine()],
        setCursor: [readout],
      },
    };

    // The compare series is traced from its own arrays; its data slot only needs the right length, so it reuses the
    // main values instead of a copy.
    const data: uPlot.AlignedData = compareTimes ? [times, values, values] : [times, values];
    drawStart = performance.now();
    const u = new uPlot(options, data, host);
    chartRef.current = u;

    const line = document.createElement('div');
    // Inline styles: the line must show wherever the chart is mounted, with or without the app's stylesheet.
    Object.assign(line.style, {
      position: 'absolute',
      top: '0',
      left: '0',
      height: '100%',
      width: '0',
      borderLeft: '2px solid var(--foreground, #111)',
      opacity: '0.8',
      pointerEvents: 'none',
      willChange: 'transform',
    });
    line.dataset.testid = 'series-chart-cursor';
    line.style.display = 'none';
    u.over.appendChild(line);
    cursorLineRef.current = line;

    let press: { x: number; y: number } | null = null;
    const onMouseDown = (event: MouseEvent) => {
      press = event.button === 0 ? { x: event.clientX, y: event.clientY } : null;
    };
    const onClick = (event: MouseEvent) => {
      const start = press;
      press = null;
      if (!start || Math.hypot(event.clientX - start.x, event.clientY - start.y) > CLICK_SLOP) return;
      const seek = liveRef.current.onSeek;
      const { min, max } = u.scales.x ?? {};
      if (!seek || min == null || max == null) return;
      const rect = u.over.getBoundingClientRect();
      seek(seekTimeAt(event.clientX - rect.left, rect.width, min, max));
    };
    u.over.addEventListener('mousedown', onMouseDown);
    u.over.addEventListener('click', onClick);

    return () => {
      u.over.removeEventListener('mousedown', onMouseDown);
      u.over.removeEventListener('click', onClick);
      u.destroy();
      chartRef.current = null;
      cursorLineRef.current = null;
    };
  }, [times, values, compareTimes, compareValues, label, positionCursorLine]);

  // Overlays drawn on the canvas: a change redraws from the cached line paths (no re-tracing of the data).
  useLayoutEffect(() => {
    const live = liveRef.current;
    const thresholdChanged = live.threshold !== threshold;
    live.events = events;
    live.bypassRanges = bypassRanges;
    live.threshold = threshold;
    const u = chartRef.current;
    if (!u) return;
    // The y range includes the threshold: a new threshold re-ranges y (and so re-traces) only when it moves the range.
    const [min, max] = yRange(extentsRef.current, threshold);
    if (thresholdChanged && (min !== u.scales.y?.min || max !== u.scales.y?.max)) u.setScale('y', { min, max });
    else u.redraw(false, false);
  }, [events, bypassRanges, threshold]);

  useLayoutEffect(() => {
    liveRef.current.onSeek = onSeek;
    liveRef.current.compareLabel = compareLabel;
  }, [onSeek, compareLabel]);

  // The playback cursor: one style write, no canvas work.
  useLayoutEffect(() => {
    liveRef.current.currentTime = currentTime;
    positionCursorLine();
  }, [currentTime, positionCursorLine]);

  useLayoutEffect(() => {
    heightRef.current = height;
    const u = chartRef.current;
    if (u && u.height !== height) u.setSize({ width: u.width, height });
  }, [height]);

  useEffect(() => {
    const host = hostRef.current;
    if (!host || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      const width = Math.floor(entries[0]?.contentRect.width ?? 0);
      const u = chartRef.current;
      if (u && width > 0 && width !== u.width) u.setSize({ width, height: heightRef.current });
    });
    observer.observe(host);
    return () => observer.disconnect();
  }, []);

  // The theme provider switches a class on <html>: re-read the colours and repaint.
  useEffect(() => {
    if (typeof MutationObserver === 'undefined') return;
    const observer = new MutationObserver(() => {
      liveRef.current.colors = documentChartColors();
      chartRef.current?.redraw(false, false);
    });
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class', 'style'] });
    return () => observer.disconnect();
  }, []);

  const description = useMemo(
    () =>
      describeChart({
        label,
        points: values.length,
        duration: times.length > 0 ? (times[times.length - 1] ?? 0) - (times[0] ?? 0) : 0,
        events,
        threshold,
        compareLabel,
      }),
    [label, values, times, events, threshold, compareLabel],
  );

  return (
    <div className="relative min-w-0">
      <div role="img" aria-label={description} data-testid="series-chart" className="flex min-w-0 flex-col gap-1">
        <div className="flex min-h-8 flex-wrap items-center gap-x-4 gap-y-1 pr-28 text-muted-foreground text-xs">
          <LegendItem color="bg-primary" text={label ?? 'Value'} />
          {compareLabel && compareValues ? <LegendItem color="bg-success" text={compareLabel} /> : null}
          <span ref={readoutRef} className="ml-auto font-mono tabular-nums" />
        </div>
        <div
          ref={hostRef}
          className="min-w-0 overflow-hidden [&_.u-select]:bg-foreground/10 [&_.u-cursor-x]:border-muted-foreground/60"
          style={{ height }}
        />
      </div>
      <div className="absolute top-0 right-0">
        {zoomed ? (
          <Button variant="ghost" size="sm" onClick={() => resetZoom(chartRef.current, times)}>
            <ZoomOut />
            Reset zoom
          </Button>
        ) : (
          <span className="hidden h-8 items-center text-muted-foreground text-xs sm:flex">Drag to zoom</span>
        )}
      </div>
    </div>
  );
}

function LegendItem({ color, text }: { color: string; text: string }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span className={`inline-block h-0.5 w-4 rounded ${color}`} />
      {text}
    </span>
  );
}

function resetZoom(u: uPlot | null, times: Float64Array) {
  const first = times[0];
  const last = times[times.length - 1];
  // The main series' full extent widens to every series' (see the x range).
  if (u && first !== undefined && last !== undefined) u.setScale('x', { min: first, max: last });
}

function measureDraw(start: number, points: number) {
  if (typeof performance.measure !== 'function') return;
  try {
    performance.measure(DRAW_MEASURE, { start, end: performance.now(), detail: { points } });
  } catch {
    // Measuring is best effort (older engines reject the options form).
  }
}
