/**
 * The spec's time-range rules (§5) on the server: one list of [start, end] pairs in seconds, used for an analysis's
 * bypass ranges and for annotation tracks, and one reader for the time-range CSV file. The messages are the spec's;
 * the web app's checker (apps/web/src/features/analysis/time-range-csv.ts) gives the same ones for the same rows.
 *
 * Rows count from 1: in a JSON list the first pair is row 1; in a CSV a skipped header row and blank lines are not
 * counted, so "Row N" names the same pair in the file the user chose and in the list the server received.
 */
import { z } from 'zod';
import { exportSeconds, formatExportNumber } from './export-numbers.js';

export type TimeRange = [start: number, end: number];

/** Seconds as the files and messages write them: to the microsecond. */
const seconds = (value: number) => formatExportNumber(exportSeconds(value));

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

/**
 * Ranges cut at the end of the video (bypass ranges): a range that runs past the end ends there, a range that
 * starts at or after the end is left out, and each change is said in a notice naming its row. Time that does not
 * exist is never reported as bypassed.
 */
export function clipTimeRanges(
  ranges: readonly (readonly [number, number])[],
  durationS: number | null | undefined,
): { ranges: TimeRange[]; notices: string[] } {
  if (durationS === null || durationS === undefined || !(durationS > 0)) {
    return { ranges: ranges.map(([start, end]) => [start, end]), notices: [] };
  }
  const clipped: TimeRange[] = [];
  const notices: string[] = [];
  const s = seconds;
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

const finite = (field: string) => z.number({ error: `${field} must be a number.` });

/** A list of [start, end] pairs in the JSON body, with the rules above (the video's length is checked later). */
export const timeRangesSchema = z
  .array(z.tuple([finite('start'), finite('end')]), { error: 'Give a list of [start, end] pairs in seconds.' })
  .max(MAX_TIME_RANGES, `At most ${MAX_TIME_RANGES} ranges.`)
  .superRefine((ranges, ctx) => {
    for (const message of timeRangeProblems(ranges)) ctx.addIssue({ code: 'custom', message });
  });

/** Pairs to add or remove: each a valid range on its own; their order and overlaps are the caller's to check. */
export const timeRangeSetSchema = z
  .array(z.tuple([finite('start'), finite('end')]), { error: 'Give a list of [start, end] pairs in seconds.' })
  .max(MAX_TIME_RANGES, `At most ${MAX_TIME_RANGES} ranges.`)
  .superRefine((ranges, ctx) => {
    ranges.forEach(([start, end], index) => {
      const problem = timeRangeProblems([[start, end]])[0];
      if (problem) ctx.addIssue({ code: 'custom', message: problem.replace(/^Row 1\b/, `Row ${index + 1}`) });
    });
  });

export type TimeRangeCsvResult = { ok: true; ranges: TimeRange[] } | { ok: false; error: string };

// A plain decimal number: no hex, no Infinity, no empty string (all of which Number() would accept).
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** One cell: surrounding blanks and one pair of double quotes removed. */
function cell(raw: string): string {
  const trimmed = raw.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1).trim()
    : trimmed;
}

/** `1,5` with a decimal comma (one comma between digits, no point) as `1.5`; anything else as it is. */
const DECIMAL_COMMA = /^([+-]?\d*),(\d+(?:[eE][+-]?\d+)?)$/;

/**
 * The file's rows of cells. The separator is `;` when the first non-blank line has one — European spreadsheets
 * save CSV with `;` because the comma is their decimal mark — and `,` otherwise. In a `;` file a decimal comma
 * is read as a decimal point (`1,5;2,75` is 1.5 to 2.75); a `,` file has decimal points only.
 */
export function timeRangeCsvRows(content: string): string[][] {
  const lines = content.split(/\r\n|\n|\r/).filter((line) => line.trim() !== '');
  const semicolon = lines[0]?.includes(';') ?? false;
  if (!semicolon) return lines.map((line) => line.split(',').map(cell));
  return lines.map((line) =>
    line.split(';').map((raw) => {
      const value = cell(raw);
      const match = DECIMAL_COMMA.exec(value);
      return match ? `${match[1]}.${match[2]}` : value;
    }),
  );
}

/**
 * Reads a time-range CSV's text (spec §5): an optional header row (two values, one not numeric), then rows of
 * exactly two numbers, start < end, each start not before the previous end. The first broken rule is the answer.
 * Separated by `,` or by `;` (with decimal commas): see `timeRangeCsvRows`.
 */
export function parseTimeRangeCsv(text: string): TimeRangeCsvResult {
  const content = text.replace(/^\uFEFF/, '');
  // Empty, blank or binary (NUL bytes never occur in a text CSV): nothing a person could have meant as rows.
  if (content.trim() === '' || content.includes('\u0000')) return { ok: false, error: TIME_RANGE_MESSAGES.unreadable };
  let rows = timeRangeCsvRows(content);
  const first = rows[0];
  if (first !== undefined && first.length === 2 && first.some((value) => !NUMBER.test(value))) rows = rows.slice(1);
  if (rows.length === 0) return { ok: false, error: TIME_RANGE_MESSAGES.noRows };
  const ranges: TimeRange[] = [];
  let previousEnd = Number.NEGATIVE_INFINITY;
  for (const [index, values] of rows.entries()) {
    const row = index + 1;
    if (values.length !== 2) return { ok: false, error: TIME_RANGE_MESSAGES.wrongCount(row) };
    const [startText = '', endText = ''] = values;
    if (!NUMBER.test(startText) || !NUMBER.test(endText)) {
      return { ok: false, error: TIME_RANGE_MESSAGES.nonNumeric(row) };
    }
    const start = Number(startText);
    const end = Number(endText);
    if (!(start < end)) return { ok: false, error: TIME_RANGE_MESSAGES.startNotBeforeEnd(row) };
    if (start < previousEnd) return { ok: false, error: TIME_RANGE_MESSAGES.notNonDecreasing(row, start) };
    previousEnd = end;
    ranges.push([start, end]);
  }
  return { ok: true, ranges };
}

/**
 * The CSV the annotations export writes and the import reads back: a header, then the times to the microsecond
 * (the exports' one number format).
 */
export function formatTimeRangeCsv(ranges: readonly (readonly [number, number])[]): string {
  let text = 'start,end\r\n';
  for (const [start, end] of ranges) text += `${seconds(start)},${seconds(end)}\r\n`;
  return text;
}
