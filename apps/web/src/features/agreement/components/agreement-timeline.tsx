import { useEffect, useRef } from 'react';
import type { TimeSource } from '@/components/player/time-store';
import type { AgreementReport } from '../api';
import type { Disagreement } from '../disagreements';

export interface TimelineColors {
  matched: string;
  missed: string;
  extra: string;
  range: string;
  text: string;
  grid: string;
  selected: string;
}

const FALLBACK: TimelineColors = {
  matched: '#16a34a',
  missed: '#dc2626',
  extra: '#d97706',
  range: '#4f46e5',
  text: '#6b7280',
  grid: 'rgba(127,127,127,0.25)',
  selected: 'rgba(127,127,127,0.25)',
};
const VARIABLES: Partial<Record<keyof TimelineColors, string>> = {
  matched: '--success',
  missed: '--destructive',
  extra: '--warning',
  range: '--primary',
  text: '--muted-foreground',
  grid: '--border',
};

function themeColors(): TimelineColors {
  const style = getComputedStyle(document.documentElement);
  const colors = { ...FALLBACK };
  for (const [key, variable] of Object.entries(VARIABLES) as [keyof TimelineColors, string][]) {
    const value = style.getPropertyValue(variable).trim();
    if (value) colors[key] = value;
  }
  return colors;
}

const LANE_HEIGHT = 22;
const LABEL_WIDTH = 24;

export interface TimelineData {
  duration: number;
  report: AgreementReport;
  referenceRanges: [number, number][] | null;
  candidateRanges: [number, number][] | null;
  selected: Disagreement | null;
}

/** Draws the lanes: R (its ranges, matched and missed events), C (ranges, matched and extra), and the disagreements. */
export function drawTimeline(
  context: CanvasRenderingContext2D,
  width: number,
  data: TimelineData,
  colors: TimelineColors,
) {
  const { report, duration } = data;
  const lanes = report.intervals ? 3 : 2;
  const plot = Math.max(1, width - LABEL_WIDTH);
  const x = (time: number) => LABEL_WIDTH + (duration > 0 ? (time / duration) * plot : 0);
  context.clearRect(0, 0, width, lanes * LANE_HEIGHT);
  context.font = '11px ui-sans-serif, system-ui, sans-serif';
  context.textBaseline = 'middle';
  const labels = report.intervals ? ['R', 'C', '≠'] : ['R', 'C'];
  labels.forEach((label, lane) => {
    context.fillStyle = colors.text;
    context.fillText(label, 6, lane * LANE_HEIGHT + LANE_HEIGHT / 2);
    context.fillStyle = colors.grid;
    context.fillRect(LABEL_WIDTH, (lane + 1) * LANE_HEIGHT - 1, plot, 1);
  });
  if (data.selected) {
    const start = x(data.selected.start);
    const end = data.selected.end === null ? start + 1 : Math.max(start + 1, x(data.selected.end));
    context.fillStyle = colors.selected;
    context.fillRect(start - 3, 0, end - start + 6, lanes * LANE_HEIGHT);
  }
  const bars = (ranges: [number, number][] | null, lane: number, color: string) => {
    if (!ranges) return;
    context.globalAlpha = 0.35;
    context.fillStyle = color;
    for (const [start, end] of ranges) {
      context.fillRect(x(start), lane * LANE_HEIGHT + 4, Math.max(1, x(end) - x(start)), LANE_HEIGHT - 9);
    }
    context.globalAlpha = 1;
  };
  const ticks = (times: number[], lane: number, color: string) => {
    context.fillStyle = color;
    for (const time of times) context.fillRect(Math.round(x(time)) - 1, lane * LANE_HEIGHT + 2, 2, LANE_HEIGHT - 5);
  };
  bars(data.referenceRanges, 0, colors.range);
  bars(data.candidateRanges, 1, colors.range);
  ticks(
    report.events.pairs.map((p) => p.reference_s),
    0,
    colors.matched,
  );
  ticks(report.events.missed, 0, colors.missed);
  ticks(
    report.events.pairs.map((p) => p.candidate_s),
    1,
    colors.matched,
  );
  ticks(report.events.extra, 1, colors.extra);
  if (report.intervals) {
    for (const stretch of report.intervals.disagreements) {
      context.fillStyle = stretch.side === 'reference_only' ? colors.missed : colors.extra;
      context.fillRect(
        x(stretch.start_s),
        2 * LANE_HEIGHT + 4,
        Math.max(2, x(stretch.end_s) - x(stretch.start_s)),
        LANE_HEIGHT - 9,
      );
    }
  }
}

/**
 * The whole video as lanes of marks (canvas): what each side has, matched / missed / extra, and where the intervals
 * disagree; the selected disagreement highlighted, the player's position as a line moved without redrawing. A click
 * seeks the player.
 */
export function AgreementTimeline({
  data,
  playhead,
  onSeek,
}: {
  data: TimelineData;
  playhead: TimeSource;
  onSeek: (time: number) => void;
}) {
  const hostRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const lineRef = useRef<HTMLDivElement>(null);
  const lanes = data.report.intervals ? 3 : 2;
  const height = lanes * LANE_HEIGHT;

  useEffect(() => {
    const host = hostRef.current;
    const canvas = canvasRef.current;
    if (!host || !canvas) return;
    const draw = () => {
      const width = host.clientWidth;
      const ratio = window.devicePixelRatio || 1;
      canvas.width = Math.max(1, Math.round(width * ratio));
      canvas.height = Math.round(height * ratio);
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
      const context = canvas.getContext('2d');
      if (!context) return;
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      drawTimeline(context, width, data, themeColors());
    };
    draw();
    const resize = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(draw);
    resize?.observe(host);
    // The theme provider switches a class on <html>: redraw in the new colours.
    const theme = typeof MutationObserver === 'undefined' ? null : new MutationObserver(draw);
    theme?.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
    return () => {
      resize?.disconnect();
      theme?.disconnect();
    };
  }, [data, height]);

  useEffect(() => {
    const place = () => {
      const host = hostRef.current;
      const line = lineRef.current;
      if (!host || !line) return;
      const plot = Math.max(1, host.clientWidth - LABEL_WIDTH);
      const time = playhead.get();
      line.style.transform = `translateX(${LABEL_WIDTH + (data.duration > 0 ? (time / data.duration) * plot : 0)}px)`;
    };
    place();
    return playhead.subscribe(place);
  }, [playhead, data.duration]);

  const seekAt = (clientX: number) => {
    const host = hostRef.current;
    if (!host) return;
    const box = host.getBoundingClientRect();
    const plot = Math.max(1, box.width - LABEL_WIDTH);
    const fraction = Math.min(1, Math.max(0, (clientX - box.left - LABEL_WIDTH) / plot));
    onSeek(fraction * data.duration);
  };

  const { events, intervals } = data.report;
  return (
    <div className="grid grid-cols-1 gap-1">
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: clicking to seek is a mouse shortcut; keys step through the list and the player. */}
      <div
        ref={hostRef}
        className="relative cursor-pointer select-none"
        style={{ height }}
        onClick={(event) => seekAt(event.clientX)}
        role="img"
        aria-label={`Timeline: ${events.tp} matched, ${events.fn} missed and ${events.fp} extra events${intervals ? `, ${intervals.disagreements.length} stretches where the intervals disagree` : ''}`}
        data-testid="agreement-timeline"
      >
        <canvas ref={canvasRef} className="absolute inset-0" />
        <div ref={lineRef} className="pointer-events-none absolute top-0 bottom-0 left-0 w-0.5 bg-foreground/70" />
      </div>
      <div className="flex flex-wrap gap-x-4 gap-y-1 pl-6 text-muted-foreground text-xs">
        <Legend className="bg-success" text="matched" />
        <Legend className="bg-destructive" text="missed (R only)" />
        <Legend className="bg-warning" text="extra (C only)" />
        {data.referenceRanges || data.candidateRanges ? <Legend className="bg-primary/40" text="ranges" /> : null}
      </div>
    </div>
  );
}

function Legend({ className, text }: { className: string; text: string }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span className={`inline-block size-2.5 rounded-sm ${className}`} />
      {text}
    </span>
  );
}
