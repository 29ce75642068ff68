/**
 * The timeline's visible window: which seconds of the video the lanes show. Zoom runs from the whole video (up to
 * 12 h) down to a few dozen frames, each frame then wide enough to hit; panning never leaves the video. Pure, so the
 * rules are unit-tested and the canvas only reads the result.
 */
import { formatTimecode } from '@/lib/format';

export interface TimelineView {
  /** Seconds at the left edge. */
  start: number;
  /** Seconds across the width. */
  span: number;
}

export interface ViewLimits {
  duration: number;
  fps: number;
  /** Width of the lanes in CSS pixels. */
  width: number;
}

/** At the closest zoom a frame is this wide. */
export const MAX_FRAME_PX = 32;
/** One +/− key press or wheel notch zooms by this factor. */
export const ZOOM_STEP = 1.5;

export function minSpan(limits: ViewLimits): number {
  const frames = Math.max(1, limits.width / MAX_FRAME_PX);
  return Math.min(limits.duration, frames / limits.fps);
}

export const wholeVideo = (limits: ViewLimits): TimelineView => ({ start: 0, span: Math.max(limits.duration, 1e-6) });

/** Keeps the span between one screen of frames and the whole video, and the window inside the video. */
export function clampView(view: TimelineView, limits: ViewLimits): TimelineView {
  const span = Math.min(Math.max(view.span, minSpan(limits)), Math.max(limits.duration, 1e-6));
  const start = Math.min(Math.max(view.start, 0), Math.max(0, limits.duration - span));
  return { start, span };
}

export const timeToX = (view: TimelineView, width: number, time: number) => ((time - view.start) / view.span) * width;
export const xToTime = (view: TimelineView, width: number, x: number) => view.start + (x / width) * view.span;

/** Zooms by `factor` (> 1 zooms in) keeping `anchor` (seconds) where it is on screen. */
export function zoomAt(view: TimelineView, factor: number, anchor: number, limits: ViewLimits): TimelineView {
  const span = view.span / factor;
  const fraction = view.span > 0 ? (anchor - view.start) / view.span : 0;
  const clampedSpan = clampView({ start: 0, span }, limits).span;
  return clampView({ start: anchor - fraction * clampedSpan, span: clampedSpan }, limits);
}

export const panBy = (view: TimelineView, seconds: number, limits: ViewLimits) =>
  clampView({ start: view.start + seconds, span: view.span }, limits);

/**
 * Keeps the playhead in sight: when `time` leaves the window the view turns a page, putting it a tenth of the way
 * in (the next stretch of video stays visible ahead of it while playing).
 */
export function follow(view: TimelineView, time: number, limits: ViewLimits): TimelineView {
  if (time >= view.start && time <= view.start + view.span) return view;
  return clampView({ start: time - view.span * 0.1, span: view.span }, limits);
}

/** Steps between ruler ticks, in seconds: frames are added at run time. */
const NICE_STEPS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];

/**
 * Ruler ticks at least `minPx` apart: whole frames when zoomed in to frames, else round seconds, minutes or hours.
 * Answers the step and the tick times inside the view.
 */
export function rulerTicks(
  view: TimelineView,
  width: number,
  fps: number,
  minPx = 80,
): { step: number; frames: boolean; times: number[] } {
  const secondsPerPx = view.span / Math.max(1, width);
  const wanted = secondsPerPx * minPx;
  let step = NICE_STEPS.find((candidate) => candidate >= wanted) ?? Math.ceil(wanted / 3600) * 3600;
  let frames = false;
  const frame = 1 / fps;
  if (wanted < 1) {
    // Below a second, tick whole numbers of frames so ticks sit on frame boundaries.
    const frameStep = [1, 2, 5, 10, 15, 30, 60].find((n) => n * frame >= wanted);
    if (frameStep !== undefined && frameStep * frame < 1) {
      step = frameStep * frame;
      frames = true;
    }
  }
  const times: number[] = [];
  const first = Math.ceil(view.start / step - 1e-9);
  for (let i = first; i * step <= view.start + view.span + 1e-9 && times.length < 500; i++) times.push(i * step);
  return { step, frames, times };
}

/** A ruler label: h:mm:ss, m:ss, or the frame's timecode (m:ss+ff, lib/format) when the step is below a second. */
export function formatTick(time: number, fps: number, withFrame: boolean): string {
  const frameIndex = Math.round(time * fps);
  if (withFrame) return formatTimecode(frameIndex, fps);
  const wholeSeconds = Math.floor(frameIndex / fps + 1e-9);
  const hours = Math.floor(wholeSeconds / 3600);
  const minutes = Math.floor((wholeSeconds % 3600) / 60);
  const seconds = wholeSeconds % 60;
  return hours > 0
    ? `${hours}:${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`
    : `${minutes}:${String(seconds).padStart(2, '0')}`;
}
