/**
 * Time-based regions of interest, as pure functions over an immutable list.
 *
 * The list is sorted by `start_s`; the first ROI starts at 0 s and can be neither moved nor deleted; two ROIs
 * are at least one frame apart (the server needs strictly increasing starts). Start times sit on frame starts
 * (k / fps): the server applies an ROI from the first frame n with start_s ≤ n / fps, so a start inside a frame
 * would silently apply from the next one.
 */

import { type Point, type Size, toVideoPoint } from '@/components/player/picture-geometry';

export { containedPicture, toVideoPoint } from '@/components/player/picture-geometry';
export type { Point, Size };

/** A rectangle in video pixels (whole numbers, inside the picture). */
export interface RoiRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An ROI from `start_s` until the next one starts; `rect` null = the whole picture (nothing drawn yet). */
export interface Roi {
  start_s: number;
  rect: RoiRect | null;
}

/** The ROI as the analysis API takes it. */
export interface RoiParameter extends RoiRect {
  start_s: number;
}

const EPSILON = 1e-9;

export const initialRois = (): Roi[] => [{ start_s: 0, rect: null }];

/** The start of the frame showing at `time`. */
export function snapToFrame(time: number, fps: number): number {
  return Math.max(0, Math.floor(time * fps + 1e-6)) / fps;
}

/** Index of the ROI in force at `time`: the last one whose start is not after it. */
export function activeRoiIndex(rois: readonly Roi[], time: number): number {
  let active = 0;
  for (let i = 1; i < rois.length; i++) {
    if (rois[i]!.start_s <= time + EPSILON) active = i;
    else break;
  }
  return active;
}

/** The start of the last frame of a video lasting `duration` seconds (0 when unknown). */
function lastFrameStart(duration: number, fps: number): number {
  if (!(duration > 0)) return Number.POSITIVE_INFINITY;
  return Math.max(0, Math.ceil(duration * fps - 1e-6) - 1) / fps;
}

/**
 * Adds an ROI starting at the frame shown at `time`, with a copy of the rectangle in force there. At 0 s, or on
 * a frame where an ROI already starts, nothing is added and that ROI's index is answered.
 */
export function addRoiAt(
  rois: readonly Roi[],
  time: number,
  fps: number,
  duration: number,
): { rois: Roi[]; index: number } {
  const start = Math.min(snapToFrame(time, fps), lastFrameStart(duration, fps));
  const active = activeRoiIndex(rois, start);
  const current = rois[active]!;
  if (Math.abs(current.start_s - start) < EPSILON) return { rois: [...rois], index: active };
  const copy: Roi = { start_s: start, rect: current.rect ? { ...current.rect } : null };
  const next = [...rois.slice(0, active + 1), copy, ...rois.slice(active + 1)];
  return { rois: next, index: active + 1 };
}

/**
 * Moves ROI `index` to start at the frame at `time`, kept at least one frame after the previous ROI and one
 * before the next (or within the video for the last). The first ROI stays at 0 s.
 */
export function moveRoi(rois: readonly Roi[], index: number, time: number, fps: number, duration: number): Roi[] {
  if (index <= 0 || index >= rois.length) return [...rois];
  const frame = 1 / fps;
  const min = rois[index - 1]!.start_s + frame;
  const next = rois[index + 1];
  const max = next ? next.start_s - frame : lastFrameStart(duration, fps);
  // Frame numbers, not seconds, so the bounds land exactly on frames.
  const frameOf = (seconds: number) => Math.round(seconds * fps);
  const target = Math.min(Math.max(Math.floor(time * fps + 1e-6), frameOf(min)), frameOf(max));
  if (target < frameOf(min)) return [...rois];
  return rois.map((roi, i) => (i === index ? { ...roi, start_s: target / fps } : roi));
}

/** Removes ROI `index`; the first one stays. */
export function deleteRoi(rois: readonly Roi[], index: number): Roi[] {
  if (index <= 0 || index >= rois.length) return [...rois];
  return rois.filter((_, i) => i !== index);
}

export function setRoiRect(rois: readonly Roi[], index: number, rect: RoiRect): Roi[] {
  return rois.map((roi, i) => (i === index ? { ...roi, rect: { ...rect } } : roi));
}

/**
 * The rectangle of a mouse drag from `from` to `to` (displayed pixels, relative to the box) in video pixels:
 * clamped to the picture and widened to whole pixels. A drag shorter than `minDragPx` on either side is a click
 * (null), as is one that covers no whole pixel after clamping.
 */
export function rectFromDrag(from: Point, to: Point, box: Size, picture: Size, minDragPx = 3): RoiRect | null {
  if (Math.abs(to.x - from.x) < minDragPx || Math.abs(to.y - from.y) < minDragPx) return null;
  const a = toVideoPoint(from, box, picture);
  const b = toVideoPoint(to, box, picture);
  const x = Math.floor(Math.min(a.x, b.x));
  const y = Math.floor(Math.min(a.y, b.y));
  const right = Math.min(Math.ceil(Math.max(a.x, b.x)), picture.width);
  const bottom = Math.min(Math.ceil(Math.max(a.y, b.y)), picture.height);
  if (right - x < 1 || bottom - y < 1) return null;
  return { x, y, width: right - x, height: bottom - y };
}

/** The rectangle an ROI covers: its own, else the whole picture. */
export const roiRect = (roi: Roi, picture: Size): RoiRect =>
  roi.rect ?? { x: 0, y: 0, width: picture.width, height: picture.height };

/** The ROIs as the analysis API takes them (undrawn ones cover the whole picture). */
export function roisForRequest(rois: readonly Roi[], picture: Size): RoiParameter[] {
  return rois.map((roi) => ({ start_s: roi.start_s, ...roiRect(roi, picture) }));
}

/** ROIs back from a run's stored parameters; anything unusable gives the initial single ROI. */
export function roisFromParameters(raw: unknown): Roi[] {
  if (!Array.isArray(raw) || raw.length === 0) return initialRois();
  const rois: Roi[] = [];
  for (const item of raw) {
    const value = item as Partial<RoiParameter> | null;
    if (
      !value ||
      typeof value.start_s !== 'number' ||
      typeof value.x !== 'number' ||
      typeof value.y !== 'number' ||
      typeof value.width !== 'number' ||
      typeof value.height !== 'number'
    ) {
      return initialRois();
    }
    rois.push({ start_s: value.start_s, rect: { x: value.x, y: value.y, width: value.width, height: value.height } });
  }
  rois.sort((a, b) => a.start_s - b.start_s);
  rois[0] = { ...rois[0]!, start_s: 0 };
  return rois;
}

/** An ROI's rectangle in words, for the list under the player. */
export const describeRoiRect = (rect: RoiRect | null, picture: Size): string =>
  rect
    ? `x ${rect.x}, y ${rect.y}, ${rect.width} × ${rect.height} px`
    : `whole picture (${picture.width} × ${picture.height} px)`;
