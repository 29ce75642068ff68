import { Readable } from 'node:stream';
import { Zip, ZipDeflate } from 'fflate';
import { formatExportNumber } from './export-numbers.js';

export type Cell = string | number | boolean | null;

export interface Table {
  /** Sheet name for XLSX (sanitised: max 31 chars, no []:*?/\ ), ignored for CSV. */
  name: string;
  columns: string[];
  /**
   * Rows, produced lazily (a generator over typed arrays), so millions of rows never sit in memory as objects.
   * Each row is formatted as soon as it is pulled, so a producer may reuse one array for every row.
   */
  rows: Iterable<Cell[]> | AsyncIterable<Cell[]>;
}

export type ExportFormat = 'csv' | 'xlsx';

/** Content type and file extension per format. */
export const exportFormats: Record<ExportFormat, { contentType: string; extension: string }> = {
  csv: { contentType: 'text/csv; charset=utf-8', extension: 'csv' },
  xlsx: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' },
};

/** Excel's grid: 1,048,576 rows (one is the header) by 16,384 columns (XFD). */
export const XLSX_MAX_DATA_ROWS = 1_048_575;
export const XLSX_MAX_COLUMNS = 16_384;
/** Excel refuses cells longer than this; longer strings are cut rather than producing a file Excel must "repair". */
export const XLSX_MAX_CELL_CHARS = 32_767;
export const XLSX_MAX_SHEET_NAME_CHARS = 31;

/** A chunk is emitted after this many rows or this many characters of output, whichever comes first. */
const BATCH_ROWS = 1000;
const BATCH_CHARS = 1 << 19;
/**
 * fflate writes classic (non-Zip64) archives, whose sizes and offsets are 32-bit. A sheet's XML therefore stays
 * below 4 GiB: past this (with margin for the last batch) the table continues on a new sheet.
 */
const DEFAULT_MAX_SHEET_XML_BYTES = 0xffff_ffff - 256 * 1024 * 1024;
const ZIP32_LIMIT = 0xffff_ffff;
/** Level 6 or lower keeps deflate fast enough for millions of rows; XML of numbers compresses well at any level. */
const DEFLATE_LEVEL = 2;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function isAsyncIterable<T>(value: Iterable<T> | AsyncIterable<T>): value is AsyncIterable<T> {
  return typeof (value as AsyncIterable<T>)[Symbol.asyncIterator] === 'function';
}

/**
 * Hands each row to `take` as soon as it is pulled and yields whenever `batchFull()` says so, letting the caller
 * emit a chunk and give the event loop a turn. Sync sources are iterated without a microtask per row.
 */
async function* consumeInBatches(
  rows: Iterable<Cell[]> | AsyncIterable<Cell[]>,
  take: (row: Cell[]) => void,
  batchFull: () => boolean,
): AsyncGenerator<void> {
  if (isAsyncIterable(rows)) {
    for await (const row of rows) {
      take(row);
      if (batchFull()) yield;
    }
  } else {
    for (const row of rows) {
      take(row);
      if (batchFull()) yield;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// CSV

/**
 * Text a spreadsheet would run as a formula (or DDE) when the CSV is opened: OWASP's trigger characters
 * (`= + - @`, tab, carriage return), their full-width forms (`＝ ＋ － ＠`, which some spreadsheets read as the ASCII
 * ones) and `|` (DDE in older Excel and LibreOffice).
 */
const FORMULA_TRIGGER = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20|]/;

/** `text` with an apostrophe in front when a spreadsheet would run it as a formula (CSV and TSV exports). */
export function defuseFormula(text: string): string {
  return FORMULA_TRIGGER.test(text) ? `'${text}` : text;
}
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV field (RFC 4180). Numbers are written by the one export formatter (no float noise); only strings are
 * defused against formula injection: numbers such as -3 stay numbers.
 */
export function formatCsvField(value: Cell): string {
  if (value == null) return '';
  if (typeof value === 'number') return formatExportNumber(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = defuseFormula(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLine(cells: readonly Cell[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    if (i > 0) line += ',';
    line += formatCsvField(cells[i]!);
  }
  // A lone empty field would be a blank line, which many readers skip; "" keeps the row.
  if (cells.length === 1 && line === '') line = '""';
  return `${line}\r\n`;
}

/** CSV (RFC 4180, \r\n line ends, UTF-8 without BOM; header row = columns) as a stream of chunks. */
export function csvStream(table: Table): Readable {
  return Readable.from(generateCsv(table), { objectMode: false });
}

async function* generateCsv(table: Table): AsyncGenerator<Buffer> {
  let pending = csvLine(table.columns);
  let rowsInBatch = 0;
  const batches = consumeInBatches(
    table.rows,
    (row) => {
      pending += csvLine(row);
      rowsInBatch++;
    },
    () => rowsInBatch >= BATCH_ROWS || pending.length >= BATCH_CHARS,
  );
  for await (const _ of batches) {
    yield Buffer.from(pending, 'utf8');
    pending = '';
    rowsInBatch = 0;
    await yieldToEventLoop();
  }
  if (pending) yield Buffer.from(pending, 'utf8');
}

// ---------------------------------------------------------------------------------------------------------------
// XLSX (SpreadsheetML written by hand, zipped incrementally by fflate)

/** Characters XML 1.0 does not allow at all (not even escaped), including lone surrogates. */
const XML_INVALID = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const XML_SPECIAL = /[&<>"\r]/g;
const XML_NEEDS_WORK = /[&<>"\r]|[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;' };

/** Escapes text for XML content or attributes; CR becomes &#13; because parsers would otherwise turn CRLF into LF. */
export function escapeXml(text: string): string {
  if (!XML_NEEDS_WORK.test(text)) return text;
  return text.replace(XML_INVALID, '').replace(XML_SPECIAL, (c) => XML_ENTITIES[c]!);
}

/** Cuts at `max` UTF-16 units without leaving half a surrogate pair. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const lastCode = text.charCodeAt(max - 1);
  return text.slice(0, lastCode >= 0xd800 && lastCode <= 0xdbff ? max - 1 : max);
}

const PRESERVE_SPACE = /^\s|\s$|[\t\n\r]/;
/** Excel reads "_xHHHH_" in cell text as an escaped character; escaping the underscore keeps such text literal. */
const EXCEL_ESCAPE_LOOKALIKE = /_(?=x[0-9A-Fa-f]{4}_)/g;

function inlineString(text: string): string {
  const clean = truncate(text.replace(XML_INVALID, ''), XLSX_MAX_CELL_CHARS);
  const space = PRESERVE_SPACE.test(clean) ? ' xml:space="preserve"' : '';
  return `<is><t${space}>${escapeXml(clean.replace(EXCEL_ESCAPE_LOOKALIKE, '_x005F_'))}</t></is>`;
}

/** Column letters for a zero-based index: 0 → A, 25 → Z, 26 → AA, 16383 → XFD. */
export function columnLetters(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= XLSX_MAX_COLUMNS) {
    throw new RangeError(`Column index ${index} is outside Excel's ${XLSX_MAX_COLUMNS} columns.`);
  }
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

const columnLetterCache: string[] = [];
function cachedColumnLetters(index: number): string {
  let letters = columnLetterCache[index];
  if (letters === undefined) {
    letters = columnLetters(index);
    columnLetterCache[index] = letters;
  }
  return letters;
}

const SHEET_NAME_FORBIDDEN = /[[\]:*?/\\]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed here
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/**
 * A name Excel accepts for a sheet: forbidden characters become "_", no control characters, no apostrophe at either
 * end, at most 31 characters, never empty and never the reserved "History".
 */
export function sanitiseSheetName(name: string): string {
  let clean = name.replace(XML_INVALID, '').replace(CONTROL_CHARACTERS, '').replace(SHEET_NAME_FORBIDDEN, '_');
  clean = truncate(clean, XLSX_MAX_SHEET_NAME_CHARS).replace(/^'+|'+$/g, '');
  if (clean.trim() === '') return 'Sheet';
  if (clean.toLowerCase() === 'history') return 'History_';
  return clean;
}

/** "name (n)", shortening the name so that the whole still fits in 31 characters. */
function numberedSheetName(base: string, n: number): string {
  if (n === 1) return base;
  const suffix = ` (${n})`;
  const stem = truncate(base, XLSX_MAX_SHEET_NAME_CHARS - suffix.length).replace(/'+$/, '');
  return stem + suffix;
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

const ROOT_RELS =
  `${XML_DECLARATION}<Relationships xmlns="${PACKAGE_REL_NS}">` +
  `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

/** Cell style 1 (bold) is the header row's; style 0 is the default. Two fills are required by Excel. */
const STYLES =
  `${XML_DECLARATION}<styleSheet xmlns="${MAIN_NS}">` +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
  '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';
const HEADER_STYLE = 1;

function workbookXml(sheetNames: string[]): string {
  const sheets = sheetNames
    .map((name, i) => `<sheet name="${escapeXml(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
    .join('');
  return (
    `${XML_DECLARATION}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    `<bookViews><workbookView activeTab="0"/></bookViews><sheets>${sheets}</sheets></workbook>`
  );
}

function workbookRelsXml(sheetCount: number): string {
  let rels = '';
  for (let i = 1; i <= sheetCount; i++) {
    rels += `<Relationship Id="rId${i}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i}.xml"/>`;
  }
  rels += `<Relationship Id="rId${sheetCount + 1}" Type="${REL_NS}/styles" Target="styles.xml"/>`;
  return `${XML_DECLARATION}<Relationships xmlns="${PACKAGE_REL_NS}">${rels}</Relationships>`;
}

function contentTypesXml(sheetCount: number): string {
  const type = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  let overrides = `<Override PartName="/xl/workbook.xml" ContentType="${type}.sheet.main+xml"/>`;
  overrides += `<Override PartName="/xl/styles.xml" ContentType="${type}.styles+xml"/>`;
  for (let i = 1; i <= sheetCount; i++) {
    overrides += `<Override PartName="/xl/worksheets/sheet${i}.xml" ContentType="${type}.worksheet+xml"/>`;
  }
  return (
    `${XML_DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    `<Default Extension="xml" ContentType="application/xml"/>${overrides}</Types>`
  );
}

function cellXml(ref: string, value: Cell, style: string): string {
  if (value == null) return '';
  if (typeof value === 'number') {
    return Number.isFinite(value) ? `<c r="${ref}"${style}><v>${formatExportNumber(value)}</v></c>` : '';
  }
  if (typeof value === 'boolean') return `<c r="${ref}"${style} t="b"><v>${value ? 1 : 0}</v></c>`;
  return `<c r="${ref}"${style} t="inlineStr">${inlineString(value)}</c>`;
}

function rowXml(cells: readonly Cell[], rowNumber: number, style = ''): string {
  let xml = `<row r="${rowNumber}">`;
  for (let i = 0; i < cells.length; i++) {
    xml += cellXml(cachedColumnLetters(i) + rowNumber, cells[i]!, style);
  }
  return `${xml}</row>`;
}

/** Opening of a worksheet up to its first data row: the header is bold and frozen. */
function sheetStartXml(columns: readonly string[], selected: boolean): string {
  return (
    `${XML_DECLARATION}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    `<sheetViews><sheetView${selected ? ' tabSelected="1"' : ''} workbookViewId="0">` +
    '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>' +
    '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>' +
    `<sheetData>${rowXml(columns, 1, ` s="${HEADER_STYLE}"`)}`
  );
}
const SHEET_END = '</sheetData></worksheet>';

const utf8 = new TextEncoder();

export interface XlsxOptions {
  /** Data rows per sheet before a table continues on "name (2)"; Excel's maximum unless lowered (for tests). */
  maxRowsPerSheet?: number;
  /** Uncompressed XML bytes per sheet before a table continues on another sheet; keeps entries within Zip32. */
  maxSheetXmlBytes?: number;
}

/**
 * XLSX workbook with one sheet per table (a table longer than 1,048,575 data rows continues on sheets "name (2)",
 * "name (3)"…, each with the header row) as a stream.
 */
export function xlsxStream(tables: Table[], options: XlsxOptions = {}): Readable {
  const maxRows = options.maxRowsPerSheet ?? XLSX_MAX_DATA_ROWS;
  if (!Number.isInteger(maxRows) || maxRows < 1 || maxRows > XLSX_MAX_DATA_ROWS) {
    throw new RangeError(`maxRowsPerSheet must be an integer from 1 to ${XLSX_MAX_DATA_ROWS}.`);
  }
  const maxBytes = options.maxSheetXmlBytes ?? DEFAULT_MAX_SHEET_XML_BYTES;
  for (const table of tables) {
    if (table.columns.length > XLSX_MAX_COLUMNS) {
      throw new RangeError(
        `Table "${table.name}" has ${table.columns.length} columns; XLSX allows ${XLSX_MAX_COLUMNS}.`,
      );
    }
  }
  return Readable.from(generateXlsx(tables, maxRows, maxBytes), { objectMode: false });
}

async function* generateXlsx(tables: Table[], maxRows: number, maxSheetBytes: number): AsyncGenerator<Buffer> {
  const output: Uint8Array[] = [];
  let archiveBytes = 0;
  let zipError: Error | null = null;
  // ZipDeflate is synchronous: everything pushed below has reached `output` by the time push() returns.
  const zip = new Zip((error, chunk) => {
    if (error) zipError = error;
    else {
      output.push(chunk);
      archiveBytes += chunk.length;
    }
  });
  const takeOutput = (): Buffer | null => {
    if (zipError) throw zipError;
    if (archiveBytes > ZIP32_LIMIT) {
      throw new RangeError('The export is larger than 4 GiB, beyond what this XLSX writer supports; export CSV.');
    }
    if (output.length === 0) return null;
    const chunk = Buffer.concat(output);
    output.length = 0;
    return chunk;
  };
  const addWholeFile = (path: string, content: string) => {
    const file = new ZipDeflate(path, { level: DEFLATE_LEVEL });
    zip.add(file);
    file.push(utf8.encode(content), true);
  };

  addWholeFile('_rels/.rels', ROOT_RELS);
  addWholeFile('xl/styles.xml', STYLES);

  const sheetNames: string[] = [];
  const usedNames = new Set<string>();
  /** Claims the first free "base (n)" from n = `from` on; Excel compares sheet names case-insensitively. */
  const claimName = (base: string, from: number) => {
    for (let n = from; ; n++) {
      const name = numberedSheetName(base, n);
      if (!usedNames.has(name.toLowerCase())) {
        usedNames.add(name.toLowerCase());
        return { name, n };
      }
    }
  };

  const emptyWorkbook = tables.length === 0;
  const toWrite: Table[] = emptyWorkbook ? [{ name: 'Sheet1', columns: [], rows: [] }] : tables;

  for (const table of toWrite) {
    const base = sanitiseSheetName(table.name);
    let lastNumber = 0;
    let file: ZipDeflate | null = null;
    let pending = '';
    let sheetBytes = 0;
    let sheetRows = 0;
    let rowsInBatch = 0;

    const flushPending = () => {
      if (!pending || !file) return;
      const bytes = utf8.encode(pending);
      sheetBytes += bytes.length;
      file.push(bytes, false);
      pending = '';
    };
    const closeSheet = () => {
      if (!file) return;
      pending += SHEET_END;
      const bytes = utf8.encode(pending);
      file.push(bytes, true);
      pending = '';
      file = null;
    };
    const openSheet = () => {
      const claimed = claimName(base, lastNumber + 1);
      lastNumber = claimed.n;
      sheetNames.push(claimed.name);
      file = new ZipDeflate(`xl/worksheets/sheet${sheetNames.length}.xml`, { level: DEFLATE_LEVEL });
      zip.add(file);
      pending = sheetStartXml(table.columns, sheetNames.length === 1);
      sheetBytes = 0;
      sheetRows = 0;
    };

    openSheet();
    const batches = consumeInBatches(
      table.rows,
      (row) => {
        // Conservative byte estimate for the unflushed text: UTF-8 never needs more than 3 bytes per UTF-16 unit.
        if (sheetRows >= maxRows || (sheetRows > 0 && sheetBytes + pending.length * 3 >= maxSheetBytes)) {
          closeSheet();
          openSheet();
        }
        sheetRows++;
        pending += rowXml(row, sheetRows + 1);
        rowsInBatch++;
      },
      () => rowsInBatch >= BATCH_ROWS || pending.length >= BATCH_CHARS,
    );
    for await (const _ of batches) {
      flushPending();
      rowsInBatch = 0;
      const chunk = takeOutput();
      if (chunk) yield chunk;
      await yieldToEventLoop();
    }
    closeSheet();
    const chunk = takeOutput();
    if (chunk) yield chunk;
  }

  // Written last because only now is the number of sheets known (continuations depend on row counts).
  addWholeFile('xl/workbook.xml', workbookXml(sheetNames));
  addWholeFile('xl/_rels/workbook.xml.rels', workbookRelsXml(sheetNames.length));
  addWholeFile('[Content_Types].xml', contentTypesXml(sheetNames.length));
  zip.end();
  const last = takeOutput();
  if (last) yield last;
}
