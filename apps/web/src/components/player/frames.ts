/**
 * Frame arithmetic shared by the player, the charts and the review tools. Frame n of a video at `fps` starts at
 * n / fps — the time the series, the events and the exports give it. The player seeks to the frame's middle,
 * (n + 0.5) / fps, so that rounding in the browser's media clock can never land on a neighbour.
 */

export const DEFAULT_FPS = 30;

/** The video's frame rate when it is known and sane, else 30. */
export function usableFps(fps: number | null | undefined): number {
  return fps != null && Number.isFinite(fps) && fps > 0 ? fps : DEFAULT_FPS;
}

/** The number of frames of a video: its own count, else duration × fps (at least 1). */
export function frameCountOf(frameCount: number | null | undefined, duration: number | null | undefined, fps: number) {
  if (frameCount != null && Number.isFinite(frameCount) && frameCount > 0) return Math.round(frameCount);
  if (duration != null && Number.isFinite(duration) && duration > 0) return Math.max(1, Math.round(duration * fps));
  return 1;
}

/** Where the player seeks to show frame `frame`: the middle of its display interval. */
export function frameTime(frame: number, fps: number): number {
  return Math.max(0, (frame + 0.5) / fps);
}

/** The frame shown at player time `time` (any instant inside the frame's interval). */
export function frameAt(time: number, fps: number): number {
  return Math.max(0, Math.floor(time * fps + 1e-6));
}

/** The start time of frame `frame`: its time in the series, the events and the exports. */
export function frameStart(frame: number, fps: number): number {
  return frame / fps;
}

/**
 * The frame whose start time is nearest `time`: for times that name a frame (event times, a browser's
 * `mediaTime`), which may carry floating-point noise on either side of n / fps.
 */
export function nearestFrame(time: number, fps: number): number {
  return Math.max(0, Math.round(time * fps));
}

/** `time` moved to the start of the nearest frame, never before 0 s: how a dragged event lands. */
export function snapToFrameStart(time: number, fps: number): number {
  return frameStart(nearestFrame(time, fps), fps);
}

export function clampFrame(frame: number, frameCount: number): number {
  return Math.min(Math.max(0, Math.round(frame)), Math.max(0, frameCount - 1));
}

/** A run of frames [start, end): `start` is the first frame shown, `end - 1` the last. */
export interface FrameRange {
  start: number;
  end: number;
}

/** Seconds of video a clip shows before and after its centre frame. */
export interface ClipSpan {
  before: number;
  after: number;
}

/**
 * The clip around `centre` (a frame): from `before` seconds ahead of it to `after` seconds past it, cut to the video.
 * The centre frame is always inside, so a clip is never empty, even at the video's ends or with a zero span.
 */
export function clipAround(centre: number, span: ClipSpan, fps: number, frameCount: number): FrameRange {
  const c = clampFrame(centre, frameCount);
  const start = Math.max(0, c - Math.round(Math.max(0, span.before) * fps));
  const end = Math.min(frameCount, c + Math.round(Math.max(0, span.after) * fps) + 1);
  return { start, end };
}

/** Seconds a clip lasts at playback rate 1. */
export function clipSeconds(clip: FrameRange, fps: number): number {
  return Math.max(0, clip.end - clip.start) / fps;
}
