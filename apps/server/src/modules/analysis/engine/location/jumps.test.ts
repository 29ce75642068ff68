import { describe, expect, it } from 'vitest';
import { FRAME_BODY_SHARE, findJumps, jumpThreshold } from './jumps.js';

const track = (points: ([number, number] | null)[]) => ({
  x: Float64Array.from(points, (p) => (p ? p[0] : Number.NaN)),
  y: Float64Array.from(points, (p) => (p ? p[1] : Number.NaN)),
});

describe('findJumps', () => {
  it('lists the steps longer than the threshold, by hand-checked 3-4-5 steps', () => {
    // Steps: 5 (3-4-5), 10 (6-8-10), 0, 5, 15 (9-12-15).
    const { x, y } = track([
      [0, 0],
      [3, 4],
      [9, 12],
      [9, 12],
      [12, 16],
      [21, 28],
    ]);
    expect(findJumps(x, y, 10, 5, [])).toEqual([
      { frame: 2, from_frame: 1, time_s: 0.2, distance_px: 10 },
      { frame: 5, from_frame: 4, time_s: 0.5, distance_px: 15 },
    ]);
    // Strictly more than the threshold: a step of exactly 10 is no jump.
    expect(findJumps(x, y, 10, 10, []).map((jump) => jump.frame)).toEqual([5]);
    expect(findJumps(x, y, 10, 15, [])).toEqual([]);
  });

  it('compares across frames without a position, with the last tracked frame', () => {
    const { x, y } = track([[0, 0], null, null, [30, 40], [31, 40], null, [31, 41]]);
    expect(findJumps(x, y, 10, 20, [])).toEqual([{ frame: 3, from_frame: 0, time_s: 0.3, distance_px: 50 }]);
    // The first tracked frame has nothing to jump from.
    const late = track([null, null, [100, 100], [100, 100]]);
    expect(findJumps(late.x, late.y, 10, 1, [])).toEqual([]);
  });

  it('starts again after a bypassed range: moving the animal by hand is no jump', () => {
    // fps 10: [0.2, 0.4) bypasses frames 2 and 3 (their positions are NaN, as a run stores them).
    const { x, y } = track([[0, 0], [1, 0], null, null, [60, 80], [120, 160]]);
    expect(findJumps(x, y, 10, 20, [[0.2, 0.4]])).toEqual([{ frame: 5, from_frame: 4, time_s: 0.5, distance_px: 100 }]);
    // Without the bypass, frame 4 jumped 100 px from frame 1's neighbourhood.
    expect(findJumps(x, y, 10, 20, []).map((jump) => [jump.frame, jump.from_frame])).toEqual([
      [4, 1],
      [5, 4],
    ]);
  });
});

describe('jumpThreshold', () => {
  it('takes jump_px first, then the tracker’s body length (2 √area), then a share of the picture', () => {
    expect(jumpThreshold({ jumpPx: 33, trackerArea: 400, width: 640, height: 480 })).toEqual({
      threshold_px: 33,
      basis: 'parameter',
    });
    expect(jumpThreshold({ jumpPx: null, trackerArea: 400, width: 640, height: 480 })).toEqual({
      threshold_px: 40,
      basis: 'tracker',
    });
    expect(jumpThreshold({ jumpPx: null, trackerArea: null, width: 640, height: 480 })).toEqual({
      threshold_px: 480 * FRAME_BODY_SHARE,
      basis: 'frame',
    });
    expect(jumpThreshold({ jumpPx: null, trackerArea: 0, width: 320, height: 400 }).threshold_px).toBe(64);
  });
});
