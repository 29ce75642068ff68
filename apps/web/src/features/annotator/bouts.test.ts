import { describe, expect, it } from 'vitest';
import {
  addWithMerge,
  applyChange,
  diffRanges,
  invertChange,
  type Range,
  rangeIndexAt,
  removeRange,
  visibleSlice,
} from './bouts';

const list: Range[] = [
  [1, 2],
  [4, 5],
  [7, 9],
];

describe('searching a track', () => {
  it('finds the bout under a time (start inclusive, end exclusive)', () => {
    expect(rangeIndexAt(list, 1)).toBe(0);
    expect(rangeIndexAt(list, 1.999)).toBe(0);
    expect(rangeIndexAt(list, 2)).toBe(-1);
    expect(rangeIndexAt(list, 8)).toBe(2);
    expect(rangeIndexAt(list, 10)).toBe(-1);
  });

  it('bounds the bouts a window shows, including ones that cross its edges', () => {
    expect(visibleSlice(list, 1.5, 4.5)).toEqual([0, 2]);
    expect(visibleSlice(list, 2, 4)).toEqual([1, 1]);
    expect(visibleSlice(list, 0, 100)).toEqual([0, 3]);
    expect(visibleSlice(list, 8, 8.5)).toEqual([2, 3]);
    expect(visibleSlice([], 0, 1)).toEqual([0, 0]);
  });

  it('finds the visible bouts among 5,000 by binary search, as a scan would', () => {
    const many: Range[] = Array.from({ length: 5000 }, (_, i) => [i * 4.3, i * 4.3 + 1.7]);
    for (const [start, end] of [
      [0, 10],
      [1000.5, 1003],
      [21000, 21600],
      [5, 5.1],
    ] as const) {
      const [from, to] = visibleSlice(many, start, end);
      const scan = many.map((r, i) => [r, i] as const).filter(([r]) => r[1] > start && r[0] < end);
      expect([from, to]).toEqual(scan.length ? [scan[0]![1], scan.at(-1)![1] + 1] : [from, from]);
    }
  });
});

describe('adding with merging', () => {
  it('inserts in order when nothing overlaps; touching bouts stay two', () => {
    expect(addWithMerge(list, [2, 3])).toEqual({
      ranges: [
        [1, 2],
        [2, 3],
        [4, 5],
        [7, 9],
      ],
      change: { remove: [], add: [[2, 3]] },
      merged: 0,
    });
  });

  it('merges every bout the new one overlaps into one', () => {
    expect(addWithMerge(list, [1.5, 7.5])).toEqual({
      ranges: [[1, 9]],
      change: {
        remove: [
          [1, 2],
          [4, 5],
          [7, 9],
        ],
        add: [[1, 9]],
      },
      merged: 3,
    });
  });
});

describe('changes', () => {
  it('undoes exactly by applying the inverse', () => {
    const { ranges, change } = addWithMerge(list, [4.5, 6]);
    expect(applyChange(list, change)).toEqual(ranges);
    expect(applyChange(ranges, invertChange(change))).toEqual(list);
  });

  it('re-applies onto a list that moved on: removes what is there, merges what is added', () => {
    const change = { remove: [[4, 5]] as Range[], add: [[3, 5]] as Range[] };
    // Someone else already deleted [4, 5] and added [2.5, 3.5].
    const theirs: Range[] = [
      [1, 2],
      [2.5, 3.5],
      [7, 9],
    ];
    expect(applyChange(theirs, change)).toEqual([
      [1, 2],
      [2.5, 5],
      [7, 9],
    ]);
  });

  it('diffs two lists into what to remove and add', () => {
    expect(
      diffRanges(list, [
        [1, 2],
        [3, 5],
        [10, 11],
      ]),
    ).toEqual({
      remove: [
        [4, 5],
        [7, 9],
      ],
      add: [
        [3, 5],
        [10, 11],
      ],
    });
    expect(diffRanges(list, list)).toEqual({ remove: [], add: [] });
  });

  it('removes only an exact bout', () => {
    expect(removeRange(list, [4, 5])).toEqual([
      [1, 2],
      [7, 9],
    ]);
    expect(removeRange(list, [4, 5.1])).toEqual(list);
  });
});
