import { describe, expect, it } from 'vitest';
import { displayScale, toScreenPoint, toVideoPoint } from '@/components/player/picture-geometry';
import {
  clampToPicture,
  distanceToOutline,
  ellipsePolygon,
  hitsPolygon,
  isDragShape,
  nearestVertex,
  pointInPolygon,
  polygonArea,
  rectanglePolygon,
  translatePolygon,
  type Vertex,
} from './geometry';

const picture = { width: 320, height: 240 };
const square: Vertex[] = [
  [10, 10],
  [30, 10],
  [30, 30],
  [10, 30],
];

describe('pixel ↔ screen mapping', () => {
  it('is one mapping both ways, bars of a contained picture included', () => {
    // 320×240 in an 800×300 box: shown at 400×300 with 200 px bars left and right.
    const box = { width: 800, height: 300 };
    expect(toScreenPoint({ x: 0, y: 0 }, box, picture)).toEqual({ x: 200, y: 0 });
    expect(toScreenPoint({ x: 320, y: 240 }, box, picture)).toEqual({ x: 600, y: 300 });
    for (const point of [
      { x: 12.5, y: 7 },
      { x: 300, y: 200 },
    ]) {
      const back = toVideoPoint(toScreenPoint(point, box, picture), box, picture);
      expect(back.x).toBeCloseTo(point.x, 9);
      expect(back.y).toBeCloseTo(point.y, 9);
    }
    expect(displayScale(box, picture)).toBe(1.25);
    expect(displayScale({ width: 0, height: 0 }, picture)).toBe(1);
  });

  it('clamps a point outside the picture to its edge', () => {
    expect(clampToPicture({ x: -4, y: 250.04 }, picture)).toEqual([0, 240]);
    expect(clampToPicture({ x: 12.345, y: 6.66 }, picture)).toEqual([12.3, 6.7]);
  });
});

describe('rectangle and ellipse helpers', () => {
  it('make a rectangle from corners given in any order', () => {
    expect(rectanglePolygon({ x: 30, y: 30 }, { x: 10, y: 10 })).toEqual(square);
  });

  it('make an ellipse of 32 points on the inscribed ellipse, its extremes on the box', () => {
    const ellipse = ellipsePolygon({ x: 100, y: 50 }, { x: 200, y: 110 });
    expect(ellipse).toHaveLength(32);
    for (const [x, y] of ellipse) {
      // (x − cx)² / rx² + (y − cy)² / ry² = 1 up to the tenth-of-a-pixel rounding.
      expect(((x - 150) / 50) ** 2 + ((y - 80) / 30) ** 2).toBeCloseTo(1, 2);
    }
    expect(ellipse[0]).toEqual([200, 80]);
    expect(ellipse[8]).toEqual([150, 110]);
    expect(ellipse[16]).toEqual([100, 80]);
    // Its area is the inscribed 32-gon's, n/2·sin(2π/n)·rx·ry, up to the rounding of its points (< 0.1 %).
    const inscribed = 16 * Math.sin((2 * Math.PI) / 32) * 50 * 30;
    expect(Math.abs(polygonArea(ellipse) - inscribed) / inscribed).toBeLessThan(1e-3);
  });

  it('take a drag smaller than the minimum for a click', () => {
    expect(isDragShape({ x: 0, y: 0 }, { x: 2, y: 40 }, 3)).toBe(false);
    expect(isDragShape({ x: 0, y: 0 }, { x: -3, y: 3 }, 3)).toBe(true);
  });
});

describe('hit tests', () => {
  it('count a point on an edge or a vertex as inside, as the server’s filled mask does', () => {
    expect(pointInPolygon({ x: 20, y: 20 }, square)).toBe(true);
    expect(pointInPolygon({ x: 30, y: 20 }, square)).toBe(true);
    expect(pointInPolygon({ x: 10, y: 10 }, square)).toBe(true);
    expect(pointInPolygon({ x: 30.01, y: 20 }, square)).toBe(false);
    expect(pointInPolygon({ x: 5, y: 5 }, square)).toBe(false);
  });

  it('follow a concave polygon’s notch', () => {
    // A "U": the notch (x 20–40, y 0–30) is outside.
    const u: Vertex[] = [
      [0, 0],
      [20, 0],
      [20, 30],
      [40, 30],
      [40, 0],
      [60, 0],
      [60, 50],
      [0, 50],
    ];
    expect(pointInPolygon({ x: 30, y: 10 }, u)).toBe(false);
    expect(pointInPolygon({ x: 10, y: 10 }, u)).toBe(true);
    expect(pointInPolygon({ x: 30, y: 40 }, u)).toBe(true);
  });

  it('hit a shape near its outline within the tolerance only', () => {
    expect(distanceToOutline({ x: 34, y: 20 }, square)).toBe(4);
    expect(hitsPolygon({ x: 34, y: 20 }, square, 5)).toBe(true);
    expect(hitsPolygon({ x: 34, y: 20 }, square, 3)).toBe(false);
  });

  it('find the nearest vertex within the tolerance', () => {
    expect(nearestVertex({ x: 29, y: 11 }, square, 3)).toBe(1);
    expect(nearestVertex({ x: 20, y: 20 }, square, 3)).toBeNull();
  });
});

describe('moving a shape', () => {
  it('moves every point, and stops at the picture’s edge', () => {
    expect(translatePolygon(square, 5, -2, picture)).toEqual([
      [15, 8],
      [35, 8],
      [35, 28],
      [15, 28],
    ]);
    // Asked 100 px left and 500 px down: only 10 left and 210 down fit.
    expect(translatePolygon(square, -100, 500, picture)).toEqual([
      [0, 220],
      [20, 220],
      [20, 240],
      [0, 240],
    ]);
  });
});
