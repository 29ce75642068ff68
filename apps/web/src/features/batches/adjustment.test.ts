import { describe, expect, it } from 'vitest';
import {
  adjustedGeometry,
  adjustedParameters,
  describeAdjustment,
  geometryCentre,
  geometryPoints,
  hasGeometry,
  isAdjusted,
  movePoint,
  scaleToward,
} from './adjustment';

const picture = { width: 640, height: 480 };

describe('the per-video geometry adjustment', () => {
  it('moves a point by p′ = o + s·(p − o) + d, worked by hand', () => {
    // o = (100, 50), s = 2, d = (10, −5): (130, 70) → 100 + 2·30 + 10 = 170, 50 + 2·20 − 5 = 85.
    expect(movePoint([130, 70], { dx: 10, dy: -5, scale: 2, origin: [100, 50] })).toEqual([170, 85]);
    // The origin itself only moves by d.
    expect(movePoint([100, 50], { dx: 10, dy: -5, scale: 2, origin: [100, 50] })).toEqual([110, 45]);
  });

  it('moves ROIs by their corners and rounds them to whole pixels, keeping their start', () => {
    const parameters = { rois: [{ start_s: 0, x: 10, y: 20, width: 100, height: 50 }], threshold: 20 };
    // o = (60, 45) (the box's centre), s = 1.5, d = (3.2, 0): corners (10, 20) → (−15 + 3.2, 7.5) → (−12, 8)
    // after rounding; (110, 70) → (135 + 3.2, 82.5) → (138, 83).
    const moved = adjustedGeometry('movement_detection', parameters, { dx: 3.2, dy: 0, scale: 1.5, origin: [60, 45] });
    expect(moved).toEqual({ rois: [{ start_s: 0, x: -12, y: 8, width: 150, height: 75 }] });
  });

  it('moves zones, exclusions and the scale line, and multiplies the scale’s pixel length', () => {
    const parameters = {
      zones: [
        {
          name: 'Centre',
          points: [
            [100, 100],
            [200, 100],
            [200, 200],
          ],
        },
      ],
      exclusions: [],
      scale: {
        px_distance: 300,
        true_distance: 40,
        unit: 'cm',
        line: [
          [0, 0],
          [300, 0],
        ],
      },
    };
    const moved = adjustedGeometry('location_tracking', parameters, { dx: 5, dy: 10, scale: 0.5, origin: [0, 0] });
    expect(moved).toEqual({
      zones: [
        {
          name: 'Centre',
          points: [
            [55, 60],
            [105, 60],
            [105, 110],
          ],
        },
      ],
      scale: {
        px_distance: 150,
        true_distance: 40,
        unit: 'cm',
        line: [
          [5, 10],
          [155, 10],
        ],
      },
    });
  });

  it('an event-detection protocol has no geometry', () => {
    expect(hasGeometry('event_detection', { event_threshold_k: 3 })).toBe(false);
    expect(adjustedGeometry('event_detection', {}, { dx: 1, dy: 1, scale: 2, origin: [0, 0] })).toEqual({});
    expect(hasGeometry('movement_detection', { rois: [] })).toBe(false);
  });

  it('scales about the centre of the geometry’s bounding box', () => {
    const points = geometryPoints('movement_detection', {
      rois: [
        { start_s: 0, x: 10, y: 20, width: 100, height: 50 },
        { start_s: 5, x: 300, y: 400, width: 20, height: 30 },
      ],
    });
    expect(geometryCentre(points, picture)).toEqual([165, 225]);
    expect(geometryCentre([], picture)).toEqual([320, 240]);
  });

  it('finds the scale that brings a corner to the pointer', () => {
    // Corner 50 px right of the origin; the pointer 100 px right of the moved origin: twice as big.
    expect(scaleToward([150, 100], [210, 110], [100, 100], 10, 10)).toBe(2);
    expect(scaleToward([150, 100], [100, 100], [100, 100], 0, 0)).toBe(0.05);
  });

  it('applies the move, then the overridden parameters, to the protocol’s parameters', () => {
    const parameters = { rois: [{ start_s: 0, x: 0, y: 0, width: 10, height: 10 }], threshold: 20 };
    expect(
      adjustedParameters('movement_detection', parameters, {
        geometry: { dx: 5, dy: 5, scale: 1, origin: [5, 5] },
        parameters: { threshold: 35 },
      }),
    ).toEqual({ rois: [{ start_s: 0, x: 5, y: 5, width: 10, height: 10 }], threshold: 35 });
  });

  it('tells an empty adjustment from a real one and says what it does', () => {
    expect(isAdjusted({ geometry: { dx: 0, dy: 0, scale: 1, origin: [1, 1] } })).toBe(false);
    expect(isAdjusted({ parameters: {} })).toBe(false);
    expect(isAdjusted({ parameters: { threshold: 30 } })).toBe(true);
    expect(
      describeAdjustment(
        {
          geometry: { dx: 12, dy: -4, scale: 1.25, origin: [0, 0] },
          parameters: { threshold: 30, bypass_ranges: [[0.5, 2.5]] },
        },
        'movement_detection',
      ),
    ).toBe('moved 12, -4 px · scaled ×1.25 · Bypass ranges = 0.5–2.5 s · Pixel change threshold = 30');
    // A location run's settings are named as the Location Tracker names them.
    expect(describeAdjustment({ parameters: { bin_s: 30 } }, 'location_tracking')).toBe('Bin length (s) = 30 s');
  });
});
