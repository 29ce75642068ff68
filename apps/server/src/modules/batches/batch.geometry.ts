/**
 * A per-video geometry adjustment (ADR 035): where a camera or an arena shifted, the protocol's geometry is moved
 * and scaled on that video. Every point p of the ROIs, zones, exclusion regions and the scale line becomes
 *
 *   p' = o + s·(p − o) + (dx, dy),   o = `origin`, or the centre of the video's picture (width / 2, height / 2)
 *
 * and the scale's `px_distance` is multiplied by s (the arena's known length spans s times as many pixels). An ROI
 * is a rectangle of whole pixels: its two corners are transformed and rounded (x = round(x1'), width =
 * round(x2') − x). Nothing else changes (lengths such as `jump_px` or `window_size` are parameters to override).
 * The result is expressed as overrides of the geometry keys, so the run checks it with its own parser, which
 * refuses geometry that leaves the picture.
 */
import type { ProtocolKind } from '../../db/schema.js';
import type { GeometryAdjustment } from './batch.schemas.js';

type Point = [number, number];

interface Roi {
  start_s: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The transform of one point. */
export function movePoint(point: readonly [number, number], adjustment: GeometryAdjustment, centre: Point): Point {
  const [ox, oy] = adjustment.origin ?? centre;
  return [
    ox + adjustment.scale * (point[0] - ox) + adjustment.dx,
    oy + adjustment.scale * (point[1] - oy) + adjustment.dy,
  ];
}

/**
 * The geometry keys of `parameters` (a protocol version's, defaults filled in) moved by the adjustment, as
 * overrides; keys the protocol does not have stay out. `picture` is the video's size.
 */
export function adjustedGeometry(
  kind: ProtocolKind,
  parameters: Record<string, unknown>,
  adjustment: GeometryAdjustment,
  picture: { width: number; height: number },
): Record<string, unknown> {
  const centre: Point = [picture.width / 2, picture.height / 2];
  const move = (point: readonly [number, number]) => movePoint(point, adjustment, centre);
  if (kind === 'movement_detection') {
    const rois = parameters.rois as Roi[] | undefined;
    if (!rois) return {};
    return {
      rois: rois.map((roi) => {
        const [x1, y1] = move([roi.x, roi.y]).map(Math.round) as Point;
        const [x2, y2] = move([roi.x + roi.width, roi.y + roi.height]).map(Math.round) as Point;
        return { ...roi, x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
      }),
    };
  }
  if (kind === 'location_tracking') {
    const out: Record<string, unknown> = {};
    const polygons = (list: unknown) =>
      (list as { points: [number, number][] }[]).map((shape) => ({ ...shape, points: shape.points.map(move) }));
    if (Array.isArray(parameters.zones) && parameters.zones.length > 0) out.zones = polygons(parameters.zones);
    if (Array.isArray(parameters.exclusions) && parameters.exclusions.length > 0) {
      out.exclusions = polygons(parameters.exclusions);
    }
    const scale = parameters.scale as { px_distance: number; line?: [Point, Point] } | null | undefined;
    if (scale) {
      out.scale = {
        ...scale,
        px_distance: scale.px_distance * adjustment.scale,
        ...(scale.line ? { line: scale.line.map(move) } : {}),
      };
    }
    return out;
  }
  return {};
}
