import { describe, expect, it } from 'vitest';
import { applyRangePatch, rangeFigures, snapToFrames, videoEnd } from './annotation.ranges.js';

const current: [number, number][] = [
  [1, 2],
  [4, 5],
];

describe('a partial change of a track', () => {
  it('removes exact ranges and adds new ones in order; touching ranges are fine', () => {
    expect(
      applyRangePatch(
        current,
        {
          remove: [[1, 2]],
          add: [
            [5, 6],
            [0, 1],
          ],
        },
        10,
      ),
    ).toEqual({
      ok: true,
      ranges: [
        [0, 1],
        [4, 5],
        [5, 6],
      ],
    });
  });

  it('names the rows of remove that are not ranges of the track', () => {
    expect(
      applyRangePatch(
        current,
        {
          remove: [
            [1, 2],
            [4, 5.5],
          ],
        },
        10,
      ),
    ).toEqual({
      ok: false,
      errors: { remove: ['Row 2: [4, 5.5] is not a range of this track.'] },
    });
  });

  it('refuses an added range that overlaps a kept one or another added one, or ends after the video', () => {
    expect(applyRangePatch(current, { add: [[1.5, 3]] }, 10)).toEqual({
      ok: false,
      errors: { add: ['Row 1: [1.5, 3] overlaps [1, 2].'] },
    });
    expect(applyRangePatch(current, { add: [[0.5, 1.2]] }, 10)).toEqual({
      ok: false,
      errors: { add: ['Row 1: [0.5, 1.2] overlaps [1, 2].'] },
    });
    expect(
      applyRangePatch(
        current,
        {
          add: [
            [6, 8],
            [7, 9],
          ],
        },
        10,
      ),
    ).toEqual({
      ok: false,
      errors: { add: ['Row 2: [7, 9] overlaps [6, 8].'] },
    });
    expect(applyRangePatch(current, { add: [[9, 10.5]] }, 10)).toEqual({
      ok: false,
      errors: { add: ['Row 1: value 10.5 is after the end of the video (10 s).'] },
    });
  });

  it('lets a removed range make room for its replacement (an edge moved)', () => {
    expect(applyRangePatch(current, { remove: [[4, 5]], add: [[3, 5]] }, undefined)).toEqual({
      ok: true,
      ranges: [
        [1, 2],
        [3, 5],
      ],
    });
  });
});

describe('figures and bounds', () => {
  it('counts bouts and adds their durations', () => {
    expect(rangeFigures(current)).toEqual({ rangeCount: 2, totalDurationS: 2 });
  });

  it('lets a bout end at the end of the last frame when the container says a little less', () => {
    expect(videoEnd({ durationS: 2.99, fps: 30, frameCount: 90 })).toBe(3);
    expect(videoEnd({ durationS: 3.1, fps: 30, frameCount: 90 })).toBe(3.1);
    expect(videoEnd({ durationS: null, fps: null, frameCount: null })).toBeUndefined();
  });
});

describe('times read from a file', () => {
  it('land exactly on a frame start when within a microsecond of it, and stay as written otherwise', () => {
    expect(snapToFrames([[0.233333, 1.033333]], 30)).toEqual([[7 / 30, 31 / 30]]);
    expect(snapToFrames([[2.566667, 39.966667]], 30)).toEqual([[77 / 30, 1199 / 30]]);
    // 1.5 µs off a frame is a time of its own; so is anything at an unknown frame rate.
    expect(snapToFrames([[0.2333318, 12.345679]], 30)).toEqual([[0.2333318, 12.345679]]);
    expect(snapToFrames([[0.233333, 1]], null)).toEqual([[0.233333, 1]]);
    // 29.97 fps: frame 1000 starts at 33.3666666… s, printed 33.366667.
    expect(snapToFrames([[33.366667, 33.4]], 30000 / 1001)).toEqual([[1000 / (30000 / 1001), 33.4]]);
  });
});
