/**
 * Polygons as ezTrack rasterises them (issue 22): exclusion regions and zones become masks through
 * `cv2.fillPoly(mask, pts=[xy], color)` with `xy = np.column_stack((x, y)).astype('uint64')` — each drawn point's
 * coordinates truncated toward zero (OpenCV's Python binding then casts the uint64 array to int32), the default
 * LINE_8 and shift 0. OpenCV (4.x, drawing.cpp `fillPoly` → `CollectPolyEdges` + `FillEdgeCollection`) then
 *   1. draws every edge, the closing one included, as an 8-connected Bresenham line from its left end
 *      (clipped to the image first), so the outline is always set;
 *   2. fills each row y (0 ≤ y < height) between pairs of the edges crossing it: an edge from (x₀, y₀) to
 *      (x₁, y₁), y₀ < y₁, crosses rows y₀ ≤ y < y₁ (horizontal edges none) at x = x₀ + (y − y₀)·dx in 16.16
 *      fixed point, dx = trunc(((x₁ − x₀)·2¹⁶)/(y₁ − y₀)); the crossings of a row, sorted, pair up left to right
 *      and each pair fills the pixels ⌈left⌉ … ⌊right⌋ (clipped to the row).
 * Edges with an end outside the image use the clipped line's ends for x and dx (OpenCV ≥ 4.6's "more accurate
 * PolyEdge"). ezTrack reads a zone's mask at the position's pixel (`mask[int(y), int(x)]`).
 *
 * Not copied from OpenCV: written from its documented behaviour and checked against opencv.js in the tests.
 */
import type { Point, Polygon } from './tracker.js';

const ONE = 65536; // OpenCV's XY_ONE: 16 fractional bits

/** A 0/1 mask (width × height, row-major) of the union of the polygons, each filled as ezTrack fills it. */
export function polygonsMask(polygons: readonly Polygon[], width: number, height: number): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (const polygon of polygons) fillPolygon(mask, width, height, polygon);
  return mask;
}

/**
 * Whether a position lies in a mask: the pixel at (int(x), int(y)) — Python's int() truncates toward zero, as
 * ezTrack's `ROI_Location` does — is set. No position, or one whose pixel is off the image, is outside (where
 * numpy would wrap a negative index or fail, and ezTrack fails on NaN).
 */
export function maskContains(mask: Uint8Array, width: number, height: number, point: Point | null): boolean {
  if (!point) return false;
  const column = Math.trunc(point.x);
  const row = Math.trunc(point.y);
  if (!(column >= 0 && column < width && row >= 0 && row < height)) return false;
  return mask[row * width + column] !== 0;
}

/** Sets to `value` the pixels of `mask` that `cv2.fillPoly` sets for one polygon (points truncated toward zero). */
export function fillPolygon(mask: Uint8Array, width: number, height: number, polygon: Polygon, value = 1): void {
  const count = polygon.length;
  if (count === 0 || width <= 0 || height <= 0) return;
  const xs = new Array<number>(count);
  const ys = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    const [x, y] = polygon[i] as readonly [number, number];
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new RangeError('polygon points must be finite');
    xs[i] = Math.trunc(x) | 0; // float → uint64 → int32, as the binding does; |0 also turns −0 into 0
    ys[i] = Math.trunc(y) | 0;
  }

  const edges: Edge[] = [];
  let x0 = xs[count - 1] as number;
  let y0 = ys[count - 1] as number;
  for (let i = 0; i < count; i++) {
    const x1 = xs[i] as number;
    const y1 = ys[i] as number;
    const ends = [x0, y0, x1, y1];
    drawLine(mask, width, height, x0, y0, x1, y1, value);
    if (x0 < 0 || x0 >= width || x1 < 0 || x1 >= width || y0 < 0 || y0 >= height || y1 < 0 || y1 >= height) {
      const clipped = [x0, y0, x1, y1];
      clipLine(width, height, clipped);
      if (clipped[1] !== clipped[3]) {
        ends[1] = clipped[1] as number;
        ends[3] = clipped[3] as number;
      }
      ends[0] = clipped[0] as number;
      ends[2] = clipped[2] as number;
    }
    if (y0 !== y1) {
      const [cx0, cy0, cx1, cy1] = ends as [number, number, number, number];
      const dx = Math.trunc(((cx1 - cx0) * ONE) / (cy1 - cy0));
      if (y0 < y1) edges.push({ y0, y1, x: cx0 * ONE + (y0 - cy0) * dx, dx });
      else edges.push({ y0: y1, y1: y0, x: cx1 * ONE + (y1 - cy1) * dx, dx });
    }
    x0 = x1;
    y0 = y1;
  }
  fillEdges(mask, width, height, edges, value);
}

interface Edge {
  /** First and one-past-last row the edge crosses. */
  y0: number;
  y1: number;
  /** x at row y0 and its change per row, in 16.16 fixed point. */
  x: number;
  dx: number;
}

function fillEdges(mask: Uint8Array, width: number, height: number, edges: Edge[], value: number) {
  if (edges.length < 2) return;
  let yMin = Number.POSITIVE_INFINITY;
  let yMax = Number.NEGATIVE_INFINITY;
  let xMin = Number.POSITIVE_INFINITY;
  let xMax = Number.NEGATIVE_INFINITY;
  for (const edge of edges) {
    const xEnd = edge.x + (edge.y1 - edge.y0) * edge.dx;
    yMin = Math.min(yMin, edge.y0);
    yMax = Math.max(yMax, edge.y1);
    xMin = Math.min(xMin, edge.x, xEnd);
    xMax = Math.max(xMax, edge.x, xEnd);
  }
  if (yMax < 0 || yMin >= height || xMax < 0 || xMin >= width * ONE) return;
  const crossings: number[] = [];
  for (let y = Math.max(0, yMin); y < Math.min(yMax, height); y++) {
    crossings.length = 0;
    for (const edge of edges) if (edge.y0 <= y && y < edge.y1) crossings.push(edge.x + (y - edge.y0) * edge.dx);
    crossings.sort((a, b) => a - b);
    for (let k = 0; k + 1 < crossings.length; k += 2) {
      let from = Math.floor(((crossings[k] as number) + ONE - 1) / ONE);
      let to = Math.floor((crossings[k + 1] as number) / ONE);
      if (from >= width || to < 0) continue;
      if (from < 0) from = 0;
      if (to >= width) to = width - 1;
      mask.fill(value, y * width + from, y * width + to + 1);
    }
  }
}

/** OpenCV's 8-connected line (LineIterator, left to right) from (x0, y0) to (x1, y1), clipped to the image. */
function drawLine(
  mask: Uint8Array,
  width: number,
  height: number,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  value: number,
) {
  if (x0 < 0 || x0 >= width || x1 < 0 || x1 >= width || y0 < 0 || y0 >= height || y1 < 0 || y1 >= height) {
    const ends = [x0, y0, x1, y1];
    if (!clipLine(width, height, ends)) return;
    [x0, y0, x1, y1] = ends as [number, number, number, number];
  }
  let dx = x1 - x0;
  let dy = y1 - y0;
  if (dx < 0) {
    dx = -dx;
    dy = -dy;
    x0 = x1;
    y0 = y1;
  }
  const rowStep = dy < 0 ? -1 : 1;
  dy = Math.abs(dy);
  const steep = dy > dx;
  if (steep) [dx, dy] = [dy, dx];
  // Bresenham as OpenCV runs it: always a step along the major axis, one along the minor one when err < 0.
  let err = dx - 2 * dy;
  let x = x0;
  let y = y0;
  for (let i = 0; i <= dx; i++) {
    mask[y * width + x] = value;
    const minor = err < 0;
    err += -2 * dy + (minor ? 2 * dx : 0);
    if (steep) {
      y += rowStep;
      if (minor) x += 1;
    } else {
      x += 1;
      if (minor) y += rowStep;
    }
  }
}

/**
 * OpenCV's clipLine (Cohen–Sutherland, integer ends, divisions in double truncated toward zero) on
 * [x0, y0, x1, y1] in place; true when the clipped line lies in the image.
 */
function clipLine(width: number, height: number, ends: number[]): boolean {
  const right = width - 1;
  const bottom = height - 1;
  let [x1, y1, x2, y2] = ends as [number, number, number, number];
  const code = (x: number, y: number) => (x < 0 ? 1 : 0) + (x > right ? 2 : 0) + (y < 0 ? 4 : 0) + (y > bottom ? 8 : 0);
  let c1 = code(x1, y1);
  let c2 = code(x2, y2);
  if ((c1 & c2) === 0 && (c1 | c2) !== 0) {
    if (c1 & 12) {
      const a = c1 < 8 ? 0 : bottom;
      x1 += Math.trunc(((a - y1) * (x2 - x1)) / (y2 - y1));
      y1 = a;
      c1 = (x1 < 0 ? 1 : 0) + (x1 > right ? 2 : 0);
    }
    if (c2 & 12) {
      const a = c2 < 8 ? 0 : bottom;
      x2 += Math.trunc(((a - y2) * (x2 - x1)) / (y2 - y1));
      y2 = a;
      c2 = (x2 < 0 ? 1 : 0) + (x2 > right ? 2 : 0);
    }
    if ((c1 & c2) === 0 && (c1 | c2) !== 0) {
      if (c1) {
        const a = c1 === 1 ? 0 : right;
        y1 += Math.trunc(((a - x1) * (y2 - y1)) / (x2 - x1));
        x1 = a;
        c1 = 0;
      }
      if (c2) {
        const a = c2 === 1 ? 0 : right;
        y2 += Math.trunc(((a - x2) * (y2 - y1)) / (x2 - x1));
        x2 = a;
        c2 = 0;
      }
    }
  }
  ends[0] = x1;
  ends[1] = y1;
  ends[2] = x2;
  ends[3] = y2;
  return (c1 | c2) === 0;
}
