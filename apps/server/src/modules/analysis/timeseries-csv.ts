/**
 * Parser for an uploaded time-series CSV: one value per video frame (one column), `time,value` (time in
 * seconds), or our own export `frame,time_s,value` (recognised by that exact header; frame is ignored).
 *
 * - Lines end in \n or \r\n. Blank (whitespace-only) lines before the first row and after the last are ignored;
 *   in between, a blank line is a row with one empty field (a missing value in a one-column file).
 * - Delimiter: a comma; when the first non-blank line has no comma, `;` or a tab if it has one. When that line has
 *   none of them (a one-field header such as `value`), the next non-blank line decides the same way.
 * - Fields: surrounding spaces/tabs and one pair of surrounding double quotes are stripped. Quoted delimiters are
 *   not supported (no field of these files needs them).
 * - Header: the first row when any field is non-empty and non-numeric.
 * - Numbers: Number() of the field, finite. An empty value is NaN (our export leaves bypassed frames empty); an
 *   empty time is an error. Times must be non-negative and strictly increasing.
 *
 * The text is scanned with indexOf and charCodeAt; values go into Float64Arrays grown by doubling, so 5 million
 * lines parse without an array of lines or per-row objects.
 */

export type TimeseriesParseResult =
  | { ok: true; values: Float64Array; times: Float64Array | null }
  | { ok: false; error: string };

const NEWLINE = '\n';
const CR = 13;
const SPACE = 32;
const TAB = 9;
const QUOTE = 34;
const BOM = '\uFEFF';
const EXPORT_HEADER = ['frame', 'time_s', 'value'];

const failure = (error: string): TimeseriesParseResult => ({ ok: false, error });

/** Trimmed bounds of the last field, written by trimField (avoids allocating a pair per field). */
let fieldStart = 0;
let fieldEnd = 0;

function isBlankChar(code: number): boolean {
  return code === SPACE || code === TAB || code === CR;
}

function trimField(text: string, start: number, end: number): void {
  while (start < end && isBlankChar(text.charCodeAt(start))) start++;
  while (end > start && isBlankChar(text.charCodeAt(end - 1))) end--;
  if (end - start >= 2 && text.charCodeAt(start) === QUOTE && text.charCodeAt(end - 1) === QUOTE) {
    start++;
    end--;
    while (start < end && isBlankChar(text.charCodeAt(start))) start++;
    while (end > start && isBlankChar(text.charCodeAt(end - 1))) end--;
  }
  fieldStart = start;
  fieldEnd = end;
}

function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isBlankChar(text.charCodeAt(i))) return false;
  return true;
}

/** End of a line starting at start: the next \n, or the end of the content. */
function lineEndFrom(text: string, start: number, contentEnd: number): number {
  const newline = text.indexOf(NEWLINE, start);
  return newline === -1 || newline > contentEnd ? contentEnd : newline;
}

function pickDelimiter(line: string): string | null {
  if (line.includes(',')) return ',';
  if (line.includes(';')) return ';';
  if (line.includes('\t')) return '\t';
  return null;
}

/** Splits one line into trimmed field strings; only used for the first row(s), never per data row. */
function splitFields(text: string, start: number, end: number, delimiter: string): string[] {
  const fields: string[] = [];
  let fieldFrom = start;
  for (;;) {
    const next = text.indexOf(delimiter, fieldFrom);
    const to = next === -1 || next >= end ? end : next;
    trimField(text, fieldFrom, to);
    fields.push(text.slice(fieldStart, fieldEnd));
    if (to === end) return fields;
    fieldFrom = to + 1;
  }
}

/** Exact powers of ten: every 10^k up to 10^22 is a double. */
const POWERS_OF_TEN = Float64Array.from({ length: 23 }, (_, exponent) => 10 ** exponent);
const ZERO = 48;
const NINE = 57;
const DOT = 46;
const MINUS = 45;

/**
 * Number(text.slice(start, end)) without the slice for plain decimals ([-]digits[.digits], at most 15 digits):
 * the digits form an exact integer below 2^53 and the divisor an exact power of ten, so the single rounding of
 * the division gives the same double as Number() (Clinger's fast path). Anything else goes to Number().
 */
function parseNumber(text: string, start: number, end: number): number {
  let index = start;
  const negative = text.charCodeAt(index) === MINUS;
  if (negative) index++;
  let mantissa = 0;
  let digits = 0;
  let fractionDigits = 0;
  let seenDot = false;
  for (; index < end; index++) {
    const code = text.charCodeAt(index);
    if (code >= ZERO && code <= NINE) {
      mantissa = mantissa * 10 + (code - ZERO);
      digits++;
      if (seenDot) fractionDigits++;
    } else if (code === DOT && !seenDot) {
      seenDot = true;
    } else {
      return Number(text.slice(start, end));
    }
  }
  if (digits === 0 || digits > 15) return Number(text.slice(start, end));
  const magnitude = fractionDigits === 0 ? mantissa : mantissa / POWERS_OF_TEN[fractionDigits]!;
  return negative ? -magnitude : magnitude;
}

function isNumericField(field: string): boolean {
  return field !== '' && Number.isFinite(Number(field));
}

function grow(array: Float64Array): Float64Array {
  const larger = new Float64Array(array.length * 2);
  larger.set(array);
  return larger;
}

export function parseTimeseriesCsv(text: string): TimeseriesParseResult {
  let position = text.startsWith(BOM) ? 1 : 0;

  // Content ends after the last non-blank line (trailing blank lines are ignored).
  let contentEnd = text.length;
  for (;;) {
    const lastNewline = contentEnd > position ? text.lastIndexOf(NEWLINE, contentEnd - 1) : -1;
    const lastLineStart = lastNewline < position ? position : lastNewline + 1;
    if (!isBlank(text, lastLineStart, contentEnd)) break;
    if (lastNewline < position) return failure('CSV has no data rows.');
    contentEnd = lastNewline;
  }

  // Skip leading blank lines, counting them so row numbers are file line numbers.
  let lineNumber = 1;
  for (;;) {
    const end = lineEndFrom(text, position, contentEnd);
    if (!isBlank(text, position, end)) break;
    position = end + 1;
    lineNumber++;
  }

  const firstLineEnd = lineEndFrom(text, position, contentEnd);
  let delimiter = pickDelimiter(text.slice(position, firstLineEnd));
  if (delimiter === null && firstLineEnd < contentEnd) {
    const secondLineEnd = lineEndFrom(text, firstLineEnd + 1, contentEnd);
    delimiter = pickDelimiter(text.slice(firstLineEnd + 1, secondLineEnd));
  }
  delimiter ??= ',';

  const firstFields = splitFields(text, position, firstLineEnd, delimiter);
  const hasHeader = firstFields.some((field) => field !== '' && !isNumericField(field));
  const isExport =
    hasHeader &&
    firstFields.length === EXPORT_HEADER.length &&
    firstFields.every((field, index) => field.trim().toLowerCase() === EXPORT_HEADER[index]);
  if (hasHeader) {
    if (firstLineEnd >= contentEnd) return failure('CSV has no data rows.');
    position = firstLineEnd + 1;
    lineNumber++;
  }

  const dataLineEnd = lineEndFrom(text, position, contentEnd);
  const columns = isExport ? EXPORT_HEADER.length : splitFields(text, position, dataLineEnd, delimiter).length;
  if (columns > 2 && !isExport) {
    return failure(`Row ${lineNumber} has more than two values; expected one value per frame, or time,value.`);
  }
  const timeColumn = columns === 1 ? -1 : columns - 2;
  const valueColumn = columns - 1;

  let values: Float64Array = new Float64Array(1024);
  let times: Float64Array | null = timeColumn === -1 ? null : new Float64Array(1024);
  let count = 0;
  let validCount = 0;
  let previousTime = Number.NEGATIVE_INFINITY;
  // Position of the next delimiter at or after the current point; searched again only once passed, so a
  // file without delimiters is scanned once in total rather than once per line.
  let nextDelimiter = -2;

  while (position <= contentEnd) {
    const lineEnd = lineEndFrom(text, position, contentEnd);
    let value = Number.NaN;
    let time = Number.NaN;
    let fieldFrom = position;
    let column = 0;
    // A wrong field count is the more telling error, so a bad number is reported only once the row is split.
    let nonNumeric = false;

    for (;;) {
      if (nextDelimiter !== -1 && nextDelimiter < fieldFrom) nextDelimiter = text.indexOf(delimiter, fieldFrom);
      const fieldTo = nextDelimiter === -1 || nextDelimiter >= lineEnd ? lineEnd : nextDelimiter;
      if (column >= columns) {
        return failure(`Row ${lineNumber} does not have the same number of values as the first row.`);
      }
      if (column === timeColumn || column === valueColumn) {
        trimField(text, fieldFrom, fieldTo);
        const empty = fieldStart === fieldEnd;
        const number = empty ? Number.NaN : parseNumber(text, fieldStart, fieldEnd);
        if ((!empty && !Number.isFinite(number)) || (empty && column === timeColumn)) nonNumeric = true;
        if (column === timeColumn) time = number;
        else value = number;
      }
      column++;
      if (fieldTo === lineEnd) break;
      fieldFrom = fieldTo + 1;
    }
    if (column !== columns) {
      return failure(`Row ${lineNumber} does not have the same number of values as the first row.`);
    }
    if (nonNumeric) return failure(`Row ${lineNumber} contains non-numeric values.`);

    if (times !== null) {
      if (time < 0 || !(time > previousTime)) {
        const written = splitFields(text, position, lineEnd, delimiter)[timeColumn];
        const problem = time < 0 ? 'is negative' : 'is not after the previous time';
        return failure(`Row ${lineNumber}: time ${written} ${problem}.`);
      }
      previousTime = time;
      if (count === times.length) times = grow(times);
      times[count] = time;
    }
    if (count === values.length) values = grow(values);
    values[count] = value;
    count++;
    if (!Number.isNaN(value)) validCount++;

    position = lineEnd + 1;
    lineNumber++;
  }

  if (validCount === 0) return failure('The time series has no values.');
  return { ok: true, values: values.slice(0, count), times: times === null ? null : times.slice(0, count) };
}
