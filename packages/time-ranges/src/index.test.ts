import { describe, expect, it } from 'vitest';
import { clipTimeRanges, parseTimeRangeCsv, timeRangeProblems } from './index.js';

const errorOf = (text: string) => {
  const result = parseTimeRangeCsv(text);
  return result.ok ? null : result.error;
};

// The messages are written out here, word for word from spec §5, rather than imported.
describe('time-range CSV content (spec §5)', () => {
  it('empty, blank or binary content: Could not read the file or file is empty.', () => {
    const message = 'Could not read the file or file is empty.';
    expect(errorOf('')).toBe(message);
    expect(errorOf('   \n\r\n  \n')).toBe(message);
    expect(errorOf('\uFEFF')).toBe(message);
    expect(errorOf('PK\u0003\u0004\u0000\u0000binary')).toBe(message);
  });

  it('a header and nothing else: CSV has no data rows.', () => {
    expect(errorOf('start,end\n')).toBe('CSV has no data rows.');
    expect(errorOf('start,end\n\n   \n')).toBe('CSV has no data rows.');
  });

  it('reads rows of two numbers, skipping a header and blank lines', () => {
    expect(parseTimeRangeCsv('start,end\r\n0,1.5\r\n\r\n2,3\n')).toEqual({
      ok: true,
      ranges: [
        [0, 1.5],
        [2, 3],
      ],
      headerSkipped: true,
    });
    expect(parseTimeRangeCsv('"0", "1"\n1,2')).toEqual({
      ok: true,
      ranges: [
        [0, 1],
        [1, 2],
      ],
      headerSkipped: false,
    });
  });
});

describe('time-range CSV header detection', () => {
  it('skips a first row of two values when both are non-numeric', () => {
    expect(parseTimeRangeCsv('start,end\n1,2\n')).toEqual({ ok: true, ranges: [[1, 2]], headerSkipped: true });
  });

  it('skips a first row of two values when only one is non-numeric', () => {
    expect(parseTimeRangeCsv('start_s,5\n1,2\n')).toEqual({ ok: true, ranges: [[1, 2]], headerSkipped: true });
    expect(parseTimeRangeCsv('0,end\n1,2\n')).toEqual({ ok: true, ranges: [[1, 2]], headerSkipped: true });
  });

  it('keeps a numeric first row as data', () => {
    expect(parseTimeRangeCsv('0,1\n2,3\n')).toEqual({
      ok: true,
      ranges: [
        [0, 1],
        [2, 3],
      ],
      headerSkipped: false,
    });
  });

  it('does not skip a non-numeric first row that has other than two values', () => {
    expect(errorOf('start,end,label\n1,2\n')).toBe('Row 1 does not have exactly two values.');
    expect(errorOf('ranges\n1,2\n')).toBe('Row 1 does not have exactly two values.');
  });

  it('skips only the first row: a second text row is data', () => {
    expect(errorOf('start,end\nfrom,to\n1,2\n')).toBe('Row 1 contains non-numeric values.');
  });
});

describe('time-range CSV rows', () => {
  it('parses rows with blanks, quotes, CRLF, a BOM, signs, decimals and exponents', () => {
    expect(parseTimeRangeCsv('\uFEFF"start","end"\r\n 0.5 , "1.25"\r\n\r\n+2,3e0\r\n.5e1,6.\r\n')).toEqual({
      ok: true,
      ranges: [
        [0.5, 1.25],
        [2, 3],
        [5, 6],
      ],
      headerSkipped: true,
    });
  });

  it('a row of one or three values: Row N does not have exactly two values.', () => {
    expect(errorOf('0,1\n2\n')).toBe('Row 2 does not have exactly two values.');
    expect(errorOf('0,1\n2,3,4\n')).toBe('Row 2 does not have exactly two values.');
    expect(errorOf('start,end\n0,1\n2,3,4\n')).toBe('Row 2 does not have exactly two values.');
    // A trailing comma is a third (empty) value.
    expect(errorOf('0,1,\n')).toBe('Row 1 does not have exactly two values.');
  });

  it('a value that is not a plain number: Row N contains non-numeric values.', () => {
    for (const bad of ['2,x', 'x,3', '2,', ',3', '0x1,3', '0x10,20', '2,Infinity', '2,NaN', '1 2,3', '2,3s']) {
      expect(errorOf(`0,1\n${bad}\n`), bad).toBe('Row 2 contains non-numeric values.');
    }
  });

  it('start not less than end: Row N must have start time less than the end time.', () => {
    expect(errorOf('0,1\n3,3\n')).toBe('Row 2 must have start time less than the end time.');
    expect(errorOf('0,1\n4,3\n')).toBe('Row 2 must have start time less than the end time.');
  });

  it('a start before the previous end: Row N: value X is not non-decreasing.', () => {
    expect(errorOf('0,2\n1.5,3\n')).toBe('Row 2: value 1.5 is not non-decreasing.');
    expect(errorOf('0,1\n2,5\n4,6\n')).toBe('Row 3: value 4 is not non-decreasing.');
  });

  it('allows a range to start exactly where the previous one ended', () => {
    expect(parseTimeRangeCsv('0,1\n1,2\n')).toEqual({
      ok: true,
      ranges: [
        [0, 1],
        [1, 2],
      ],
      headerSkipped: false,
    });
  });

  it('counts data rows: a skipped header and blank lines do not shift N', () => {
    expect(errorOf('start,end\n0,1\n\n5,4\n')).toBe('Row 2 must have start time less than the end time.');
    expect(errorOf('\n\n0,1\n2,x\n')).toBe('Row 2 contains non-numeric values.');
  });

  it('reports the first broken row only, checking count before numbers before order', () => {
    expect(errorOf('0,1\n1,x,3\n')).toBe('Row 2 does not have exactly two values.');
    expect(errorOf('0,1\n9,x\n')).toBe('Row 2 contains non-numeric values.');
    expect(errorOf('0,5\n3,2\n')).toBe('Row 2 must have start time less than the end time.');
    expect(errorOf('0,5\n3,4\n2,x\n')).toBe('Row 2: value 3 is not non-decreasing.');
  });
});

describe('";"-separated files (European spreadsheets)', () => {
  it('reads decimal commas, with the same messages', () => {
    expect(parseTimeRangeCsv('Start;Ende\r\n0,5;1,25\r\n"2";"3,5"\r\n4;5.5\n')).toEqual({
      ok: true,
      ranges: [
        [0.5, 1.25],
        [2, 3.5],
        [4, 5.5],
      ],
      headerSkipped: true,
    });
    expect(parseTimeRangeCsv('Start;Ende\r\n0,5;1,25\r\n"2";"3,5"\r\n4;5.5\r\n,5;-0\n')).toEqual({
      ok: false,
      error: 'Row 4 must have start time less than the end time.',
    });
    expect(errorOf('0;1\n2;x\n')).toBe('Row 2 contains non-numeric values.');
    expect(errorOf('0;1\n2;3;4\n')).toBe('Row 2 does not have exactly two values.');
    expect(errorOf('0;1\n1,2,3;4\n')).toBe('Row 2 contains non-numeric values.');
    expect(errorOf('0;2\n1,5;3\n')).toBe('Row 2: value 1.5 is not non-decreasing.');
  });

  it('a comma file keeps its comma as the separator: "0,5" is two values there', () => {
    expect(parseTimeRangeCsv('0,5\n6,7\n')).toEqual({
      ok: true,
      ranges: [
        [0, 5],
        [6, 7],
      ],
      headerSkipped: false,
    });
  });
});

describe('clipping ranges to the video', () => {
  it('cuts a range at the end, leaves out one after it, and names each row it changed', () => {
    expect(
      clipTimeRanges(
        [
          [4, 9],
          [12, 15],
        ],
        5,
      ),
    ).toEqual({
      ranges: [[4, 5]],
      notices: [
        'Row 1 (4–9 s) ends after the video (5 s): clipped to 4–5 s.',
        'Row 2 (12–15 s) starts at or after the end of the video (5 s): left out.',
      ],
    });
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
  });

  it('writes the times in its notices to the microsecond, without float noise', () => {
    expect(clipTimeRanges([[70, 200]], 77.66588999999999)).toEqual({
      ranges: [[70, 77.66588999999999]],
      notices: ['Row 1 (70–200 s) ends after the video (77.66589 s): clipped to 70–77.66589 s.'],
    });
    expect(clipTimeRanges([[0.1 + 0.2, 2]], 1 / 3).notices).toEqual([
      'Row 1 (0.3–2 s) ends after the video (0.333333 s): clipped to 0.3–0.333333 s.',
    ]);
  });

  it('leaves the ranges as they are when the length of the video is unknown', () => {
    expect(clipTimeRanges([[70, 200]], null)).toEqual({ ranges: [[70, 200]], notices: [] });
    expect(clipTimeRanges([[4, 9]], undefined)).toEqual({ ranges: [[4, 9]], notices: [] });
    expect(clipTimeRanges([[4, 9]], 0)).toEqual({ ranges: [[4, 9]], notices: [] });
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
});
