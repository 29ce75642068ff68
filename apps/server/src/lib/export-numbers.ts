/**
 * Numbers as every export writes them (CSV, XLSX, TSV, the series CSV, the time-range CSV) — one place, so that
 * no file shows binary floating-point noise such as `20.199797999999998` or `9.999999999999995`.
 *
 * - The writers write every number with `formatExportNumber`: 12 significant digits. Arithmetic noise lives in a
 *   double's last 3–4 of its ~16 digits (9.999999999999995 is still 9.99999999999999 at 15 digits), and no
 *   measurement here has more than 12 (a frame time, a pixel count, an imported value of 2.5e-7 all stay as they are).
 * - Figures whose precision is known round further before they reach the writer: times to the microsecond
 *   (`exportSeconds`: a frame is milliseconds long), a percentage of frames to the decimals one frame needs
 *   (`exportPercent`), a rate per minute to 0.001 (`exportRate`).
 */

/** The text of a number in an export: 12 significant digits, no trailing zeros; empty for NaN and infinities. */
export function formatExportNumber(value: number): string {
  if (!Number.isFinite(value)) return '';
  if (Number.isInteger(value)) return String(value);
  const clean = Number(value.toPrecision(12));
  return String(clean === 0 ? 0 : clean);
}

/** Seconds to the microsecond (1/30 s → 0.033333); beyond 10⁹ s a double has fewer decimals anyway. */
export function exportSeconds(seconds: number): number;
export function exportSeconds(seconds: number | null): number | null;
export function exportSeconds(seconds: number | null): number | null {
  if (seconds === null || !Number.isFinite(seconds) || Math.abs(seconds) >= 1e9) return seconds;
  const rounded = Math.round(seconds * 1e6) / 1e6;
  return rounded === 0 ? 0 : rounded;
}

/** Most decimals a percentage is written with (one frame of a 12-hour video at 120 fps is 0.00002 %). */
const MAX_PERCENT_DECIMALS = 6;

/**
 * A percentage of `units` things (frames, slices) to the decimals one unit needs, no more: of 100 frames to
 * whole percents, of 1,800 frames to 0.01 %, of 108,000 frames (one is 0.0009 %) to 0.0001 %. Without a known count, 2 decimals.
 */
export function exportPercent(percent: number | null, units?: number | null): number | null {
  if (percent === null || !Number.isFinite(percent)) return null;
  const decimals =
    units && units > 0 ? Math.min(MAX_PERCENT_DECIMALS, Math.max(0, Math.ceil(Math.log10(units / 100)))) : 2;
  const factor = 10 ** decimals;
  const rounded = Math.round(percent * factor) / factor;
  return rounded === 0 ? 0 : rounded;
}

/**
 * A rate per minute to 0.001: one event in the longest video (12 h = 720 min) is 0.0014 per minute, so one event
 * more or less always shows.
 */
export function exportRate(perMinute: number | null): number | null {
  if (perMinute === null || !Number.isFinite(perMinute)) return null;
  return Math.round(perMinute * 1000) / 1000;
}
