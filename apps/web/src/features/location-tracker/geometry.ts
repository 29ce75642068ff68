/**
 * Plane geometry of the zone editor, all in video pixels (x right, y down). Shapes are polygons as the API takes
 * them (`[[x, y], …]`); the rectangle and ellipse tools only make polygons.
 */
import type { Point, Size } from '@/components/player/picture-geometry';

export type Vertex = readonly [number, number];
export type Polygon = readonly Vertex[];

/** Points the ellipse tool makes: smooth at any zoom, and few enough to edit by hand. */
export const ELLIPSE_POINTS = 32;

/** Coordinates are kept to a tenth of a pixel: finer than a click can mean, tidy in the stored parameters. */
export const roundCoordinate = (value: number) => Math.round(value * 10) / 10;

const clamp = (value: number, max: number) => Math.min(Math.max(value, 0), max);

/** A point inside the picture (edges included), rounded. */
export function clampToPicture(point: Point, picture: Size): Vertex {
  return [roundCoordinate(clamp(point.x, picture.width)), roundCoordinate(clamp(point.y, picture.height))];
}

/** The rectangle with opposite corners `a` and `b`, clockwise from its top-left corner (on screen). */
export function rectanglePolygon(a: Point, b: Point): Vertex[] {
  const left = roundCoordinate(Math.min(a.x, b.x));
  const right = roundCoordinate(Math.max(a.x, b.x));
  const top = roundCoordinate(Math.min(a.y, b.y));
  const bottom = roundCoordinate(Math.max(a.y, b.y));
  return [
    [left, top],
    [right, top],
    [right, bottom],
    [left, bottom],
  ];
}

/** The ellipse inscribed in the rectangle with opposite corners `a` and `b`, as `count` points evenly spaced in angle. */
export function ellipsePolygon(a: Point, b: Point, count = ELLIPSE_POINTS): Vertex[] {
  const cx = (a.x + b.x) / 2;
  const cy = (a.y + b.y) / 2;
  const rx = Math.abs(b.x - a.x) / 2;
  const ry = Math.abs(b.y - a.y) / 2;
  const points: Vertex[] = [];
  for (let k = 0; k < count; k++) {
    const angle = (2 * Math.PI * k) / count;
    points.push([roundCoordinate(cx + rx * Math.cos(angle)), roundCoordinate(cy + ry * Math.sin(angle))]);
  }
  return points;
}

/** Whether a rectangle or ellipse dragged from `a` to `b` is big enough to be meant (at least `min` each way). */
export const isDragShape = (a: Point, b: Point, min: number) =>
  Math.abs(b.x - a.x) >= min && Math.abs(b.y - a.y) >= min;

/** Even-odd rule; a point on an edge counts as inside (as the server's filled mask includes edges). */
export function pointInPolygon(point: Point, polygon: Polygon): boolean {
  if (polygon.length < 3) return false;
  if (distanceToOutline(point, polygon) < 1e-9) return true;
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > point.y !== yj > point.y && point.x < ((xj - xi) * (point.y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export function distanceToSegment(point: Point, a: Vertex, b: Vertex): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((point.x - a[0]) * dx + (point.y - a[1]) * dy) / length2));
  return Math.hypot(point.x - (a[0] + t * dx), point.y - (a[1] + t * dy));
}

/** Distance from a point to the closed outline of a polygon. */
export function distanceToOutline(point: Point, polygon: Polygon): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < polygon.length; i++) {
    best = Math.min(best, distanceToSegment(point, polygon[i]!, polygon[(i + 1) % polygon.length]!));
  }
  return best;
}

/** Index of the vertex nearest to `point` within `tolerance`, or null. */
export function nearestVertex(point: Point, points: readonly Vertex[], tolerance: number): number | null {
  let best: number | null = null;
  let bestDistance = tolerance;
  points.forEach(([x, y], index) => {
    const distance = Math.hypot(point.x - x, point.y - y);
    if (distance <= bestDistance) {
      best = index;
      bestDistance = distance;
    }
  });
  return best;
}

/** Whether a click at `point` hits the polygon: inside it, or within `tolerance` of its outline. */
export const hitsPolygon = (point: Point, polygon: Polygon, tolerance: number) =>
  pointInPolygon(point, polygon) || distanceToOutline(point, polygon) <= tolerance;

/** The polygon moved by (dx, dy), the move shortened so that no point leaves the picture. */
export function translatePolygon(polygon: Polygon, dx: number, dy: number, picture: Size): Vertex[] {
  if (polygon.length === 0) return [];
  const xs = polygon.map(([x]) => x);
  const ys = polygon.map(([, y]) => y);
  const moveX = Math.min(Math.max(dx, -Math.min(...xs)), picture.width - Math.max(...xs));
  const moveY = Math.min(Math.max(dy, -Math.min(...ys)), picture.height - Math.max(...ys));
  return polygon.map(([x, y]) => [roundCoordinate(x + moveX), roundCoordinate(y + moveY)]);
}

/** Shoelace area (video pixels²): a polygon of no area catches no frame. */
export function polygonArea(polygon: Polygon): number {
  let twice = 0;
  for (let i = 0; i < polygon.length; i++) {
    const [x1, y1] = polygon[i]!;
    const [x2, y2] = polygon[(i + 1) % polygon.length]!;
    twice += x1 * y2 - x2 * y1;
  }
  return Math.abs(twice) / 2;
}

/** Length of the segment a–b in video pixels. */
export const segmentLength = (a: Vertex, b: Vertex) => Math.hypot(b[0] - a[0], b[1] - a[1]);

/** Centre of a polygon's vertices (where its label goes). */
export function vertexCentre(polygon: Polygon): Point {
  const n = polygon.length || 1;
  return {
    x: polygon.reduce((sum, [x]) => sum + x, 0) / n,
    y: polygon.reduce((sum, [, y]) => sum + y, 0) / n,
  };
}
