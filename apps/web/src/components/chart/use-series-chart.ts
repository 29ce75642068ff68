import 'uplot/dist/uPlot.min.css';
import { type RefObject, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import uPlot from 'uplot';
import type { TimeSource } from '@/components/player/time-store';
import {
  buildTimes,
  type ChartEvent,
  type ChartSeries,
  cachedExtent,
  formatCompact,
  formatSeconds,
  lowerBound,
  seekTimeAt,
  visibleIndexRange,
  xWindow,
  yRange,
} from './chart-data';
import { type DrawState, drawBypass, drawMarkers, formatValue, linePaths } from './chart-draw';
import { documentChartColors } from './chart-theme';

/** The performance measure around the first full draw after data is set (read by the chart benchmark). */
export const DRAW_MEASURE = 'series-chart-draw';

const NO_EVENTS: ChartEvent[] = [];
const NO_RANGES: [number, number][] = [];
const LINE_WIDTH = 1.25;
/** Pointer travel (CSS px) below which a press is a click (seek), not a drag (zoom). */
const CLICK_SLOP = 4;

export interface SeriesChartOptions {
  /** NaN = no value (bypassed frame): drawn as a gap. */
  series: ChartSeries;
  /** Vertical markers; discarded ones dimmed, selected ones emphasised. */
  events?: readonly ChartEvent[];
  /** Shaded spans [start, end) in seconds. */
  bypassRanges?: readonly (readonly [number, number])[];
  /** A dashed horizontal line. */
  threshold?: number | null;
  /** A second series on its own x values, in another colour and in the legend. */
  compare?: (ChartSeries & { label: string }) | null;
  /**
   * The playback cursor: a time, or a player's clock (`player.clock`), which the cursor follows without any React
   * render — the way to lock a chart to the player. Moving it never redraws the data.
   */
  cursor?: number | TimeSource | undefined;
  /** A click (without a drag) on the plot: the time under the pointer. */
  onSeek?: ((timeSeconds: number) => void) | undefined;
  height: number;
  /** The y-axis label, e.g. "changed pixels". */
  label?: string | undefined;
  /** A fixed time window [from, to] in seconds. Without it the chart shows everything and a drag zooms. */
  window?: readonly [number, number] | null;
  /** Called with each chart built (a new data set builds a new one); may return a clean-up. For custom pointer work. */
  onChart?: ((u: uPlot) => (() => void) | undefined) | undefined;
}

export interface SeriesChartHandle {
  /** The element the chart draws into (size it; the chart follows its width). */
  hostRef: RefObject<HTMLDivElement | null>;
  /** An element that shows the value under the pointer. */
  readoutRef: RefObject<HTMLSpanElement | null>;
  /** The x values of the main series. */
  times: Float64Array;
  /** Zoomed in (only without a fixed window). */
  zoomed: boolean;
  resetZoom: () => void;
}

/** What the canvas and the pointer handlers read at event time: changing it never builds a new chart. */
interface Live extends DrawState {
  cursor: number | undefined;
  compareLabel: string | null;
  onSeek: ((time: number) => void) | undefined;
  window: readonly [number, number] | null;
}

const cursorTime = (cursor: SeriesChartOptions['cursor']) => (typeof cursor === 'object' ? cursor.get() : cursor);

/**
 * The app's one uPlot hook, for series of one value per frame (10⁵–10⁶ points): typed arrays passed as they are,
 * lines traced with per-pixel min/max, NaN drawn as gaps, events, bypass shading and the threshold drawn over the
 * cached line paths. A playback cursor is an element over the canvas, so a playing video moves it without redrawing
 * the data. SeriesChart is its standard frame; Quick Score's trace uses it with a fixed window.
 */
export function useSeriesChart(options: SeriesChartOptions): SeriesChartHandle {
  const {
    series,
    events = NO_EVENTS,
    bypassRanges = NO_RANGES,
    threshold = null,
    compare = null,
    cursor,
    onSeek,
    height,
    label,
    window = null,
    onChart,
  } = options;
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
  const fixedWindow = window !== null;

  const hostRef = useRef<HTMLDivElement>(null);
  const readoutRef = useRef<HTMLSpanElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  const cursorLineRef = useRef<HTMLDivElement | null>(null);
  const heightRef = useRef(height);
  const onChartRef = useRef(onChart);
  onChartRef.current = onChart;
  const [zoomed, setZoomed] = useState(false);
  const liveRef = useRef<Live>(null as unknown as Live);
  // Lazy, so the theme's computed style is read once, not on every render.
  if (liveRef.current === null)
    liveRef.current = {
      events,
      bypassRanges,
      threshold,
      cursor: cursorTime(cursor),
      compareLabel,
      onSeek,
      window,
      colors: documentChartColors(),
    };
  /** The data extents in the current x window, kept by the y range so a threshold change can re-range cheaply. */
  const extentsRef = useRef<([number, number] | null)[]>([]);

  const positionCursorLine = useCallback(() => {
    const u = chartRef.current;
    const line = cursorLineRef.current;
    if (!u || !line) return;
    const time = liveRef.current.cursor;
    const { min, max } = u.scales.x ?? {};
    if (time == null || !Number.isFinite(time) || min == null || max == null || time < min || time > max) {
      line.style.display = 'none';
      return;
    }
    line.style.display = '';
    line.style.transform = `translateX(${u.valToPos(time, 'x') - 1}px)`;
  }, []);

  // One chart per data set: new series (or a new compare series, axis label or window mode) build a new chart;
  // everything else updates the one that exists.
  useLayoutEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    let drawStart: number | null = null;
    const initialWindow = liveRef.current.window;
    let lastX: [number, number] = initialWindow
      ? [initialWindow[0], initialWindow[1]]
      : [times[0] ?? 0, times[times.length - 1] ?? 1];
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
        // slightly shaky click still seeks. A fixed window does not zoom.
        drag: fixedWindow
          ? { x: false, y: false, setScale: false }
          : { x: true, y: false, setScale: true, dist: CLICK_SLOP, click: () => {} },
      },
      scales: {
        x: {
          time: false,
          range: (_u, min, max) => {
            const fixed = liveRef.current.window;
            if (fixed) lastX = [fixed[0], fixed[1]];
            else if (min != null && max != null) lastX = xWindow([min, max], times, compareTimes);
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
            if (liveRef.current.window) return;
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
    const release = onChartRef.current?.(u);

    return () => {
      release?.();
      u.over.removeEventListener('mousedown', onMouseDown);
      u.over.removeEventListener('click', onClick);
      u.destroy();
      chartRef.current = null;
      cursorLineRef.current = null;
    };
  }, [times, values, compareTimes, compareValues, label, fixedWindow, positionCursorLine]);

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

  // A fixed window moves with one setScale: the path builder traces only the points inside it.
  const windowFrom = window?.[0];
  const windowTo = window?.[1];
  useLayoutEffect(() => {
    const live = liveRef.current;
    live.window = windowFrom !== undefined && windowTo !== undefined ? [windowFrom, windowTo] : null;
    const u = chartRef.current;
    if (!u || !live.window) return;
    if (u.scales.x?.min !== windowFrom || u.scales.x?.max !== windowTo)
      u.setScale('x', { min: windowFrom!, max: windowTo! });
  }, [windowFrom, windowTo]);

  useLayoutEffect(() => {
    liveRef.current.onSeek = onSeek;
    liveRef.current.compareLabel = compareLabel;
  }, [onSeek, compareLabel]);

  // The playback cursor: one style write, no canvas work. A clock is followed by subscription, without renders.
  useLayoutEffect(() => {
    if (typeof cursor !== 'object') {
      liveRef.current.cursor = cursor;
      positionCursorLine();
      return;
    }
    const follow = () => {
      liveRef.current.cursor = cursor.get();
      positionCursorLine();
    };
    follow();
    return cursor.subscribe(follow);
  }, [cursor, positionCursorLine]);

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

  const resetZoom = useCallback(() => {
    const u = chartRef.current;
    const first = times[0];
    const last = times[times.length - 1];
    // The main series' full extent widens to every series' (see the x range).
    if (u && first !== undefined && last !== undefined) u.setScale('x', { min: first, max: last });
  }, [times]);

  return { hostRef, readoutRef, times, zoomed, resetZoom };
}

function measureDraw(start: number, points: number) {
  if (typeof performance.measure !== 'function') return;
  try {
    performance.measure(DRAW_MEASURE, { start, end: performance.now(), detail: { points } });
  } catch {
    // Measuring is best effort (older engines reject the options form).
  }
}
