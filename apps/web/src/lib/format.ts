/** Display formatters, as the spec's §9 fixes them. */

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Bytes in steps of 1024 (B … TB); zero reads '0 GB'. */
export function formatBytes(bytes: number | null | undefined, decimals = 1): string {
  if (bytes == null || !Number.isFinite(bytes) || bytes <= 0) return '0 GB';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), SIZE_UNITS.length - 1);
  const value = bytes / 1024 ** exponent;
  const rounded = exponent === 0 ? String(Math.round(value)) : String(Number(value.toFixed(decimals)));
  return `${rounded} ${SIZE_UNITS[exponent]}`;
}

/** Seconds to hours (a plain division by 3600). */
export function secondsToHours(seconds: number): number {
  return seconds / 3600;
}

/**
 * The app's one time format (ADR 016): h:mm:ss.mmm, truncated to the millisecond — never rounded up, so a time
 * shows the second it is in, as a frame's start time does. Float noise is absorbed first: 4.35 s is 4349.999…ms
 * in binary and 0.1 + 0.2 is 0.30000000000000004, yet they read 0:00:04.350 and 0:00:00.300.
 */
export function formatTime(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds)) return '—';
  const sign = seconds < 0 ? '−' : '';
  const millis = Math.floor(Math.abs(seconds) * 1000 + 1e-6);
  const whole = Math.floor(millis / 1000);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  return `${sign}${hours}:${pad(minutes, 2)}:${pad(whole % 60, 2)}.${pad(millis % 1000, 3)}`;
}

/** A time and the frame it names (the frame whose start is nearest): "0:12:56.659 · frame 23300". */
export function formatTimeAndFrame(seconds: number | null | undefined, fps: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds)) return '—';
  if (fps == null || !Number.isFinite(fps) || fps <= 0) return formatTime(seconds);
  return `${formatTime(seconds)} · frame ${Math.max(0, Math.round(seconds * fps))}`;
}

/**
 * Frame `frame` as a timecode, m:ss+ff (h:mm:ss+ff past an hour): the whole second the frame starts in, and the
 * frame's place within that second. The place never reaches the frame rate: at 30 fps frame 150 starts at exactly
 * 5 s and reads 0:05+00f, not 0:04+30f; at 29.97 fps the first frame of second s is the first whose start is ≥ s.
 */
export function formatTimecode(frame: number, fps: number): string {
  const n = Math.max(0, Math.round(frame));
  const second = Math.floor(n / fps + 1e-9);
  const firstOfSecond = Math.ceil(second * fps - 1e-9);
  const place = Math.max(0, n - firstOfSecond);
  const hours = Math.floor(second / 3600);
  const minutes = Math.floor((second % 3600) / 60);
  const clock = hours > 0 ? `${hours}:${pad(minutes, 2)}:${pad(second % 60, 2)}` : `${minutes}:${pad(second % 60, 2)}`;
  return `${clock}+${pad(place, String(Math.max(1, Math.ceil(fps) - 1)).length)}f`;
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** A duration as mm:ss; minutes keep counting past an hour (75:03). */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds) || seconds < 0) return '00:00';
  const whole = Math.floor(seconds);
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  return `${String(minutes).padStart(2, '0')}:${String(rest).padStart(2, '0')}`;
}

const dateFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** A date in en-US long format with hour and minute: "March 5, 2026 at 2:07 PM". */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value == null || value === '') return '—';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return dateFormat.format(date);
}

/** Frames per second with at most two decimals (29.97, 30). */
export function formatFps(fps: number | null | undefined): string {
  if (fps == null || !Number.isFinite(fps) || fps <= 0) return '—';
  return `${Number(fps.toFixed(2))} fps`;
}

export function formatResolution(width: number | null | undefined, height: number | null | undefined): string {
  if (!width || !height) return '—';
  return `${width}×${height}`;
}

/** A count with its noun, singular for exactly one: "1 bout", "0 bouts", "2 analyses" (with the plural given). */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : plural}`;
}
