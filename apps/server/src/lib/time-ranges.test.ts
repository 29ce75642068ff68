import { describe, expect, it } from 'vitest';
import { formatTimeRangeCsv, parseTimeRangeCsv, timeRangeProblems, timeRangesSchema } from './time-ranges.js';

const errorOf = (text: string) => {
  const result = parseTimeRangeCsv(text);
  return result.ok ? null : result.error;
};

describe('time-range CSV (spec §5)', () => {
  it('reads rows of two numbers, skipping a header of two values with one not numeric', () => {
    expect(parseTimeRangeCsv('start,end\r\n0,1.5\r\n\r\n2,3\n')).toEqual({
      ok: true,
      ranges: [
        [0, 1.5],
        [2, 3],
      ],
    });
    expect(parseTimeRangeCsv('"0", "1"\n1,2')).toEqual({
      ok: true,
      ranges: [
        [0, 1],
        [1, 2],
      ],
    });
  });

  it("gives the spec's message for each broken rule, naming the data row", () => {
    expect(errorOf('')).toBe('Could not read the file or file is empty.');
    expect(errorOf('  \n ')).toBe('Could not read the file or file is empty.');
    expect(errorOf('a\u0000b')).toBe('Could not read the file or file is empty.');
    expect(errorOf('start,end\n')).toBe('CSV has no data rows.');
    expect(errorOf('start,end\n0,1\n2,3,4\n')).toBe('Row 2 does not have exactly two values.');
    expect(errorOf('0,1\n2,x\n')).toBe('Row 2 contains non-numeric values.');
    expect(errorOf('0,1\n0x10,20\n')).toBe('Row 2 contains non-numeric values.');
    expect(errorOf('0,1\n3,3\n')).toBe('Row 2 must have start time less than the end time.');
    expect(errorOf('0,2\n1.5,3\n')).toBe('Row 2: value 1.5 is not non-decreasing.');
  });

  it('writes a CSV that reads back to exactly the same numbers', () => {
    const ranges: [number, number][] = [
      [1 / 30, 2 / 30],
      [0.1 + 0.2, 1234.5678901234],
      [1e4, 21599.966666666667],
    ];
    expect(parseTimeRangeCsv(formatTimeRangeCsv(ranges))).toEqual({ ok: true, ranges });
  });
});

describe('time-range lists', () => {
  it('names every bad row, and the end of the video when it is known', () => {
    expect(
      timeRangeProblems(
        [
          [-1, 1],
          [2, 2],
          [3, 5],
          [4, 6],
          [7, 11],
        ],
        10,
      ),
    ).toEqual([
      'Row 1: times cannot be negative.',
      'Row 2 must have start time less than the end time.',
      'Row 4: value 4 is not non-decreasing.',
      'Row 5: value 11 is after the end of the video (10 s).',
    ]);
    expect(
      timeRangeProblems([
        [0, 1],
        [1, 2],
      ]),
    ).toEqual([]);
  });

  it('the JSON schema refuses what is not a list of number pairs', () => {
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
});
