import { describe, expect, it } from 'vitest';
import { parseEventCsv, readScoringCsv } from './uploads';

const file = (name: string, text: string) => ({ name, text: async () => text });

describe('uploaded scorings', () => {
  it('read ranges when rows have two values, with the spec’s messages', async () => {
    expect(await readScoringCsv(file('b.csv', 'start,end\n1,2\n3,4.5\n'))).toEqual({
      ok: true,
      scoring: {
        fileName: 'b.csv',
        ranges: [
          [1, 2],
          [3, 4.5],
        ],
      },
    });
    expect(await readScoringCsv(file('b.csv', '1,2\n1.5,3\n'))).toEqual({
      ok: false,
      error: 'Row 2: value 1.5 is not non-decreasing.',
    });
    expect(await readScoringCsv(file('b.csv', '2,1\n'))).toEqual({
      ok: false,
      error: 'Row 1 must have start time less than the end time.',
    });
  });

  it('read event times when rows have one value (an optional header skipped)', async () => {
    expect(await readScoringCsv(file('e.csv', 'time\n0.5\n1.25\n'))).toEqual({
      ok: true,
      scoring: { fileName: 'e.csv', events: [0.5, 1.25] },
    });
    expect(parseEventCsv('1\n2,3\n')).toEqual({ ok: false, error: 'Row 2 does not have exactly one value.' });
    expect(parseEventCsv('1\nx\n')).toEqual({ ok: false, error: 'Row 2 contains non-numeric values.' });
    expect(parseEventCsv('-1\n')).toEqual({ ok: false, error: 'Row 1: an event time cannot be negative.' });
    expect(parseEventCsv('time\n')).toEqual({ ok: false, error: 'CSV has no data rows.' });
  });

  it('give the spec’s file messages', async () => {
    expect(await readScoringCsv(null)).toEqual({ ok: false, error: 'CSV is empty' });
    expect(await readScoringCsv(file('b.txt', '1,2'))).toEqual({ ok: false, error: 'File is not a CSV' });
    expect(await readScoringCsv(file('b.csv', '  \n'))).toEqual({
      ok: false,
      error: 'Could not read the file or file is empty.',
    });
    const broken = { name: 'b.csv', text: () => Promise.reject(new Error('gone')) };
    expect(await readScoringCsv(broken)).toEqual({ ok: false, error: 'Error reading file. Please try again.' });
  });
});
