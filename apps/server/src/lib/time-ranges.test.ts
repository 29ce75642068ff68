// The rules themselves (the CSV reader, the list checks, the cut at the video's end) are tested in their package,
// packages/time-ranges; here what the server adds: the CSV writer and the JSON body schemas.
import { describe, expect, it } from 'vitest';
import { formatTimeRangeCsv, parseTimeRangeCsv, timeRangeSetSchema, timeRangesSchema } from './time-ranges.js';

describe('the time-range CSV the server writes', () => {
  it('writes times to the microsecond, without float noise, in a file that reads back to those times', () => {
    const ranges: [number, number][] = [
      [1 / 30, 2 / 30],
      [0.1 + 0.2, 1234.5678901234],
      [1e4, 21599.966666666667],
    ];
    const text = formatTimeRangeCsv(ranges);
    expect(text).toBe('start,end\r\n0.033333,0.066667\r\n0.3,1234.56789\r\n10000,21599.966667\r\n');
    expect(parseTimeRangeCsv(text)).toEqual({
      ok: true,
      ranges: [
        [0.033333, 0.066667],
        [0.3, 1234.56789],
        [10000, 21599.966667],
      ],
      headerSkipped: true,
    });
  });
});

describe('time-range lists in a JSON body', () => {
  it('the list schema refuses what is not a list of number pairs, and names each bad row', () => {
    expect(timeRangesSchema.safeParse([[0, 'a']]).success).toBe(false);
    expect(timeRangesSchema.safeParse([[0, 1, 2]]).success).toBe(false);
    const result = timeRangesSchema.safeParse([
      [0, 2],
      [1, 3],
    ]);
    expect(result.success ? null : result.error.issues.map((issue) => issue.message)).toEqual([
      'Row 2: value 1 is not non-decreasing.',
    ]);
  });

  it('the set schema checks each pair on its own, naming its place in the list', () => {
    expect(
      timeRangeSetSchema.safeParse([
        [5, 6],
        [0, 1],
      ]).success,
    ).toBe(true);
    const result = timeRangeSetSchema.safeParse([
      [0, 1],
      [3, 2],
    ]);
    expect(result.success ? null : result.error.issues.map((issue) => issue.message)).toEqual([
      'Row 2 must have start time less than the end time.',
    ]);
  });
});
