/**
 * Draws the Annotator's timeline on a 2D canvas: the ruler, one lane per track, and only the bouts inside the
 * visible window (found by binary search). Bouts narrower than a pixel are merged into runs per pixel column, so a
 * whole 12-hour video with thousands of bouts costs no more than the canvas is wide.
 */
import { type Range, visibleSlice } from './bouts';
import { formatTick, rulerTicks, type TimelineView, timeToX } from './timeline-view';

export const RULER_HEIGHT = 22;
export const LANE_HEIGHT = 30;
export const LANE_GAP = 2;

export interface TimelineColors {
  background: string;
  lane: string;
  grid: string;
  text: string;
  outline: string;
}

// Used when the theme variables are missing (the benchmark page has no stylesheet).
const FALLBACK: TimelineColors = {
  background: '#ffffff',
  lane: 'rgba(127, 127, 127, 0.1)',
  grid: 'rgba(127, 127, 127, 0.35)',
  text: '#6b7280',
  outline: '#111827',
};

const VARIABLES: Record<keyof TimelineColors, string> = {
  background: '--card',
  lane: '--muted',
  grid: '--border',
  text: '--muted-foreground',
  outline: '--foreground',
};

/** The theme's timeline colours; `read` returns a CSS variable's value ('' when unset). */
export function timelineColors(read: (variable: string) => string): TimelineColors {
  const colors = { ...FALLBACK };
  for (const key of Object.keys(VARIABLES) as (keyof TimelineColors)[]) {
    const value = read(VARIABLES[key]).trim();
    if (value) colors[key] = value;
  }
  return colors;
}

export interface LaneModel {
  color: string;
  ranges: readonly Range[];
  /** A bout being marked (key pressed once, or a drag), drawn hatched. */
  pending: Range | null;
  /** The selected bout of this lane. */
  selected: Range | null;
}

export interface TimelineModel {
  /** CSS pixels. */
  width: number;
  height: number;
  dpr: number;
  view: TimelineView;
  fps: number;
  lanes: readonly LaneModel[];
  colors: TimelineColors;
}

export const laneTop = (index: number) => RULER_HEIGHT + index * (LANE_HEIGHT + LANE_GAP);
export const timelineHeight = (lanes: number) => laneTop(Math.max(1, lanes)) + 4;

/** Draws the whole timeline; answers how many bouts were inside the window (for tests and the benchmark). */
export function drawTimeline(ctx: CanvasRenderingContext2D, model: TimelineModel): number {
  const { width, height, dpr, view, fps, colors } = model;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = colors.background;
  ctx.fillRect(0, 0, width, height);
  drawRuler(ctx, model);

  const frameWidth = width / view.span / fps;
  const viewEnd = view.start + view.span;
  let shown = 0;
  model.lanes.forEach((lane, index) => {
    const top = laneTop(index);
    ctx.fillStyle = colors.lane;
    ctx.fillRect(0, top, width, LANE_HEIGHT);
    if (frameWidth >= 8) drawFrameGrid(ctx, model, top);

    const [from, to] = visibleSlice(lane.ranges, view.start, viewEnd);
    shown += to - from;
    ctx.fillStyle = lane.color;
    // Runs of bouts closer than a pixel are one rectangle.
    let runStart = Number.NaN;
    let runEnd = Number.NaN;
    for (let i = from; i < to; i++) {
      const range = lane.ranges[i]!;
      const x0 = Math.max(-1, timeToX(view, width, range[0]));
      const x1 = Math.min(width + 1, timeToX(view, width, range[1]));
      if (x0 <= runEnd + 0.5) {
        if (x1 > runEnd) runEnd = x1;
        continue;
      }
      if (!Number.isNaN(runStart)) fillBout(ctx, runStart, runEnd, top);
      runStart = x0;
      runEnd = x1;
    }
    if (!Number.isNaN(runStart)) fillBout(ctx, runStart, runEnd, top);

    if (frameWidth >= 3) drawBoutEdges(ctx, model, lane, from, to, top);
    if (lane.pending) drawPending(ctx, model, lane, top);
    if (lane.selected) drawSelection(ctx, model, lane.selected, top);
  });
  return shown;
}

function fillBout(ctx: CanvasRenderingContext2D, x0: number, x1: number, top: number) {
  ctx.fillRect(x0, top + 3, Math.max(1, x1 - x0), LANE_HEIGHT - 6);
}

/** Darker edges show where one bout ends and a touching one starts, once bouts are wide enough to see. */
function drawBoutEdges(
  ctx: CanvasRenderingContext2D,
  model: TimelineModel,
  lane: LaneModel,
  from: number,
  to: number,
  top: number,
) {
  ctx.save();
  ctx.globalAlpha = 0.55;
  ctx.strokeStyle = model.colors.outline;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let i = from; i < to; i++) {
    const range = lane.ranges[i]!;
    for (const edge of range) {
      const x = Math.round(timeToX(model.view, model.width, edge)) + 0.5;
      ctx.moveTo(x, top + 3);
      ctx.lineTo(x, top + LANE_HEIGHT - 3);
    }
  }
  ctx.stroke();
  ctx.restore();
}

function drawPending(ctx: CanvasRenderingContext2D, model: TimelineModel, lane: LaneModel, top: number) {
  const [start, end] = lane.pending!;
  const x0 = timeToX(model.view, model.width, start);
  const x1 = timeToX(model.view, model.width, end);
  ctx.save();
  ctx.globalAlpha = 0.45;
  ctx.fillStyle = lane.color;
  ctx.fillRect(x0, top + 3, Math.max(2, x1 - x0), LANE_HEIGHT - 6);
  ctx.globalAlpha = 1;
  ctx.setLineDash([4, 3]);
  ctx.strokeStyle = lane.color;
  ctx.lineWidth = 2;
  ctx.strokeRect(x0, top + 2, Math.max(2, x1 - x0), LANE_HEIGHT - 4);
  ctx.restore();
}

function drawSelection(ctx: CanvasRenderingContext2D, model: TimelineModel, range: Range, top: number) {
  const x0 = timeToX(model.view, model.width, range[0]);
  const x1 = timeToX(model.view, model.width, range[1]);
  if (x1 < -4 || x0 > model.width + 4) return;
  ctx.save();
  ctx.strokeStyle = model.colors.outline;
  ctx.lineWidth = 2;
  ctx.strokeRect(x0, top + 1, Math.max(2, x1 - x0), LANE_HEIGHT - 2);
  // Edge handles: where a drag adjusts the bout.
  ctx.fillStyle = model.colors.outline;
  ctx.fillRect(x0 - 2, top + LANE_HEIGHT / 2 - 7, 4, 14);
  ctx.fillRect(x1 - 2, top + LANE_HEIGHT / 2 - 7, 4, 14);
  ctx.restore();
}

function drawFrameGrid(ctx: CanvasRenderingContext2D, model: TimelineModel, top: number) {
  const { view, fps, width } = model;
  ctx.save();
  ctx.strokeStyle = model.colors.grid;
  ctx.lineWidth = 1;
  ctx.beginPath();
  const first = Math.ceil(view.start * fps);
  const last = Math.floor((view.start + view.span) * fps);
  for (let frame = first; frame <= last; frame++) {
    const x = Math.round(timeToX(view, width, frame / fps)) + 0.5;
    ctx.moveTo(x, top);
    ctx.lineTo(x, top + LANE_HEIGHT);
  }
  ctx.stroke();
  ctx.restore();
}

function drawRuler(ctx: CanvasRenderingContext2D, model: TimelineModel) {
  const { view, width, fps, colors } = model;
  const ticks = rulerTicks(view, width, fps);
  ctx.save();
  ctx.strokeStyle = colors.grid;
  ctx.fillStyle = colors.text;
  ctx.font = '11px ui-sans-serif, system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(0, RULER_HEIGHT - 0.5);
  ctx.lineTo(width, RULER_HEIGHT - 0.5);
  for (const time of ticks.times) {
    const x = Math.round(timeToX(view, width, time)) + 0.5;
    ctx.moveTo(x, RULER_HEIGHT - 6);
    ctx.lineTo(x, RULER_HEIGHT);
  }
  ctx.stroke();
  for (const time of ticks.times) {
    const x = timeToX(view, width, time);
    if (x > width - 40) continue;
    ctx.fillText(formatTick(time, fps, ticks.frames || ticks.step % 1 !== 0), x + 3, RULER_HEIGHT / 2 - 1);
  }
  ctx.restore();
}
