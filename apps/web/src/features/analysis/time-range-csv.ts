/**
 * Time-range CSV files (bypass ranges, annotations) chosen in the browser: the file's own checks of spec §5 (none
 * chosen, not a .csv, unreadable), then its rows by the rules the server uses too (the @app/time-ranges package).
 */
import { parseTimeRangeCsv, TIME_RANGE_MESSAGES, type TimeRangeCsvResult } from '@app/time-ranges';

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
  if (!file) return { ok: false, error: TIME_RANGE_MESSAGES.noFile };
  if (!file.name.toLowerCase().endsWith('.csv')) return { ok: false, error: TIME_RANGE_MESSAGES.notCsv };
  let text: string;
  try {
    text = await readText(file);
  } catch {
    return { ok: false, error: TIME_RANGE_MESSAGES.readFailed };
  }
  return parseTimeRangeCsv(text);
}
