import { describe, expect, it } from 'vitest';
import { cumulativeDistance, splitTrack, trailPoints } from './track';

const series = (x: number[], y: number[]) => ({ values: new Float64Array([...x, ...y]), times: null, fps: 10 });

describe('the track', () => {
  it('splits the raw series into x then y, and refuses an odd length', () => {
    const track = splitTrack(series([1, 2, 3], [4, 5, 6]))!;
    expect([...track.x]).toEqual([1, 2, 3]);
    expect([...track.y]).toEqual([4, 5, 6]);
    expect(track.fps).toBe(10);
    expect(splitTrack({ values: new Float64Array(3), times: null, fps: 10 })).toBeNull();
  });

  it('adds the steps between frames that both have a position, restarting after a gap', () => {
    // Steps: 0→1 is 5 (3-4-5), 1→2 and 2→3 touch the lost frame (none), 3→4 is 10.
    const x = [0, 3, Number.NaN, 10, 16];
    const y = [0, 4, Number.NaN, 0, 8];
    const track = splitTrack(series(x, y))!;
    // A reference: sum of hypot over consecutive pairs with both positions present.
    const expected: number[] = [0];
    for (let f = 1; f < x.length; f++) {
      const step = Math.hypot(x[f]! - x[f - 1]!, y[f]! - y[f - 1]!);
      expected.push(expected[f - 1]! + (Number.isNaN(step) ? 0 : step));
    }
    expect([...cumulativeDistance(track).values]).toEqual(expected);
    expect([...cumulativeDistance(track).values]).toEqual([0, 5, 5, 5, 15]);
    expect([...cumulativeDistance(track, 0.5).values]).toEqual([0, 2.5, 2.5, 2.5, 7.5]);
  });

  it('gives the trail’s positions, skipping frames without one', () => {
    const track = splitTrack(series([0, 1, Number.NaN, 3], [0, 1, Number.NaN, 3]))!;
    expect(trailPoints(track, -5, 2)).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(trailPoints(track, 1, 10)).toEqual([
      [1, 1],
      [3, 3],
    ]);
  });
});
