import { describe, expect, it } from 'vitest';
import { locationParameters } from '../analysis/location.schemas.js';
import { adjustedGeometry, movePoint } from './batch.geometry.js';
import { geometryAdjustment } from './batch.schemas.js';

const picture = { width: 320, height: 240 };
const adjust = (raw: object) => geometryAdjustment.parse(raw);

describe('per-video geometry adjustment', () => {
  it("moves a point by o + s·(p − o) + (dx, dy), o being the picture's centre unless given", () => {
    expect(movePoint([100, 40], adjust({ dx: 5, dy: -3 }), [160, 120])).toEqual([105, 37]);
    // Scaling by 2 about the centre (160, 120): (100, 40) → (40, −40).
    expect(movePoint([100, 40], adjust({ scale: 2 }), [160, 120])).toEqual([40, -40]);
    expect(movePoint([100, 40], adjust({ scale: 0.5, origin: [0, 0], dx: 1 }), [160, 120])).toEqual([51, 20]);
  });

  it('rounds ROI corners to whole pixels and keeps their start times', () => {
    const rois = [
      { start_s: 0, x: 10, y: 11, width: 101, height: 51 },
      { start_s: 30, x: 0, y: 0, width: 320, height: 240 },
    ];
    const moved = adjustedGeometry('movement_detection', { rois }, adjust({ scale: 0.5, origin: [0, 0] }), picture);
    // (10, 11)–(111, 62) → (5, 5.5)–(55.5, 31) → rounded (5, 6)–(56, 31).
    expect(moved).toEqual({
      rois: [
        { start_s: 0, x: 5, y: 6, width: 51, height: 25 },
        { start_s: 30, x: 0, y: 0, width: 160, height: 120 },
      ],
    });
  });

  it("moves a location protocol's zones, exclusions and scale line, and scales px_distance with them", () => {
    const parameters = locationParameters.parse({
      zones: [
        {
          name: 'centre',
          points: [
            [100, 100],
            [200, 100],
            [200, 200],
          ],
        },
      ],
      exclusions: [
        {
          points: [
            [0, 0],
            [10, 0],
            [10, 10],
          ],
        },
      ],
      scale: {
        true_distance: 50,
        unit: 'cm',
        line: [
          [0, 10],
          [100, 10],
        ],
      },
    }) as unknown as Record<string, unknown>;
    const moved = adjustedGeometry(
      'location_tracking',
      parameters,
      adjust({ dx: 10, scale: 1.5, origin: [0, 0] }),
      picture,
    );
    expect(moved).toEqual({
      zones: [
        {
          name: 'centre',
          points: [
            [160, 150],
            [310, 150],
            [310, 300],
          ],
        },
      ],
      exclusions: [
        {
          points: [
            [10, 0],
            [25, 0],
            [25, 15],
          ],
        },
      ],
      scale: {
        px_distance: 150,
        true_distance: 50,
        unit: 'cm',
        line: [
          [10, 15],
          [160, 15],
        ],
      },
    });
    // The moved set passes the run's own schema (px_distance equals the moved line's length).
    expect(locationParameters.safeParse({ ...parameters, ...moved }).success).toBe(true);
  });

  it('leaves out what the protocol does not have, and an event-detection protocol has no geometry', () => {
    expect(
      adjustedGeometry('location_tracking', locationParameters.parse({}) as never, adjust({ dx: 3 }), picture),
    ).toEqual({});
    expect(adjustedGeometry('event_detection', {}, adjust({ dx: 3 }), picture)).toEqual({});
  });
});
