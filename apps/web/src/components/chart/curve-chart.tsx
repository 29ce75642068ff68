import 'uplot/dist/uPlot.min.css';
import { type JSX, useEffect, useLayoutEffect, useRef } from 'react';
import uPlot from 'uplot';
import { documentChartColors } from './chart-theme';

export interface CurveSeries {
  label: string;
  /** One value per x (null: none, drawn as a gap). */
  values: (number | null)[];
}

/** Line colours after the theme's primary, distinct on light and dark backgrounds. */
const MORE_COLORS = ['#16a34a', '#d97706', '#db2777', '#0891b2', '#65a30d', '#9333ea'];

export function curveColor(index: number, primary: string): string {
  return index === 0 ? primary : MORE_COLORS[(index - 1) % MORE_COLORS.length]!;
}

/**
 * A small uPlot chart of curves over one x axis (a calibration's score over its threshold): a line with points per
 * series, an optional ringed marker (the best setting), the theme's colours (repainted when the theme changes), the
 * width of its container. For per-frame series use SeriesChart.
 */
export function CurveChart({
  x,
  series,
  xLabel,
  yLabel,
  marker = null,
  yRange = null,
  height = 220,
}: {
  x: number[];
  series: CurveSeries[];
  xLabel: string;
  yLabel: string;
  marker?: { x: number; y: number } | null;
  /** A fixed y range (e.g. [0, 1] for F1); else from the data. */
  yRange?: [number, number] | null;
  height?: number;
}): JSX.Element {
  const hostRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<uPlot | null>(null);
  const colorsRef = useRef(documentChartColors());
  const markerRef = useRef(marker);

  useLayoutEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const colors = () => colorsRef.current;
    const options: uPlot.Options = {
      width: Math.max(1, Math.floor(host.clientWidth) || 500),
      height,
      legend: { show: false },
      cursor: { points: { show: false }, drag: { x: false, y: false } },
      scales: { x: { time: false }, y: yRange ? { range: () => yRange } : { auto: true } },
      axes: [
        {
          label: xLabel,
          stroke: () => colors().axis,
          grid: { stroke: () => colors().grid },
          ticks: { stroke: () => colors().grid },
        },
        {
          label: yLabel,
          stroke: () => colors().axis,
          grid: { stroke: () => colors().grid },
          ticks: { stroke: () => colors().grid },
        },
      ],
      series: [
        {},
        ...series.map((line, index) => ({
          label: line.label,
          stroke: () => curveColor(index, colors().series),
          width: 1.5,
          points: { show: x.length <= 120, size: 4, fill: () => curveColor(index, colors().series) },
          spanGaps: false,
        })),
      ],
      hooks: {
        draw: [
          (u) => {
            const best = markerRef.current;
            if (!best) return;
            const context = u.ctx;
            const left = u.valToPos(best.x, 'x', true);
            const top = u.valToPos(best.y, 'y', true);
            context.save();
            context.strokeStyle = colors().event;
            context.lineWidth = 2 * uPlot.pxRatio;
            context.beginPath();
            context.arc(left, top, 7 * uPlot.pxRatio, 0, 2 * Math.PI);
            context.stroke();
            context.restore();
          },
        ],
      },
    };
    const data: uPlot.AlignedData = [x, ...series.map((line) => line.values)];
    const chart = new uPlot(options, data, host);
    chartRef.current = chart;
    return () => {
      chart.destroy();
      chartRef.current = null;
    };
  }, [x, series, xLabel, yLabel, height, yRange]);

  // A new best point on the same curves: only the ring moves.
  useEffect(() => {
    markerRef.current = marker;
    chartRef.current?.redraw(false);
  }, [marker]);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const resize =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            const chart = chartRef.current;
            const width = Math.floor(host.clientWidth);
            if (chart && width > 0 && width !== chart.width) chart.setSize({ width, height: chart.height });
          });
    resize?.observe(host);
    // The theme provider switches a class on <html>: re-read the colours and repaint.
    const theme =
      typeof MutationObserver === 'undefined'
        ? null
        : new MutationObserver(() => {
            colorsRef.current = documentChartColors();
            chartRef.current?.redraw(false);
          });
    theme?.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
    return () => {
      resize?.disconnect();
      theme?.disconnect();
    };
  }, []);

  return (
    <div className="grid min-w-0 grid-cols-1 gap-1">
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-muted-foreground text-xs">
        {series.map((line, index) => (
          <span key={line.label} className="inline-flex items-center gap-1.5">
            <span
              className="inline-block h-0.5 w-4 rounded"
              style={{ backgroundColor: curveColor(index, colorsRef.current.series) }}
            />
            {line.label}
          </span>
        ))}
      </div>
      <div ref={hostRef} className="min-w-0 overflow-hidden" style={{ height }} />
    </div>
  );
}
