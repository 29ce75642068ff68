// The rows' rules are tested in their package (packages/time-ranges); here the checks of the chosen file itself.
import { describe, expect, it } from 'vitest';
import { readTimeRangeCsv, type TextFile } from './time-range-csv';

const file = (name: string, text: string): TextFile => ({ name, text: async () => text });

// The messages are written out here, word for word from spec §5, rather than imported.
describe('time-range CSV file checks (spec §5)', () => {
  it('no file: CSV is empty', async () => {
    expect(await readTimeRangeCsv(null)).toEqual({ ok: false, error: 'CSV is empty' });
    expect(await readTimeRangeCsv(undefined)).toEqual({ ok: false, error: 'CSV is empty' });
  });

  it('a name not ending in .csv: File is not a CSV, whatever the content', async () => {
    expect(await readTimeRangeCsv(file('ranges.txt', '1,2\n'))).toEqual({ ok: false, error: 'File is not a CSV' });
    expect(await readTimeRangeCsv(file('ranges.csv.xlsx', '1,2\n'))).toEqual({
      ok: false,
      error: 'File is not a CSV',
    });
    expect(await readTimeRangeCsv(file('csv', '1,2\n'))).toEqual({ ok: false, error: 'File is not a CSV' });
  });

  it('accepts the extension in any case', async () => {
    expect(await readTimeRangeCsv(file('RANGES.CSV', '1,2\n'))).toEqual({
      ok: true,
      ranges: [[1, 2]],
      headerSkipped: false,
    });
  });

  it('a read failure: Error reading file. Please try again.', async () => {
    const broken: TextFile = {
      name: 'ranges.csv',
      text: () => Promise.reject(new DOMException('gone', 'NotReadableError')),
    };
    expect(await readTimeRangeCsv(broken)).toEqual({ ok: false, error: 'Error reading file. Please try again.' });
  });

  it('an empty file: Could not read the file or file is empty.', async () => {
    expect(await readTimeRangeCsv(file('ranges.csv', ''))).toEqual({
      ok: false,
      error: 'Could not read the file or file is empty.',
    });
  });

  it('reads a File without text() through FileReader', async () => {
    const blob = new Blob(['start,end\n0,1.5\n']) as Blob & { name: string; text: undefined };
    Object.assign(blob, { name: 'bypass.csv', text: undefined });
    expect(await readTimeRangeCsv(blob as unknown as TextFile)).toEqual({
      ok: true,
      ranges: [[0, 1.5]],
      headerSkipped: true,
    });
  });

  it('reads a valid file end to end', async () => {
    expect(await readTimeRangeCsv(file('bypass.csv', 'start,end\n0,1.5\n2,2.5\n'))).toEqual({
      ok: true,
      ranges: [
        [0, 1.5],
        [2, 2.5],
      ],
      headerSkipped: true,
    });
  });
});
