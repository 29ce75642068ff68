/**
 * The spec's time-range rules (§5), one copy for both apps: the time-range CSV file (bypass ranges, annotation
 * tracks, uploaded scorings) and lists of [start, end] pairs in seconds. The browser checks a file with these
 * before it sends it; the server checks what it receives with the same code, so both give the same message for
 * the same row. Pure TypeScript with no dependencies: the server bundles it (apps/server/build.mjs), Vite
 * compiles it for the web app.
 *
 * Rows count from 1: in a JSON list the first pair is row 1; in a CSV a skipped header row and blank lines are not
 * counted, so "Row N" names the same pair in the file the user chose and in the list the server received.
 */

export type TimeRange = [start: number, end: number];

/** The spec's fixed messages; row messages are built by the functions. */
export const TIME_RANGE_MESSAGES = {
  noFile: 'CSV is empty',
  notCsv: 'File is not a CSV',
  unreadable: 'Could not read the file or file is empty.',
  readFailed: 'Error reading file. Please try again.',
  noRows: 'CSV has no data rows.',
  wrongCount: (row: number) => `Row ${row} does not have exactly two values.`,
  nonNumeric: (row: number) => `Row ${row} contains non-numeric values.`,
  startNotBeforeEnd: (row: number) => `Row ${row} must have start time less than the end time.`,
  notNonDecreasing: (row: number, value: number) => `Row ${row}: value ${value} is not non-decreasing.`,
  // Beyond §5: the bounds of the video the ranges belong to.
  negative: (row: number) => `Row ${row}: times cannot be negative.`,
  afterEnd: (row: number, value: number, duration: number) =>
    `Row ${row}: value ${value} is after the end of the video (${duration} s).`,
} as const;

/** Most ranges one list may hold (a 12-hour video scored at one bout per second has 43,200). */
export const MAX_TIME_RANGES = 100_000;

// A plain decimal number: no hex, no Infinity, no empty string (all of which Number() would accept).
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Whether a cell holds a plain decimal number (not hex, Infinity or blank, which Number() would take). */
export const isPlainNumber = (value: string) => NUMBER.test(value);

/** One cell: surrounding blanks and one pair of double quotes removed. */
export function csvCell(raw: string): string {
  const trimmed = raw.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1).trim()
    : trimmed;
}

/** `1,5` with a decimal comma (one comma between digits, no point) as `1.5`; anything else as it is. */
const DECIMAL_COMMA = /^([+-]?\d*),(\d+(?:[eE][+-]?\d+)?)$/;

/**
 * The file's rows of cells, blank lines left out. The separator is `;` when the first non-blank line has one —
 * European spreadsheets save CSV with `;` because the comma is their decimal mark — and `,` otherwise. In a `;`
 * file a decimal comma is read as a decimal point (`1,5;2,75` is 1.5 to 2.75); a `,` file has decimal points only.
 */
export function timeRangeCsvRows(content: string): string[][] {
  const lines = content.split(/\r\n|\n|\r/).filter((line) => line.trim() !== '');
  const semicolon = lines[0]?.includes(';') ?? false;
  if (!semicolon) return lines.map((line) => line.split(',').map(csvCell));
  return lines.map((line) =>
    line.split(';').map((raw) => {
      const value = csvCell(raw);
      const match = DECIMAL_COMMA.exec(value);
      return match ? `${match[1]}.${match[2]}` : value;
    }),
  );
}

export type TimeRangeCsvResult =
  | { ok: true; ranges: TimeRange[]; headerSkipped: boolean }
  | { ok: false; error: string };

/**
 * Reads a time-range CSV's text (spec §5): an optional header row (two values, one not numeric), then rows of
 * exactly two numbers, start < end, each start not before the previous end. The first broken rule is the answer.
 * Separated by `,` or by `;` (with decimal commas): see `timeRangeCsvRows`. Pure: no file access.
 */
export function parseTimeRangeCsv(text: string): TimeRangeCsvResult {
  const content = text.replace(/^\uFEFF/, '');
  // Empty, blank or binary (NUL bytes never occur in a text CSV): nothing a person could have meant as rows.
  if (content.trim() === '' || content.includes('\u0000')) return { ok: false, error: TIME_RANGE_MESSAGES.unreadable };
  let rows = timeRangeCsvRows(content);
  const first = rows[0];
  const headerSkipped = first !== undefined && first.length === 2 && first.some((value) => !isPlainNumber(value));
  if (headerSkipped) rows = rows.slice(1);
  if (rows.length === 0) return { ok: false, error: TIME_RANGE_MESSAGES.noRows };
  const ranges: TimeRange[] = [];
  let previousEnd = Number.NEGATIVE_INFINITY;
  for (const [index, values] of rows.entries()) {
    const row = index + 1;
    if (values.length !== 2) return { ok: false, error: TIME_RANGE_MESSAGES.wrongCount(row) };
    const [startText = '', endText = ''] = values;
    if (!isPlainNumber(startText) || !isPlainNumber(endText)) {
      return { ok: false, error: TIME_RANGE_MESSAGES.nonNumeric(row) };
    }
    const start = Number(startText);
    const end = Number(endText);
    if (!(start < end)) return { ok: false, error: TIME_RANGE_MESSAGES.startNotBeforeEnd(row) };
    if (start < previousEnd) return { ok: false, error: TIME_RANGE_MESSAGES.notNonDecreasing(row, start) };
    previousEnd = end;
    ranges.push([start, end]);
  }
  return { ok: true, ranges, headerSkipped };
}

/**
 * Every rule a list breaks, one message per bad row: start ≥ 0, start < end, start not before the previous end and,
 * when the video's length is known, end ≤ that length.
 */
export function timeRangeProblems(ranges: readonly (readonly [number, number])[], maxEnd?: number): string[] {
  const problems: string[] = [];
  let previousEnd = Number.NEGATIVE_INFINITY;
  ranges.forEach(([start, end], index) => {
    const row = index + 1;
    if (start < 0) problems.push(TIME_RANGE_MESSAGES.negative(row));
    else if (!(start < end)) problems.push(TIME_RANGE_MESSAGES.startNotBeforeEnd(row));
    else if (start < previousEnd) problems.push(TIME_RANGE_MESSAGES.notNonDecreasing(row, start));
    else if (maxEnd !== undefined && end > maxEnd) problems.push(TIME_RANGE_MESSAGES.afterEnd(row, end, maxEnd));
    previousEnd = Math.max(previousEnd, end);
  });
  return problems;
}

/** Seconds in a notice: to the microsecond (a frame is milliseconds long), without float noise. */
const noticeSeconds = (value: number) => String(Math.round(value * 1e6) / 1e6 || 0);

/**
 * Ranges cut at the end of the video (bypass ranges): a range that runs past the end ends there, a range that
 * starts at or after the end is left out, and each change is said in a notice naming its row. Time that does not
 * exist is never reported as bypassed. The browser shows the notices before a run; the server applies the cut.
 */
export function clipTimeRanges(
  ranges: readonly (readonly [number, number])[],
  durationS: number | null | undefined,
): { ranges: TimeRange[]; notices: string[] } {
  if (durationS === null || durationS === undefined || !(durationS > 0)) {
    return { ranges: ranges.map(([start, end]) => [start, end]), notices: [] };
  }
  const s = noticeSeconds;
  const clipped: TimeRange[] = [];
  const notices: string[] = [];
  ranges.forEach(([start, end], index) => {
    const row = index + 1;
    if (start >= durationS) {
      notices.push(
        `Row ${row} (${s(start)}–${s(end)} s) starts at or after the end of the video (${s(durationS)} s): left out.`,
      );
    } else if (end > durationS) {
      notices.push(
        `Row ${row} (${s(start)}–${s(end)} s) ends after the video (${s(durationS)} s): clipped to ${s(start)}–${s(durationS)} s.`,
      );
      clipped.push([start, durationS]);
    } else clipped.push([start, end]);
  });
  return { ranges: clipped, notices };
}
