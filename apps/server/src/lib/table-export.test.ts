import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { formatExportNumber } from './export-numbers.js';
import {
  type Cell,
  columnLetters,
  csvStream,
  exportFormats,
  formatCsvField,
  sanitiseSheetName,
  type Table,
  XLSX_MAX_COLUMNS,
  xlsxStream,
} from './table-export.js';

async function collect(stream: Readable): Promise<{ buffer: Buffer; chunks: number }> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return { buffer: Buffer.concat(parts), chunks: parts.length };
}

/**
 * A strict RFC 4180 reader: records end with CRLF, quoted fields may hold anything with quotes doubled,
 * and a quote anywhere else is an error (so a writer that forgets to quote fails here).
 */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        const end = text.indexOf('"', i);
        if (end < 0) throw new Error('unterminated quoted field');
        field += text.slice(i, end);
        i = end + 1;
        if (text[i] !== '"') break;
        field += '"';
        i++;
      }
    } else {
      const match = /[,\r\n"]/.exec(text.slice(i));
      const end = match ? i + match.index : text.length;
      if (text[end] === '"') throw new Error(`quote inside an unquoted field at ${end}`);
      field = text.slice(i, end);
      i = end;
    }
    record.push(field);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
      if (i === text.length) return records;
      continue;
    }
    throw new Error(`expected a comma or CRLF at ${i}, found ${JSON.stringify(text[i])}`);
  }
}

/** What a CSV cell should read back as, straight from the rules (formula-like text gains an apostrophe). */
function expectedCsvText(value: Cell): string {
  if (value === null) return '';
  if (typeof value === 'number') return formatExportNumber(value);
  if (typeof value === 'boolean') return String(value);
  return /^[=+\-@\t\r＝＋－＠|]/.test(value) ? `'${value}` : value;
}

const csvText = async (table: Table) => (await collect(csvStream(table))).buffer.toString('utf8');

async function readXlsx(buffer: Buffer) {
  const workbook = new ExcelJS.Workbook();
  // exceljs's typings predate Buffer being generic; the bytes are what it needs.
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  return workbook;
}

const xlsxBuffer = async (tables: Table[], options?: Parameters<typeof xlsxStream>[1]) =>
  (await collect(xlsxStream(tables, options))).buffer;

/** The values of a worksheet row from column A, `null` where exceljs holds no value. */
function rowValues(sheet: ExcelJS.Worksheet, rowNumber: number, width: number): unknown[] {
  const row = sheet.getRow(rowNumber);
  return Array.from({ length: width }, (_, i) => row.getCell(i + 1).value ?? null);
}

function* numberedRows(count: number, onPull?: () => void): Generator<Cell[]> {
  for (let i = 0; i < count; i++) {
    onPull?.();
    yield [i, i * 0.5, `row ${i}`];
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Whether destroying the export stream early (a client that hangs up) releases the row source. */
async function releasesSourceOnDestroy(makeStream: (rows: Iterable<Cell[]>) => Readable): Promise<boolean> {
  let released = false;
  function* rows(): Generator<Cell[]> {
    try {
      for (let i = 0; i < 1_000_000; i++) yield [i, `row ${i}`];
    } finally {
      released = true;
    }
  }
  const stream = makeStream(rows());
  for await (const _ of stream) break;
  for (let i = 0; i < 5; i++) await tick();
  return released;
}

describe('exportFormats', () => {
  it('names the content type and extension of each format', () => {
    expect(exportFormats.csv).toEqual({ contentType: 'text/csv; charset=utf-8', extension: 'csv' });
    expect(exportFormats.xlsx).toEqual({
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      extension: 'xlsx',
    });
  });
});

describe('formatCsvField', () => {
  it.each<[Cell, string]>([
    [null, ''],
    [0, '0'],
    [-3, '-3'],
    [1.25, '1.25'],
    [-0.000001, '-0.000001'],
    [1e21, '1e+21'],
    [Number.NaN, ''],
    [Number.POSITIVE_INFINITY, ''],
    [Number.NEGATIVE_INFINITY, ''],
    [true, 'true'],
    [false, 'false'],
    ['', ''],
    ['plain text', 'plain text'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['carriage\rreturn', '"carriage\rreturn"'],
    ['=SUM(A1:A9)', "'=SUM(A1:A9)"],
    ['+1', "'+1"],
    ['-3', "'-3"],
    ['@cmd', "'@cmd"],
    ['\tindented', "'\tindented"],
    ['\rstart', `"'\rstart"`],
    ['=HYPERLINK("x","y")', `"'=HYPERLINK(""x"",""y"")"`],
    ['＝SUM(A1:A9)', "'＝SUM(A1:A9)"],
    ['＋1', "'＋1"],
    ['－3', "'－3"],
    ['＠cmd', "'＠cmd"],
    ['|calc', "'|calc"],
    ["cmd|' /C calc'!A0", "cmd|' /C calc'!A0"],
    ['a=b', 'a=b'],
    ['a＝b', 'a＝b'],
    ["'quoted'", "'quoted'"],
    ['zone ä 😀', 'zone ä 😀'],
  ])('%j → %j', (value, expected) => {
    expect(formatCsvField(value)).toBe(expected);
  });
});

describe('csvStream', () => {
  it('writes a header and rows with CRLF line ends, UTF-8 and no BOM', async () => {
    const { buffer } = await collect(
      csvStream({
        name: 'ignored',
        columns: ['frame', 'x (mm)', 'in zone'],
        rows: [
          [0, 1.5, true],
          [1, null, false],
        ],
      }),
    );
    expect(buffer.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
    expect(buffer.toString('utf8')).toBe('frame,x (mm),in zone\r\n0,1.5,true\r\n1,,false\r\n');
  });

  it('round-trips awkward strings through an RFC 4180 reader', async () => {
    const awkward = [
      'comma, inside',
      'a "quoted" word',
      '"',
      '""',
      'line\nbreak',
      'windows\r\nline',
      'lone\rcr',
      '  padded  ',
      'ünïcödé 中文 😀 e\u0301',
      '=1+1',
      '+SUM(A1)',
      '-10',
      '@SUM(A1)',
      '\tTAB',
      '\r\nCRLF first',
      ',',
      '',
    ];
    const text = await csvText({
      name: 't',
      columns: ['value', 'comma, header'],
      rows: awkward.map((s) => [s, 'x']),
    });
    const [header, ...records] = parseCsv(text);
    expect(header).toEqual(['value', 'comma, header']);
    expect(records).toEqual(awkward.map((s) => [expectedCsvText(s), 'x']));
  });

  it('keeps an all-empty single-column row as a record instead of a blank line', async () => {
    const text = await csvText({ name: 't', columns: ['note'], rows: [[null], ['']] });
    expect(text).toBe('note\r\n""\r\n""\r\n');
    expect(parseCsv(text)).toEqual([['note'], [''], ['']]);
  });

  it('writes only the header for a table without rows', async () => {
    expect(await csvText({ name: 't', columns: ['a', 'b'], rows: [] })).toBe('a,b\r\n');
  });

  it('reads rows from an async iterable', async () => {
    async function* rows(): AsyncGenerator<Cell[]> {
      for (let i = 0; i < 2500; i++) {
        if (i % 700 === 0) await tick();
        yield [i, `n${i}`];
      }
    }
    const records = parseCsv(await csvText({ name: 't', columns: ['i', 'name'], rows: rows() }));
    expect(records).toHaveLength(2501);
    expect(records[2500]).toEqual(['2499', 'n2499']);
  });

  it('formats each row when it is pulled, so a producer may reuse one array', async () => {
    function* reused(): Generator<Cell[]> {
      const row: Cell[] = [0, 0];
      for (let i = 0; i < 3000; i++) {
        row[0] = i;
        row[1] = i * 2;
        yield row;
      }
    }
    const records = parseCsv(await csvText({ name: 't', columns: ['i', 'double'], rows: reused() }));
    expect(records.slice(1).every(([i, double], index) => i === String(index) && double === String(index * 2))).toBe(
      true,
    );
  });

  it('emits many chunks rather than one for a long table', async () => {
    const { chunks } = await collect(
      csvStream({ name: 't', columns: ['i', 'half', 'label'], rows: numberedRows(20_000) }),
    );
    expect(chunks).toBeGreaterThan(10);
  });

  it('does not run ahead of a consumer that is not reading', async () => {
    let pulled = 0;
    const stream = csvStream({
      name: 't',
      columns: ['i', 'half', 'label'],
      rows: numberedRows(100_000, () => pulled++),
    });
    stream.on('readable', () => {});
    for (let i = 0; i < 50; i++) await tick();
    expect(pulled).toBeGreaterThan(0);
    expect(pulled).toBeLessThan(10_000);
    stream.removeAllListeners('readable');
    const { buffer } = await collect(stream);
    expect(pulled).toBe(100_000);
    expect(buffer.toString('utf8').endsWith('99999,49999.5,row 99999\r\n')).toBe(true);
  });

  it('releases the row source when the consumer stops early', async () => {
    expect(await releasesSourceOnDestroy((rows) => csvStream({ name: 't', columns: ['i', 'label'], rows }))).toBe(true);
  });

  it('fails the stream when the row source throws', async () => {
    function* failing(): Generator<Cell[]> {
      yield [1];
      throw new Error('cursor lost');
    }
    await expect(collect(csvStream({ name: 't', columns: ['a'], rows: failing() }))).rejects.toThrow('cursor lost');
  });

  it('property: any table of cells reads back as the expected strings', async () => {
    const awkwardChars = fc.constantFrom(
      ',',
      '"',
      '\r',
      '\n',
      '=',
      '+',
      '-',
      '@',
      '＝',
      '＋',
      '－',
      '＠',
      '|',
      '\t',
      ' ',
      "'",
      'a',
      'é',
      '😀',
      '中',
    );
    const cell: fc.Arbitrary<Cell> = fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.double(),
      fc.integer(),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: awkwardChars }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }).chain((width) =>
          fc.record({
            columns: fc.array(fc.string({ unit: awkwardChars }), { minLength: width, maxLength: width }),
            rows: fc.array(fc.array(cell, { minLength: width, maxLength: width }), { maxLength: 20 }),
          }),
        ),
        async ({ columns, rows }) => {
          const records = parseCsv(await csvText({ name: 't', columns, rows }));
          expect(records).toEqual([columns, ...rows].map((row) => row.map(expectedCsvText)));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('columnLetters', () => {
  it.each([
    [0, 'A'],
    [25, 'Z'],
    [26, 'AA'],
    [27, 'AB'],
    [51, 'AZ'],
    [52, 'BA'],
    [701, 'ZZ'],
    [702, 'AAA'],
    [16_383, 'XFD'],
  ])('%i → %s', (index, letters) => {
    expect(columnLetters(index)).toBe(letters);
  });

  it('refuses columns outside the sheet', () => {
    expect(() => columnLetters(XLSX_MAX_COLUMNS)).toThrow(RangeError);
    expect(() => columnLetters(-1)).toThrow(RangeError);
  });
});

describe('sanitiseSheetName', () => {
  it.each([
    ['Events', 'Events'],
    ['Events: zone [A]/B?', 'Events_ zone _A__B_'],
    ['a*b\\c', 'a_b_c'],
    ['A very long table name that Excel would refuse', 'A very long table name that Exc'],
    ["'quoted'", 'quoted'],
    ['', 'Sheet'],
    ['   ', 'Sheet'],
    ['tab\there', 'tabhere'],
    ['History', 'History_'],
  ])('%j → %j', (name, expected) => {
    expect(sanitiseSheetName(name)).toBe(expected);
  });
});

describe('xlsxStream', () => {
  const textCells = [
    'Tom & Jerry <3 "quotes" \'apostrophes\'',
    'ünïcödé 中文 😀 e\u0301',
    '  leading and trailing  ',
    'two\nlines',
    'windows\r\nline',
    '=SUM(A1:A3)',
    ']]> <![CDATA[',
  ];

  it('writes sheets, a bold frozen header and typed cells that exceljs reads back', async () => {
    const buffer = await xlsxBuffer([
      {
        name: 'Track: mouse [1]',
        columns: ['time (s)', 'speed', 'moving', 'zone', 'note'],
        rows: [
          [0, 1.5, true, 'centre', null],
          [0.04, -3, false, null, 'x'],
          [0.08, Number.NaN, null, 'a\u0000b\u0001c\uD800d', Number.POSITIVE_INFINITY],
          [1e21, 2.5e-7, true, '', 'ok'],
        ],
      },
      { name: 'Strings', columns: ['text'], rows: textCells.map((s) => [s]) },
    ]);
    const workbook = await readXlsx(buffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Track_ mouse _1_', 'Strings']);

    const track = workbook.getWorksheet('Track_ mouse _1_')!;
    expect(rowValues(track, 1, 5)).toEqual(['time (s)', 'speed', 'moving', 'zone', 'note']);
    expect(track.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(track.getRow(2).getCell(1).font?.bold).not.toBe(true);
    expect(track.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });

    expect(rowValues(track, 2, 5)).toEqual([0, 1.5, true, 'centre', null]);
    expect(rowValues(track, 3, 5)).toEqual([0.04, -3, false, null, 'x']);
    // NaN, Infinity and null leave no cell; characters XML cannot carry are dropped.
    expect(rowValues(track, 4, 5)).toEqual([0.08, null, null, 'abcd', null]);
    expect(track.getRow(4).getCell(2).type).toBe(ExcelJS.ValueType.Null);
    expect(rowValues(track, 5, 5).slice(0, 3)).toEqual([1e21, 2.5e-7, true]);
    expect(track.getRow(2).getCell(1).type).toBe(ExcelJS.ValueType.Number);
    expect(track.getRow(2).getCell(3).type).toBe(ExcelJS.ValueType.Boolean);

    const strings = workbook.getWorksheet('Strings')!;
    expect(textCells.map((_, i) => strings.getRow(i + 2).getCell(1).value)).toEqual(textCells);
    // Text that looks like a formula stays text in XLSX (no apostrophe needed, nothing is evaluated).
    expect(strings.getRow(7).getCell(1).type).toBe(ExcelJS.ValueType.String);
  });

  it('writes cell references past Z, so sparse rows land in the right columns', async () => {
    const width = 40;
    const columns = Array.from({ length: width }, (_, i) => `c${i + 1}`);
    // Every other cell is null and omitted, so only the r attribute can put a value in its column.
    const row: Cell[] = Array.from({ length: width }, (_, i) => (i % 2 === 0 ? null : (i + 1) * 10));
    const workbook = await readXlsx(await xlsxBuffer([{ name: 'Wide', columns, rows: [row] }]));
    const sheet = workbook.getWorksheet('Wide')!;
    expect(sheet.getCell('Z1').value).toBe('c26');
    expect(sheet.getCell('AA1').value).toBe('c27');
    expect(sheet.getCell('AN1').value).toBe('c40');
    expect(sheet.getCell('AA2').value).toBeNull();
    expect(sheet.getCell('AB2').value).toBe(280);
    expect(sheet.getCell('AN2').value).toBe(400);
    expect(rowValues(sheet, 2, width)).toEqual(row);
  });

  it('continues a long table on numbered sheets, each with the header', async () => {
    const longName = 'Time series of every tracked point';
    const buffer = await xlsxBuffer(
      [
        { name: 'Data', columns: ['i', 'half', 'label'], rows: numberedRows(10) },
        { name: longName, columns: ['i', 'half', 'label'], rows: numberedRows(8) },
        { name: 'After', columns: ['only'], rows: [['one']] },
      ],
      { maxRowsPerSheet: 4 },
    );
    const workbook = await readXlsx(buffer);
    const stem = longName.slice(0, 27);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      'Data',
      'Data (2)',
      'Data (3)',
      longName.slice(0, 31),
      `${stem} (2)`,
      'After',
    ]);
    expect(workbook.worksheets.every((sheet) => sheet.name.length <= 31)).toBe(true);

    const dataRows = workbook.worksheets.slice(0, 3).flatMap((sheet) => {
      expect(rowValues(sheet, 1, 3)).toEqual(['i', 'half', 'label']);
      return Array.from({ length: sheet.rowCount - 1 }, (_, i) => rowValues(sheet, i + 2, 3));
    });
    expect(workbook.worksheets.slice(0, 3).map((sheet) => sheet.rowCount)).toEqual([5, 5, 3]);
    expect(dataRows).toEqual([...numberedRows(10)]);
    // Exactly two sheets' worth makes two sheets, not an empty third.
    expect(workbook.worksheets.slice(3, 5).map((sheet) => sheet.rowCount)).toEqual([5, 5]);
    expect(rowValues(workbook.worksheets[4]!, 5, 3)).toEqual([7, 3.5, 'row 7']);
  });

  it('continues on another sheet when a sheet reaches its byte limit', async () => {
    const buffer = await xlsxBuffer([{ name: 'Bytes', columns: ['i', 'half', 'label'], rows: numberedRows(200) }], {
      maxSheetXmlBytes: 4000,
    });
    const workbook = await readXlsx(buffer);
    expect(workbook.worksheets.length).toBeGreaterThan(2);
    expect(workbook.worksheets[1]!.name).toBe('Bytes (2)');
    const dataRows = workbook.worksheets.flatMap((sheet) =>
      Array.from({ length: sheet.rowCount - 1 }, (_, i) => rowValues(sheet, i + 2, 3)),
    );
    expect(dataRows).toEqual([...numberedRows(200)]);
  });

  it('makes sheet names unique and writes header-only and empty workbooks', async () => {
    const workbook = await readXlsx(
      await xlsxBuffer([
        { name: 'Data', columns: ['a'], rows: [] },
        { name: 'data', columns: ['b'], rows: [] },
        { name: 'history', columns: ['c'], rows: [] },
      ]),
    );
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Data', 'data (2)', 'History_']);
    expect(workbook.worksheets.map((sheet) => sheet.rowCount)).toEqual([1, 1, 1]);
    expect(workbook.getWorksheet('data (2)')!.getCell('A1').value).toBe('b');

    const empty = await readXlsx(await xlsxBuffer([]));
    expect(empty.worksheets.map((sheet) => sheet.name)).toEqual(['Sheet1']);
  });

  it('writes well-formed package parts that list every sheet', async () => {
    const files = unzipSync(
      new Uint8Array(
        await xlsxBuffer([{ name: 'A', columns: ['x'], rows: [[' padded '], ['_x0041_']] }], { maxRowsPerSheet: 1 }),
      ),
    );
    expect(Object.keys(files).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
      'xl/worksheets/sheet2.xml',
    ]);
    const contentTypes = strFromU8(files['[Content_Types].xml']!);
    expect(contentTypes).toContain('PartName="/xl/worksheets/sheet2.xml"');
    const rels = strFromU8(files['xl/_rels/workbook.xml.rels']!);
    expect(rels).toContain('Target="worksheets/sheet2.xml"');
    const sheet1 = strFromU8(files['xl/worksheets/sheet1.xml']!);
    expect(sheet1).toContain('<t xml:space="preserve"> padded </t>');
    expect(sheet1).toContain('state="frozen"');
    // Excel would decode _x0041_ as "A"; the underscore is escaped so the text stays literal.
    expect(strFromU8(files['xl/worksheets/sheet2.xml']!)).toContain('<t>_x005F_x0041_</t>');
  });

  it('refuses more columns than Excel has and invalid row limits', async () => {
    const columns = Array.from({ length: XLSX_MAX_COLUMNS + 1 }, (_, i) => `c${i}`);
    expect(() => xlsxStream([{ name: 'Wide', columns, rows: [] }])).toThrow(RangeError);
    expect(() => xlsxStream([], { maxRowsPerSheet: 0 })).toThrow(RangeError);
    expect(() => xlsxStream([], { maxRowsPerSheet: 1_048_576 })).toThrow(RangeError);
    const tooWideRow = new Array<Cell>(XLSX_MAX_COLUMNS + 1).fill(1);
    await expect(xlsxBuffer([{ name: 'Row', columns: ['a'], rows: [tooWideRow] }])).rejects.toThrow(RangeError);
  });

  it('reads rows from an async iterable and fails the stream when it throws', async () => {
    async function* rows(): AsyncGenerator<Cell[]> {
      yield [1, 'one'];
      await tick();
      yield [2, 'two'];
    }
    const workbook = await readXlsx(await xlsxBuffer([{ name: 'Async', columns: ['n', 'word'], rows: rows() }]));
    expect(rowValues(workbook.getWorksheet('Async')!, 3, 2)).toEqual([2, 'two']);

    async function* failing(): AsyncGenerator<Cell[]> {
      yield [1];
      throw new Error('cursor lost');
    }
    await expect(xlsxBuffer([{ name: 'F', columns: ['a'], rows: failing() }])).rejects.toThrow('cursor lost');
  });

  it('releases the row source when the consumer stops early', async () => {
    const released = await releasesSourceOnDestroy((rows) =>
      xlsxStream([{ name: 'T', columns: ['i', 'label'], rows }]),
    );
    expect(released).toBe(true);
  });

  it('does not run ahead of a consumer that is not reading', async () => {
    let pulled = 0;
    const stream = xlsxStream([
      { name: 'T', columns: ['i', 'half', 'label'], rows: numberedRows(100_000, () => pulled++) },
    ]);
    stream.on('readable', () => {});
    for (let i = 0; i < 50; i++) await tick();
    expect(pulled).toBeGreaterThan(0);
    expect(pulled).toBeLessThan(10_000);
    stream.removeAllListeners('readable');
    await collect(stream);
    expect(pulled).toBe(100_000);
  });

  it('property: strings and numbers read back from exceljs as written', async () => {
    const text = fc.string({
      unit: fc.constantFrom('&', '<', '>', '"', "'", ' ', '\n', '\t', 'a', 'Z', 'é', '😀', '中'),
    });
    const cell: fc.Arbitrary<Cell> = fc.oneof(fc.constant(null), fc.boolean(), fc.double({ noNaN: true }), text);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 10 }),
        async (rows) => {
          const workbook = await readXlsx(await xlsxBuffer([{ name: 'P', columns: ['a', 'b', 'c'], rows }]));
          const sheet = workbook.getWorksheet('P')!;
          const expected = rows.map((row) =>
            row.map((value) => {
              // exceljs has no value for an empty string, and non-finite numbers are not written.
              if (value === '' || (typeof value === 'number' && !Number.isFinite(value))) return null;
              // Spreadsheets have no negative zero; numbers are written without float noise (12 digits).
              return typeof value === 'number' ? Number(formatExportNumber(value)) : value;
            }),
          );
          expect(rows.map((_, i) => rowValues(sheet, i + 2, 3))).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('streams 300,000 rows chunk by chunk into a workbook exceljs can read', async () => {
    const total = 300_000;
    let pulled = 0;
    let pulledAtFirstChunk = -1;
    const stream = xlsxStream([
      { name: 'Long', columns: ['i', 'half', 'label'], rows: numberedRows(total, () => pulled++) },
    ]);
    const parts: Buffer[] = [];
    for await (const chunk of stream) {
      if (pulledAtFirstChunk < 0) pulledAtFirstChunk = pulled;
      parts.push(chunk as Buffer);
    }
    expect(parts.length).toBeGreaterThan(10);
    expect(pulledAtFirstChunk).toBeLessThan(total);

    const sheet = (await readXlsx(Buffer.concat(parts))).getWorksheet('Long')!;
    expect(sheet.rowCount).toBe(total + 1);
    expect(rowValues(sheet, 2, 3)).toEqual([0, 0, 'row 0']);
    expect(rowValues(sheet, total + 1, 3)).toEqual([total - 1, (total - 1) / 2, `row ${total - 1}`]);
  }, 120_000);
});
