/**
 * Names of downloaded files: what the file is about (subject, video, run, table), not an id, and safe on every file
 * system — `M3_open-field_movement-2026-11-27_events.csv`. One place builds them and the Content-Disposition that
 * carries them (an ASCII `filename` for old clients, the full UTF-8 name in `filename*`, RFC 6266).
 */

/** Characters no file system takes in a name (Windows' set is the widest), control characters included. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is removed here
const FORBIDDEN = /[<>:"/\\|?*\u0000-\u001f\u007f]+/g;
/** The extensions lab cameras write; a video named after its file loses it in a download's name. */
const VIDEO_EXTENSION = /\.(mp4|m4v|mov|avi|mkv|wmv|flv|webm|mpg|mpeg|mts|m2ts|ts)$/i;
/** Longest part of a name, so that a whole name stays well below the 255 bytes file systems allow. */
const MAX_PART_CHARS = 60;

/** One part of a file name: blanks and forbidden characters become `-`, no dots or dashes at either end. */
export function fileNamePart(text: string): string {
  const clean = text
    .normalize('NFC')
    .replace(VIDEO_EXTENSION, '')
    .replace(FORBIDDEN, '-')
    .replace(/\s+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return [...clean]
    .slice(0, MAX_PART_CHARS)
    .join('')
    .replace(/[-.]+$/, '');
}

/** The parts that have something left after cleaning, joined by `_`, plus the extension; `fallback` when none. */
export function downloadFileName(parts: (string | null | undefined)[], extension: string, fallback = 'export'): string {
  const stem = parts
    .map((part) => fileNamePart(part ?? ''))
    .filter((part) => part !== '')
    .join('_');
  return `${stem || fallback}.${extension}`;
}

/** The day of a date as YYYY-MM-DD (UTC), as file names carry it. */
export const fileDate = (date: Date) => date.toISOString().slice(0, 10);

/** A run's part of a file name: its kind and the day it was made (`movement-2026-11-27`). */
export function runNamePart(run: { kind: string; createdAt: Date }): string {
  const kind =
    run.kind === 'movement_detection'
      ? 'movement'
      : run.kind === 'event_detection'
        ? 'detection'
        : run.kind === 'location_tracking'
          ? 'location'
          : run.kind === 'pose_series'
            ? 'pose'
            : 'import';
  return `${kind}-${fileDate(run.createdAt)}`;
}

/** RFC 5987 percent-encoding for `filename*` (encodeURIComponent leaves these five unescaped). */
const encodeRfc5987 = (text: string) =>
  encodeURIComponent(text).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** `attachment; filename="ascii"; filename*=UTF-8''…`: the ASCII form replaces accents and other letters by `_`. */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(fileName)}`;
}
