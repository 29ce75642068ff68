/**
 * The server's side of the time-range rules (spec §5): the rules themselves — the CSV reader, the messages, the
 * checks of a list, the cut at the end of the video — are the workspace package @app/time-ranges, which the web app
 * uses too, so both give the same message for the same row. Here: the JSON body schemas and the CSV writer, which
 * need zod and the exports' number format.
 */
import { MAX_TIME_RANGES, timeRangeProblems } from '@app/time-ranges';
import { z } from 'zod';
import { exportSeconds, formatExportNumber } from './export-numbers.js';

export {
  clipTimeRanges,
  MAX_TIME_RANGES,
  parseTimeRangeCsv,
  TIME_RANGE_MESSAGES,
  type TimeRange,
  timeRangeProblems,
} from '@app/time-ranges';

/** Seconds as the files and messages write them: to the microsecond. */
const seconds = (value: number) => formatExportNumber(exportSeconds(value));

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

/**
 * The CSV the annotations export writes and the import reads back: a header, then the times to the microsecond
 * (the exports' one number format).
 */
export function formatTimeRangeCsv(ranges: readonly (readonly [number, number])[]): string {
  let text = 'start,end\r\n';
  for (const [start, end] of ranges) text += `${seconds(start)},${seconds(end)}\r\n`;
  return text;
}
