import { describe, expect, it } from 'vitest';
import {
  clipTimeRanges,
  formatTimeRangeCsv,
  parseTimeRangeCsv,
  timeRangeProblems,
  timeRangesSchema,
} from './time-ranges.js';

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

  it('writes a CSV of times to the microsecond, without float noise, that reads back to those times', () => {
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
    });
  });

  it('reads ";"-separated files with decimal commas (European spreadsheets), with the same messages', () => {
    expect(parseTimeRangeCsv('Start;Ende\r\n0,5;1,25\r\n"2";"3,5"\r\n4;5.5\r\n,5;-0\n')).toEqual({
      ok: false,
      error: 'Row 4 must have start time less than the end time.',
    });
    expect(parseTimeRangeCsv('Start;Ende\r\n0,5;1,25\r\n"2";"3,5"\r\n4;5.5\n')).toEqual({
      ok: true,
      ranges: [
        [0.5, 1.25],
        [2, 3.5],
        [4, 5.5],
      ],
    });
    expect(errorOf('0;1\n2;x\n')).toBe('Row 2 contains non-numeric values.');
    expect(errorOf('0;1\n2;3;4\n')).toBe('Row 2 does not have exactly two values.');
    expect(errorOf('0;1\n1,2,3;4\n')).toBe('Row 2 contains non-numeric values.');
    expect(errorOf('0;2\n1,5;3\n')).toBe('Row 2: value 1.5 is not non-decreasing.');
    // A comma file keeps its comma as the separator: "0,5" is two values there.
    expect(parseTimeRangeCsv('0,5\n6,7\n')).toEqual({
      ok: true,
      ranges: [
        [0, 5],
        [6, 7],
      ],
    });
  });
});

describe('clipping ranges to the video', () => {
  it('cuts a range at the end, leaves out one after it, and names each row it changed', () => {
    expect(
      clipTimeRanges(
        [
          [0, 1],
          [4, 9.5],
          [10, 12],
        ],
        10,
      ),
    ).toEqual({
      ranges: [
        [0, 1],
        [4, 9.5],
      ],
      notices: ['Row 3 (10–12 s) starts at or after the end of the video (10 s): left out.'],
    });
    expect(clipTimeRanges([[70, 200]], 77.66588999999999)).toEqual({
      ranges: [[70, 77.66588999999999]],
      notices: ['Row 1 (70–200 s) ends after the video (77.66589 s): clipped to 70–77.66589 s.'],
    });
    expect(clipTimeRanges([[70, 200]], null)).toEqual({ ranges: [[70, 200]], notices: [] });
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
