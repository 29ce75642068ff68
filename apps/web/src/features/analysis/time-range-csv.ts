/**
 * Time-range CSV files (bypass ranges, annotations): [start, end] pairs in seconds, checked in the browser with
 * the rules and messages of spec §5.
 *
 * Row numbers (the N of "Row N …") count data rows from 1: a skipped header row and blank lines are not counted.
 * The server numbers the ranges it receives the same way, so its messages name the same rows.
 */

export type TimeRange = [start: number, end: number];

export type TimeRangeCsvResult =
  | { ok: true; ranges: TimeRange[]; headerSkipped: boolean }
  | { ok: false; error: string };

/** The spec's fixed messages; row messages are built by the functions below. */
export const TIME_RANGE_CSV_MESSAGES = {
  noFile: 'CSV is empty',
  notCsv: 'File is not a CSV',
  unreadable: 'Could not read the file or file is empty.',
  readFailed: 'Error reading file. Please try again.',
  noRows: 'CSV has no data rows.',
  wrongCount: (row: number) => `Row ${row} does not have exactly two values.`,
  nonNumeric: (row: number) => `Row ${row} contains non-numeric values.`,
  startNotBeforeEnd: (row: number) => `Row ${row} must have start time less than the end time.`,
  notNonDecreasing: (row: number, value: number) => `Row ${row}: value ${value} is not non-decreasing.`,
} as const;

// A plain decimal number: no hex, no Infinity, no empty string (all of which Number() would accept).
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

const isNumeric = (value: string) => NUMBER.test(value);

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
 * The file's rows of cells, as the server reads them (apps/server/src/lib/time-ranges.ts): `;`-separated when the
 * first non-blank line has a `;` — European spreadsheets, whose decimal mark is the comma — with decimal commas
 * read as points (`1,5;2,75` is 1.5 to 2.75); `,`-separated otherwise.
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
 * Ranges cut at the end of the video, as the server cuts bypass ranges: one running past the end ends there, one
 * starting at or after it is left out, and each change is said in a notice naming its row (the server's words).
 */
export function clipTimeRanges(
  ranges: readonly TimeRange[],
  durationS: number | null | undefined,
): { ranges: TimeRange[]; notices: string[] } {
  if (durationS == null || !(durationS > 0)) return { ranges: ranges.map(([a, b]) => [a, b]), notices: [] };
  const s = (value: number) => String(Math.round(value * 1e6) / 1e6);
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

/** Checks the text of a time-range CSV (spec §5), separated by `,` or `;` (see above). Pure: no file access. */
export function parseTimeRangeCsv(text: string): TimeRangeCsvResult {
  const content = text.replace(/^\uFEFF/, '');
  // Empty, blank or binary (NUL bytes never occur in a text CSV): nothing a person could have meant as rows.
  if (content.trim() === '' || content.includes('\u0000')) {
    return { ok: false, error: TIME_RANGE_CSV_MESSAGES.unreadable };
  }

  let rows = timeRangeCsvRows(content);

  const first = rows[0];
  const headerSkipped = first !== undefined && first.length === 2 && first.some((value) => !isNumeric(value));
  if (headerSkipped) rows = rows.slice(1);
  if (rows.length === 0) return { ok: false, error: TIME_RANGE_CSV_MESSAGES.noRows };

  const ranges: TimeRange[] = [];
  let previousEnd = Number.NEGATIVE_INFINITY;
  for (const [index, values] of rows.entries()) {
    const row = index + 1;
    if (values.length !== 2) return { ok: false, error: TIME_RANGE_CSV_MESSAGES.wrongCount(row) };
    const [startText = '', endText = ''] = values;
    if (!isNumeric(startText) || !isNumeric(endText)) {
      return { ok: false, error: TIME_RANGE_CSV_MESSAGES.nonNumeric(row) };
    }
    const start = Number(startText);
    const end = Number(endText);
    if (!(start < end)) return { ok: false, error: TIME_RANGE_CSV_MESSAGES.startNotBeforeEnd(row) };
    if (start < previousEnd) return { ok: false, error: TIME_RANGE_CSV_MESSAGES.notNonDecreasing(row, start) };
    previousEnd = end;
    ranges.push([start, end]);
  }
  return { ok: true, ranges, headerSkipped };
}

/** What the check needs of a chosen file: a File, or a stand-in in tests. */
export interface TextFile {
  name: string;
  text(): Promise<string>;
}

/** The file's text; through FileReader where a File has no text() (older engines, jsdom). */
export function readText(file: TextFile): Promise<string> {
  if (typeof file.text === 'function') return file.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsText(file as unknown as Blob);
  });
}

/** Checks a chosen file: its presence, its name, that it can be read, then its rows (spec §5). */
export async function readTimeRangeCsv(file: TextFile | null | undefined): Promise<TimeRangeCsvResult> {
  if (!file) return { ok: false, error: TIME_RANGE_CSV_MESSAGES.noFile };
  if (!file.name.toLowerCase().endsWith('.csv')) return { ok: false, error: TIME_RANGE_CSV_MESSAGES.notCsv };
  let text: string;
  try {
    text = await readText(file);
  } catch {
    return { ok: false, error: TIME_RANGE_CSV_MESSAGES.readFailed };
  }
  return parseTimeRangeCsv(text);
}
