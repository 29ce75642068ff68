import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTimeseriesCsv } from './timeseries-csv.js';

const NaN_ = Number.NaN;

function parsed(text: string) {
  const result = parseTimeseriesCsv(text);
  if (!result.ok) throw new Error(`expected a parse, got: ${result.error}`);
  return { values: [...result.values], times: result.times === null ? null : [...result.times] };
}

function errorOf(text: string): string {
  const result = parseTimeseriesCsv(text);
  if (result.ok) throw new Error('expected an error');
  return result.error;
}

describe('parseTimeseriesCsv: formats', () => {
  it('reads one value per line, without and with a header', () => {
    expect(parsed('1\n2.5\n-3\n')).toEqual({ values: [1, 2.5, -3], times: null });
    expect(parsed('value\n1\n2.5\n-3')).toEqual({ values: [1, 2.5, -3], times: null });
  });

  it('reads a blank line between values as a missing value, and ignores trailing blank lines', () => {
    expect(parsed('value\n1\n\n3\n\n  \n')).toEqual({ values: [1, NaN_, 3], times: null });
    expect(parsed('1\r\n\r\n2\r\n\r\n\r\n')).toEqual({ values: [1, NaN_, 2], times: null });
  });

  it('reads time,value rows with a header', () => {
    expect(parsed('time,value\n0,1\n0.5,2\n1.25,\n')).toEqual({ values: [1, 2, NaN_], times: [0, 0.5, 1.25] });
    expect(parsed('time_s,value\r\n0,1\r\n0.04,2\r\n')).toEqual({ values: [1, 2], times: [0, 0.04] });
  });

  it('reads time,value rows without a header, unevenly spaced', () => {
    expect(parsed('0,1\n0.1,2\n0.35,3\n2,4')).toEqual({ values: [1, 2, 3, 4], times: [0, 0.1, 0.35, 2] });
  });

  it('accepts ; or a tab when the first line has no comma', () => {
    expect(parsed('time;value\n0;1\n0.5;2')).toEqual({ values: [1, 2], times: [0, 0.5] });
    expect(parsed('0\t1\n0.5\t2\n1\t')).toEqual({ values: [1, 2, NaN_], times: [0, 0.5, 1] });
  });

  it('takes the delimiter from the data line when a one-field header has none', () => {
    expect(parsed('value\n0;1\n0.5;2')).toEqual({ values: [1, 2], times: [0, 0.5] });
  });

  it('strips spaces and double quotes around fields', () => {
    expect(parsed('"time" , "value"\n "0" , " 1.5 "\n"1",""\n 2 ,3')).toEqual({
      values: [1.5, NaN_, 3],
      times: [0, 1, 2],
    });
  });

  it('tolerates a leading byte order mark', () => {
    expect(parsed('\uFEFFvalue\n4\n5')).toEqual({ values: [4, 5], times: null });
    expect(parsed('\uFEFF4\n5')).toEqual({ values: [4, 5], times: null });
  });

  it('reads our own export frame,time_s,value, ignoring frame and keeping empty values as missing', () => {
    const text = 'frame,time_s,value\n0,0,1.5\n1,0.033,\n2,0.067,2\n';
    expect(parsed(text)).toEqual({ values: [1.5, NaN_, 2], times: [0, 0.033, 0.067] });
    expect(parsed(' Frame ; TIME_S ; Value \r\n0;0;1\r\n1;0.5;2\r\n')).toEqual({ values: [1, 2], times: [0, 0.5] });
  });

  it('skips leading blank lines but keeps counting them in row numbers', () => {
    expect(parsed('\n\nvalue\n1')).toEqual({ values: [1], times: null });
    expect(errorOf('\n\nvalue\n1\nabc')).toBe('Row 5 contains non-numeric values.');
  });
});

describe('parseTimeseriesCsv: errors', () => {
  it.each([
    ['', 'CSV has no data rows.'],
    ['\n \r\n\n', 'CSV has no data rows.'],
    ['\uFEFF', 'CSV has no data rows.'],
    ['value', 'CSV has no data rows.'],
    ['time,value\n\n', 'CSV has no data rows.'],
    ['frame,time_s,value\n', 'CSV has no data rows.'],
    ['0,1\n0.1\n', 'Row 2 does not have the same number of values as the first row.'],
    ['time,value\n0,1\n0.1,2,3', 'Row 3 does not have the same number of values as the first row.'],
    ['1\n2\n3,4', 'Row 3 does not have the same number of values as the first row.'],
    ['time,value\n0,1\n\n1,2', 'Row 3 does not have the same number of values as the first row.'],
    ['frame,time_s,value\n0,1', 'Row 2 does not have the same number of values as the first row.'],
    ['1,2,3\n4,5,6', 'Row 1 has more than two values; expected one value per frame, or time,value.'],
    ['a,b,c\n1,2,3', 'Row 2 has more than two values; expected one value per frame, or time,value.'],
    ['time,value\n0,1\nx,2', 'Row 3 contains non-numeric values.'],
    ['time,value\n0,1\n1,two', 'Row 3 contains non-numeric values.'],
    ['time,value\n0,1\n,2', 'Row 3 contains non-numeric values.'],
    ['1\n2\nInfinity', 'Row 3 contains non-numeric values.'],
    ['0,1\n0.5,2\n0.50,3', 'Row 3: time 0.50 is not after the previous time.'],
    ['0,1\n0.5,2\n0.4,3', 'Row 3: time 0.4 is not after the previous time.'],
    ['time,value\n-0.5,1', 'Row 2: time -0.5 is negative.'],
    ['time,value\n0,\n1,\n', 'The time series has no values.'],
  ])('%j → %s', (text, error) => {
    expect(errorOf(text)).toBe(error);
  });

  it('reports the first error in the file', () => {
    // Row 2 has a non-numeric value before row 3 goes back in time.
    expect(errorOf('0,1\n1,x\n0.5,2')).toBe('Row 2 contains non-numeric values.');
    expect(errorOf('0,1\n0.5,2\n0.2,3\n1,x')).toBe('Row 3: time 0.2 is not after the previous time.');
  });

  it('quotes the time as written, unquoted and trimmed', () => {
    expect(errorOf('time,value\n1e0,1\n " 1.000 " ,2')).toBe('Row 3: time 1.000 is not after the previous time.');
  });
});

/** Finite doubles that String() prints and Number() reads back exactly (-0 prints as 0, so it is excluded). */
const exactDouble = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Object.is(value, -0));
const maybeValue = fc.option(exactDouble, { nil: NaN_, freq: 5 });
const lineEnding = fc.constantFrom('\n', '\r\n');
const format = (value: number) => (Number.isNaN(value) ? '' : String(value));

describe('parseTimeseriesCsv: round trips', () => {
  it('reads back one-column CSVs with or without a header', () => {
    fc.assert(
      fc.property(
        fc.array(maybeValue, { minLength: 1, maxLength: 200, size: 'medium' }),
        exactDouble,
        fc.boolean(),
        lineEnding,
        fc.boolean(),
        (middle, last, withHeader, eol, trailingNewline) => {
          // Blank lines at either end are not rows, so a one-column file cannot start (without header) or end
          // with a missing value: pin the ends to numbers.
          const values = withHeader ? [...middle, last] : [last, ...middle, last];
          const text = (withHeader ? `value${eol}` : '') + values.map(format).join(eol) + (trailingNewline ? eol : '');
          expect(parsed(text)).toEqual({ values, times: null });
        },
      ),
    );
  });

  it('reads back time,value CSVs with any header, delimiter and line ending', () => {
    const rows = fc
      .tuple(
        fc.double({ min: 0, max: 1000, noNaN: true }).filter((start) => !Object.is(start, -0)),
        fc.array(fc.tuple(fc.double({ min: 1e-6, max: 100, noNaN: true }), maybeValue), {
          minLength: 1,
          maxLength: 200,
          size: 'medium',
        }),
      )
      .map(([start, steps]) => {
        let time = start;
        return steps.map(([step, value]) => {
          const row = { time, value };
          time += step;
          return row;
        });
      })
      .filter((list) => list.some((row) => !Number.isNaN(row.value)));
    fc.assert(
      fc.property(
        rows,
        fc.constantFrom('', 'time,value', 'time_s,value', 'frame,time_s,value'),
        fc.constantFrom(',', ';', '\t'),
        lineEnding,
        (list, header, delimiter, eol) => {
          const withFrame = header.startsWith('frame');
          const lines = list.map(({ time, value }, index) =>
            [...(withFrame ? [String(index)] : []), String(time), format(value)].join(delimiter),
          );
          if (header !== '') lines.unshift(header.replaceAll(',', delimiter));
          expect(parsed(lines.join(eol) + eol)).toEqual({
            values: list.map((row) => row.value),
            times: list.map((row) => row.time),
          });
        },
      ),
    );
  });

  it('never throws, and any accepted series is well formed', () => {
    const text = fc.string({ unit: fc.constantFrom(...'0123456789.,;\t\n\r -e"aIf\uFEFF'.split('')), maxLength: 80 });
    fc.assert(
      fc.property(fc.oneof(text, fc.string()), (input) => {
        const result = parseTimeseriesCsv(input);
        if (!result.ok) {
          expect(result.error).toMatch(/^(CSV|Row \d+|The time series)/);
          return;
        }
        expect(result.values.length).toBeGreaterThan(0);
        expect([...result.values].some((value) => !Number.isNaN(value))).toBe(true);
        expect([...result.values].every((value) => Number.isNaN(value) || Number.isFinite(value))).toBe(true);
        if (result.times !== null) {
          expect(result.times.length).toBe(result.values.length);
          result.times.forEach((time, index) => {
            expect(time).toBeGreaterThanOrEqual(0);
            if (index > 0) expect(time).toBeGreaterThan(result.times![index - 1]!);
          });
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('parseTimeseriesCsv: size', () => {
  it('reads a million one-column lines', () => {
    const count = 1_000_000;
    const lines = new Array<string>(count + 1);
    lines[0] = 'value';
    for (let i = 0; i < count; i++) lines[i + 1] = i % 100 === 99 ? '' : String((i % 7) * 0.25);
    const result = parseTimeseriesCsv(`${lines.join('\n')}\n`);
    if (!result.ok) throw new Error(result.error);
    // The last line (i = 999 999) is blank but trailing, so it is not a row.
    expect(result.values.length).toBe(count - 1);
    expect(result.values[6]).toBe(1.5);
    expect(result.values[99]).toBeNaN();
    expect(result.values[count - 2]).toBe(((count - 2) % 7) * 0.25);
    expect(result.times).toBeNull();
  });
});
