/**
 * A scoring uploaded for a comparison: a CSV of ranges (two values a row, the spec's time-range rules and messages,
 * §5) or of event times (one value a row; an optional header row that is not a number is skipped).
 */
import { csvCell, isPlainNumber, parseTimeRangeCsv, TIME_RANGE_MESSAGES } from '@app/time-ranges';
import { readText, type TextFile } from '@/features/analysis/time-range-csv';
import type { UploadedScoring } from './scorings';

export type UploadResult = { ok: true; scoring: UploadedScoring } | { ok: false; error: string };

/** Event times: one value a row, each a number of seconds, not negative. */
export function parseEventCsv(text: string): { ok: true; events: number[] } | { ok: false; error: string } {
  const content = text.replace(/^\uFEFF/, '');
  if (content.trim() === '' || content.includes('\u0000')) return { ok: false, error: TIME_RANGE_MESSAGES.unreadable };
  let rows = content
    .split(/\r\n|\n|\r/)
    .filter((line) => line.trim() !== '')
    .map((line) => line.split(',').map(csvCell));
  if (rows[0]?.length === 1 && !isPlainNumber(rows[0][0] ?? '')) rows = rows.slice(1);
  if (rows.length === 0) return { ok: false, error: TIME_RANGE_MESSAGES.noRows };
  const events: number[] = [];
  for (const [index, values] of rows.entries()) {
    const row = index + 1;
    if (values.length !== 1) return { ok: false, error: `Row ${row} does not have exactly one value.` };
    if (!isPlainNumber(values[0] ?? '')) return { ok: false, error: TIME_RANGE_MESSAGES.nonNumeric(row) };
    const time = Number(values[0]);
    if (time < 0) return { ok: false, error: `Row ${row}: an event time cannot be negative.` };
    events.push(time);
  }
  return { ok: true, events };
}

/**
 * Reads a chosen file: ranges when its first row of numbers has two values, else event times. The file's own
 * problems (none chosen, not a CSV, unreadable) give the spec's messages.
 */
export async function readScoringCsv(file: TextFile | null | undefined): Promise<UploadResult> {
  if (!file) return { ok: false, error: TIME_RANGE_MESSAGES.noFile };
  if (!file.name.toLowerCase().endsWith('.csv')) return { ok: false, error: TIME_RANGE_MESSAGES.notCsv };
  let text: string;
  try {
    text = await readText(file);
  } catch {
    return { ok: false, error: TIME_RANGE_MESSAGES.readFailed };
  }
  const rows = text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .filter((line) => line.trim() !== '')
    .map((line) => line.split(',').map(csvCell));
  const firstNumbers = rows.find((values) => isPlainNumber(values[0] ?? '')) ?? rows[0];
  if (firstNumbers && firstNumbers.length >= 2) {
    const ranges = parseTimeRangeCsv(text);
    return ranges.ok ? { ok: true, scoring: { fileName: file.name, ranges: ranges.ranges } } : ranges;
  }
  const events = parseEventCsv(text);
  return events.ok ? { ok: true, scoring: { fileName: file.name, events: events.events } } : events;
}
