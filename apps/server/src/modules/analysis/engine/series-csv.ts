import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { exportSeconds, formatExportNumber } from '../../../lib/export-numbers.js';
import type { Series } from './events.js';

/**
 * Writes a series as the CSV users download: `frame,time_s,value`, an empty value for a bypassed frame.
 * For an imported series with its own times, `frame` is the video frame shown at that time.
 */
export async function writeSeriesCsv(path: string, series: Series): Promise<void> {
  const out = createWriteStream(path);
  try {
    let batch = 'frame,time_s,value\n';
    const { values, times, fps } = series;
    for (let i = 0; i < values.length; i++) {
      const time = times ? times[i]! : i / fps;
      const frame = times ? Math.round(time * fps) : i;
      const value = values[i]!;
      batch += `${frame},${formatTime(time)},${formatExportNumber(value)}\n`;
      if (batch.length > 1 << 16) {
        if (!out.write(batch)) await once(out, 'drain');
        batch = '';
      }
    }
    out.end(batch);
    await once(out, 'finish');
  } finally {
    out.destroy();
  }
}

/** Seconds with microsecond precision and no trailing zeros (1/30 s → 0.033333): the exports' one number format. */
export function formatTime(seconds: number): string {
  return formatExportNumber(exportSeconds(seconds));
}
