/**
 * Polygon masks as ezTrack makes them: against OpenCV's own fillPoly (opencv.js 4.12, the dev dependency the
 * movement tests use), against a simple independent rule (every pixel whose integer point lies inside or on the
 * truncated polygon is set, and nothing farther than a pixel from it), and a few pixels checked by hand.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Cv, loadOpenCv } from '../opencv.reference.js';
import { fillPolygon, maskContains, polygonsMask } from './polygon-mask.js';
import type { Polygon } from './tracker.js';

let cv: Cv;

beforeAll(async () => {
  ({ cv } = await loadOpenCv());
}, 60_000);

/** `cv2.fillPoly(mask, pts=[xy], color=1)` with ezTrack's `xy.astype('uint64')` (→ int32 in the binding). */
function openCvFill(polygon: Polygon, width: number, height: number): Uint8Array {
  const mask = cv.Mat.zeros(height, width, cv.CV_8UC1);
  const points = cv.matFromArray(
    polygon.length,
    1,
    cv.CV_32SC2,
    polygon.flatMap(([x, y]) => [Math.trunc(x), Math.trunc(y)]),
  );
  const contours = new cv.MatVector();
  contours.push_back(points);
  cv.fillPoly(mask, contours, new cv.Scalar(1));
  const out = Uint8Array.from(mask.data);
  mask.delete();
  points.delete();
  contours.delete();
  return out;
}

function ours(polygon: Polygon, width: number, height: number): Uint8Array {
  const mask = new Uint8Array(width * height);
  fillPolygon(mask, width, height, polygon);
  return mask;
}

/** Inside or on the boundary of the polygon (even–odd crossings, plus a distance-0 test for the edges). */
function insideOrOn(px: number, py: number, polygon: readonly (readonly [number, number])[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i] as readonly [number, number];
    const [xj, yj] = polygon[j] as readonly [number, number];
    const cross = (xj - xi) * (py - yi) - (yj - yi) * (px - xi);
    const within = Math.min(xi, xj) <= px && px <= Math.max(xi, xj) && Math.min(yi, yj) <= py && py <= Math.max(yi, yj);
    if (cross === 0 && within) return true;
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Distance from a point to the polygon's boundary. */
function distanceToEdges(px: number, py: number, polygon: readonly (readonly [number, number])[]): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [x1, y1] = polygon[j] as readonly [number, number];
    const [x2, y2] = polygon[i] as readonly [number, number];
    const lengthSquared = (x2 - x1) ** 2 + (y2 - y1) ** 2;
    const t =
      lengthSquared === 0
        ? 0
        : Math.max(0, Math.min(1, ((px - x1) * (x2 - x1) + (py - y1) * (y2 - y1)) / lengthSquared));
    best = Math.min(best, Math.hypot(px - (x1 + t * (x2 - x1)), py - (y1 + t * (y2 - y1))));
  }
  return best;
}

const point = (width: number, height: number, margin: number) =>
  fc.tuple(
    fc.double({ min: -margin, max: width + margin, noNaN: true }),
    fc.double({ min: -margin, max: height + margin, noNaN: true }),
  );

describe('fillPolygon', () => {
  it('sets exactly the pixels OpenCV fillPoly sets, vertices truncated as ezTrack passes them', () => {
    const width = 37;
    const height = 29;
    fc.assert(
      fc.property(fc.array(point(width, height, 0), { minLength: 3, maxLength: 9 }), (polygon) => {
        expect(Array.from(ours(polygon, width, height))).toEqual(Array.from(openCvFill(polygon, width, height)));
      }),
      { numRuns: 400, seed: 22 },
    );
  });

  it('matches OpenCV when vertices lie off the image (its clipped edges)', () => {
    const width = 31;
    const height = 23;
    fc.assert(
      fc.property(fc.array(point(width, height, 25), { minLength: 3, maxLength: 7 }), (polygon) => {
        expect(Array.from(ours(polygon, width, height))).toEqual(Array.from(openCvFill(polygon, width, height)));
      }),
      { numRuns: 400, seed: 23 },
    );
  });

  it('sets every integer point inside or on the truncated polygon, and nothing a pixel or more away from it', () => {
    const width = 40;
    const height = 32;
    fc.assert(
      fc.property(fc.array(point(width, height, 0), { minLength: 3, maxLength: 8 }), (polygon) => {
        const mask = ours(polygon, width, height);
        const truncated = polygon.map(([x, y]) => [Math.trunc(x), Math.trunc(y)] as const);
        for (let y = 0; y < height; y++) {
          for (let x = 0; x < width; x++) {
            const set = mask[y * width + x] === 1;
            if (insideOrOn(x, y, truncated)) expect(set).toBe(true);
            else if (set) expect(distanceToEdges(x, y, truncated)).toBeLessThan(1);
          }
        }
      }),
      { numRuns: 200, seed: 24 },
    );
  });

  it('fills a rectangle edges included and reads float points truncated, checked by hand', () => {
    // Points (2.9, 1.2) … truncate to the rectangle 2…6 × 1…4: columns 2–6 of rows 1–4 set, nothing else.
    const mask = polygonsMask(
      [
        [
          [2.9, 1.2],
          [6.99, 1.7],
          [6.5, 4.999],
          [2, 4.2],
        ],
      ],
      9,
      7,
    );
    const rows = Array.from({ length: 7 }, (_, y) => Array.from(mask.slice(y * 9, y * 9 + 9)).join(''));
    expect(rows).toEqual(['000000000', '001111100', '001111100', '001111100', '001111100', '000000000', '000000000']);
  });

  it('fills a right triangle with its hypotenuse pixels, checked by hand', () => {
    // (0,0), (4,0), (0,4): the pixels with x + y ≤ 4 — the hypotenuse passes through lattice points.
    const mask = polygonsMask(
      [
        [
          [0, 0],
          [4, 0],
          [0, 4],
        ],
      ],
      6,
      6,
    );
    const rows = Array.from({ length: 6 }, (_, y) => Array.from(mask.slice(y * 6, y * 6 + 6)).join(''));
    expect(rows).toEqual(['111110', '111100', '111000', '110000', '100000', '000000']);
  });

  it('unites several polygons (ezTrack draws every exclusion region into one mask)', () => {
    const a: Polygon = [
      [1, 1],
      [3, 1],
      [3, 2],
    ];
    const b: Polygon = [
      [5, 4],
      [7, 4],
      [7, 6],
      [5, 6],
    ];
    const both = polygonsMask([a, b], 10, 8);
    const one = polygonsMask([a], 10, 8);
    const other = polygonsMask([b], 10, 8);
    expect(Array.from(both)).toEqual(Array.from(one, (v, i) => v | (other[i] as number)));
    expect(both.reduce((sum, v) => sum + v, 0)).toBeGreaterThan(one.reduce((sum, v) => sum + v, 0));
  });
});

describe('maskContains', () => {
  const mask = polygonsMask(
    [
      [
        [2, 2],
        [5, 2],
        [5, 5],
        [2, 5],
      ],
    ],
    8,
    8,
  );

  it('reads the pixel at (int(x), int(y)): edges inside, just past them outside', () => {
    expect(maskContains(mask, 8, 8, { x: 2, y: 2 })).toBe(true);
    expect(maskContains(mask, 8, 8, { x: 5.999, y: 5.5 })).toBe(true);
    expect(maskContains(mask, 8, 8, { x: 6, y: 3 })).toBe(false);
    expect(maskContains(mask, 8, 8, { x: 1.999, y: 3 })).toBe(false);
  });

  it('puts no position, and positions off the image, outside', () => {
    expect(maskContains(mask, 8, 8, null)).toBe(false);
    expect(maskContains(mask, 8, 8, { x: -0.5, y: 3 })).toBe(false);
    expect(maskContains(mask, 8, 8, { x: 3, y: 8 })).toBe(false);
    expect(maskContains(mask, 8, 8, { x: Number.NaN, y: 3 })).toBe(false);
  });
});
