/**
 * Where a video picture sits inside the box that shows it (object-fit: contain, as the player and its overlays
 * fit it), and the mapping between displayed pixels and the video's own pixels. Overlays that draw in video
 * pixels (the Movement Detector's ROIs, the Location Tracker's zones) map pointer positions through it.
 */

export interface Size {
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

/** Where a `picture` shown with object-fit: contain sits inside a `box` of the displayed size. */
export function containedPicture(
  box: Size,
  picture: Size,
): { left: number; top: number; width: number; height: number } {
  const scale = Math.min(box.width / picture.width, box.height / picture.height);
  const width = picture.width * scale;
  const height = picture.height * scale;
  return { left: (box.width - width) / 2, top: (box.height - height) / 2, width, height };
}

/** A displayed point (relative to the box's top-left) in video pixels, clamped to the picture. */
export function toVideoPoint(point: Point, box: Size, picture: Size): Point {
  const shown = containedPicture(box, picture);
  const clamp = (value: number, max: number) => Math.min(Math.max(value, 0), max);
  return {
    x: clamp(((point.x - shown.left) * picture.width) / shown.width, picture.width),
    y: clamp(((point.y - shown.top) * picture.height) / shown.height, picture.height),
  };
}

/** A point in video pixels where it is displayed (relative to the box's top-left). */
export function toScreenPoint(point: Point, box: Size, picture: Size): Point {
  const shown = containedPicture(box, picture);
  return {
    x: shown.left + (point.x * shown.width) / picture.width,
    y: shown.top + (point.y * shown.height) / picture.height,
  };
}

/** Displayed pixels per video pixel (1 when the box has no size yet, as in tests). */
export function displayScale(box: Size, picture: Size): number {
  const scale = Math.min(box.width / picture.width, box.height / picture.height);
  return Number.isFinite(scale) && scale > 0 ? scale : 1;
}
