import { ZoomOut } from 'lucide-react';
import { type JSX, useMemo } from 'react';
import type { PlayerController } from '@/components/player/player-controller';
import { Button } from '@/components/ui/button';
import { type ChartEvent, type ChartSeries, describeChart } from './chart-data';
import { useSeriesChart } from './use-series-chart';

export { DRAW_MEASURE } from './use-series-chart';

export interface SeriesChartProps {
  /** NaN = no value (bypassed frame): drawn as a gap. */
  series: ChartSeries;
  /** Vertical markers; discarded ones dimmed, selected ones emphasised. */
  events?: ChartEvent[];
  /** Shaded spans [start, end) in seconds. */
  bypassRanges?: [number, number][];
  /** A dashed horizontal line. */
  threshold?: number | null;
  /** A second series on its own x values, in another colour and in the legend. */
  compare?: (ChartSeries & { label: string }) | null;
  /** Locks the chart to a player: the cursor follows its clock (without re-rendering), a click seeks it. */
  player?: Pick<PlayerController, 'clock' | 'seekTime'>;
  /** A cursor line at this time (when no player is given); moving it never redraws the data. */
  currentTime?: number;
  /** A click (without a drag) on the plot: the time under the pointer. Default with a player: seek it. */
  onSeek?: (timeSeconds: number) => void;
  height?: number;
  /** The y-axis label, e.g. "changed pixels". */
  label?: string;
}

const NO_EVENTS: ChartEvent[] = [];

/**
 * The standard time-series chart (useSeriesChart in a frame with a legend, a value readout and zoom): drag on the
 * plot to zoom into a time window, the button to see everything again, click to seek.
 */
export function SeriesChart({
  series,
  events = NO_EVENTS,
  bypassRanges,
  threshold = null,
  compare = null,
  player,
  currentTime,
  onSeek,
  height = 240,
  label,
}: SeriesChartProps): JSX.Element {
  const seek = useMemo(
    () => onSeek ?? (player ? (time: number) => void player.seekTime(time) : undefined),
    [onSeek, player],
  );
  const { hostRef, readoutRef, times, zoomed, resetZoom } = useSeriesChart({
    series,
    events,
    bypassRanges,
    threshold,
    compare,
    cursor: player ? player.clock : currentTime,
    onSeek: seek,
    height,
    label,
  });
  const compareLabel = compare?.label ?? null;
  const compareValues = compare?.values ?? null;
  const values = series.values;

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
          <Button variant="ghost" size="sm" onClick={resetZoom}>
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
