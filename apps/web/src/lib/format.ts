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
