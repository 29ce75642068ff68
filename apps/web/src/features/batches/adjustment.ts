/**
 * A per-video adjustment of a batch (ADR 035 on the server, 036 here): where a camera or an arena shifted, the
 * protocol's geometry is moved and scaled on one video, and/or parameters are overridden. The browser draws the
 * moved geometry with the server's own definition, so what is shown before Start is what the run gets:
 *
 *   p' = o + s·(p − o) + (dx, dy)
 *
 * for every point of the ROIs (their two corners, rounded to whole pixels), zones, exclusion regions and the scale
 * line, whose `px_distance` is multiplied by s. Here `o` is sent explicitly: the centre of the geometry's bounding
 * box, so scaling grows the shapes where they are.
 */
import type { Size } from '@/components/player/picture-geometry';
import { parameterRows } from '@/features/analysis-logs/run-display';
import type { ProtocolKind } from '@/features/protocols/api';

export type Point = readonly [number, number];

export interface GeometryMove {
  dx: number;
  dy: number;
  scale: number;
  /** The point scaled about, in the video's pixels. */
  origin: Point;
}

/** What the batch request carries for one video (its `overrides[video_uuid]`). */
export interface VideoAdjustment {
  geometry?: { dx: number; dy: number; scale: number; origin: [number, number] };
  parameters?: Record<string, number | null>;
}

export const IDENTITY: Omit<GeometryMove, 'origin'> = { dx: 0, dy: 0, scale: 1 };

export function movePoint(point: Point, move: GeometryMove): [number, number] {
  const [ox, oy] = move.origin;
  return [ox + move.scale * (point[0] - ox) + move.dx, oy + move.scale * (point[1] - oy) + move.dy];
}

interface Roi {
  start_s: number;
  x: number;
  y: number;
  width: number;
  height: number;
}
interface Shape {
  points: Point[];
}
interface Scale {
  px_distance: number;
  line?: [Point, Point];
}

const isRoi = (value: unknown): value is Roi =>
  typeof value === 'object' &&
  value !== null &&
  ['start_s', 'x', 'y', 'width', 'height'].every((key) => typeof (value as Record<string, unknown>)[key] === 'number');
const isShape = (value: unknown): value is Shape =>
  typeof value === 'object' && value !== null && Array.isArray((value as Shape).points);

/** The points a protocol's geometry consists of (ROI corners, polygon vertices, the scale line's ends). */
export function geometryPoints(kind: ProtocolKind, parameters: Record<string, unknown>): Point[] {
  if (kind === 'movement_detection') {
    const rois = Array.isArray(parameters.rois) ? parameters.rois.filter(isRoi) : [];
    return rois.flatMap((roi) => [[roi.x, roi.y] as const, [roi.x + roi.width, roi.y + roi.height] as const]);
  }
  if (kind === 'location_tracking') {
    const shapes = [parameters.zones, parameters.exclusions].flatMap((list) =>
      Array.isArray(list) ? list.filter(isShape) : [],
    );
    const line = (parameters.scale as Scale | null | undefined)?.line ?? [];
    return [...shapes.flatMap((shape) => shape.points), ...line];
  }
  return [];
}

/** Whether the protocol has geometry to move (an event detection never has; a protocol without ROIs or zones neither). */
export const hasGeometry = (kind: ProtocolKind, parameters: Record<string, unknown>) =>
  geometryPoints(kind, parameters).length > 0;

/** The geometry's bounding box, or the picture when it has none. */
export function geometryBounds(points: readonly Point[], picture: Size) {
  if (points.length === 0) return { left: 0, top: 0, right: picture.width, bottom: picture.height };
  const xs = points.map((point) => point[0]);
  const ys = points.map((point) => point[1]);
  return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
}

/** The centre of the geometry's bounding box: the point a batch's scaling is about. */
export function geometryCentre(points: readonly Point[], picture: Size): [number, number] {
  const box = geometryBounds(points, picture);
  return [(box.left + box.right) / 2, (box.top + box.bottom) / 2];
}

/**
 * The geometry keys of `parameters` moved, as the server computes the run's overrides (keys the protocol does
 * not have stay out): ROIs by their corners, rounded; polygons point by point; the scale line and its length.
 */
export function adjustedGeometry(
  kind: ProtocolKind,
  parameters: Record<string, unknown>,
  move: GeometryMove,
): Record<string, unknown> {
  const at = (point: Point) => movePoint(point, move);
  if (kind === 'movement_detection') {
    if (!Array.isArray(parameters.rois)) return {};
    return {
      rois: parameters.rois.filter(isRoi).map((roi) => {
        const [x1, y1] = at([roi.x, roi.y]).map(Math.round) as [number, number];
        const [x2, y2] = at([roi.x + roi.width, roi.y + roi.height]).map(Math.round) as [number, number];
        return { ...roi, x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
      }),
    };
  }
  if (kind === 'location_tracking') {
    const out: Record<string, unknown> = {};
    const polygons = (list: Shape[]) => list.map((shape) => ({ ...shape, points: shape.points.map(at) }));
    const zones = Array.isArray(parameters.zones) ? parameters.zones.filter(isShape) : [];
    const exclusions = Array.isArray(parameters.exclusions) ? parameters.exclusions.filter(isShape) : [];
    if (zones.length > 0) out.zones = polygons(zones);
    if (exclusions.length > 0) out.exclusions = polygons(exclusions);
    const scale = parameters.scale as Scale | null | undefined;
    if (scale && typeof scale.px_distance === 'number') {
      out.scale = {
        ...scale,
        px_distance: scale.px_distance * move.scale,
        ...(scale.line ? { line: scale.line.map(at) } : {}),
      };
    }
    return out;
  }
  return {};
}

/** The parameters a video's run will use: the protocol's, the geometry moved, then the overridden keys. */
export function adjustedParameters(
  kind: ProtocolKind,
  parameters: Record<string, unknown>,
  adjustment: VideoAdjustment | undefined,
): Record<string, unknown> {
  if (!adjustment) return parameters;
  const moved = adjustment.geometry ? adjustedGeometry(kind, parameters, adjustment.geometry) : {};
  return { ...parameters, ...moved, ...adjustment.parameters };
}

/**
 * The scale that brings the geometry's corner `corner` (unmoved) to `pointer`, about `origin` after a move of
 * (dx, dy): the ratio of the pointer's distance from the moved origin to the corner's from the origin. At least 0.05.
 */
export function scaleToward(corner: Point, pointer: Point, origin: Point, dx: number, dy: number): number {
  const reach = Math.hypot(corner[0] - origin[0], corner[1] - origin[1]);
  if (reach === 0) return 1;
  const distance = Math.hypot(pointer[0] - origin[0] - dx, pointer[1] - origin[1] - dy);
  return Math.max(0.05, Math.round((distance / reach) * 1000) / 1000);
}

/** An adjustment as sent, or as a batch's run reports it back. */
type AnyAdjustment = {
  geometry?: { dx: number; dy: number; scale: number; origin?: unknown } | undefined;
  parameters?: Record<string, unknown> | undefined;
};

/** Whether the adjustment changes anything (an empty one is not sent). */
export function isAdjusted(adjustment: AnyAdjustment | null | undefined): boolean {
  if (!adjustment) return false;
  const geometry = adjustment.geometry;
  const moved = geometry !== undefined && (geometry.dx !== 0 || geometry.dy !== 0 || geometry.scale !== 1);
  return moved || Object.keys(adjustment.parameters ?? {}).length > 0;
}

/** The adjustment in words, for the batch's tables: the move, then each overridden parameter as Analysis Logs names it. */
export function describeAdjustment(adjustment: AnyAdjustment | null | undefined, kind?: ProtocolKind): string {
  if (!isAdjusted(adjustment)) return '';
  const parts: string[] = [];
  const geometry = adjustment?.geometry;
  if (geometry && (geometry.dx !== 0 || geometry.dy !== 0))
    parts.push(`moved ${round(geometry.dx)}, ${round(geometry.dy)} px`);
  if (geometry && geometry.scale !== 1) parts.push(`scaled ×${round(geometry.scale)}`);
  for (const row of parameterRows(adjustment?.parameters ?? {}, kind)) parts.push(`${row.label} = ${row.value}`);
  return parts.join(' · ');
}

const round = (value: number) => String(Math.round(value * 1000) / 1000);
