/** How a batch's results and statistics read on the page (the files carry the full numbers). Pure, so unit-tested. */
import { formatNumber } from '@/features/analysis-logs/run-display';
import type { MeasureStatistics, ResultCell } from './api';

/** A figure to four significant digits, very small or large ones in e-notation; null is a dash. */
export function formatFigure(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  if (value === 0) return '0';
  const size = Math.abs(value);
  if (size >= 1e-3 && size < 1e6) return String(Number(value.toPrecision(4)));
  return value.toExponential(2);
}

/** A p-value: three significant digits, and below 0.001 in e-notation so it is never read as zero. */
export function formatP(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '—';
  if (p >= 0.001) return String(Number(p.toPrecision(3)));
  return p.toExponential(2);
}

/** A results cell: numbers without float noise, yes/no, empty as a dash. */
export function formatCell(cell: ResultCell): string {
  if (cell === null || cell === '') return '—';
  if (typeof cell === 'number') return formatNumber(cell, 4);
  if (typeof cell === 'boolean') return cell ? 'yes' : 'no';
  return cell;
}

type Test = MeasureStatistics['tests'][number];

/** Degrees of freedom as a methods section writes them: "12.4", or "2, 7.9" for F. */
export function formatDf(test: Pick<Test, 'df1' | 'df2'>): string {
  if (test.df1 === null) return '—';
  const one = formatFigure(test.df1);
  return test.df2 === null ? one : `${one}, ${formatFigure(test.df2)}`;
}

/** How the p-value was found: exactly (Mann–Whitney on small samples without ties) or from which distribution. */
export function pMethod(test: Pick<Test, 'test' | 'statistic_name' | 'p'>): string {
  if (test.p === null) return '—';
  if (test.statistic_name === 'U') return /\(exact\)/.test(test.test) ? 'exact' : 'normal approximation';
  if (test.statistic_name === 't') return 't distribution';
  if (test.statistic_name === 'F') return 'F distribution';
  if (test.statistic_name === 'H') return 'χ² approximation';
  return '—';
}

/** A measure's name and unit for a select or a heading: "detected_events (events)". */
export const measureLabel = (measure: Pick<MeasureStatistics, 'name' | 'unit'>) =>
  measure.unit ? `${measure.name} (${measure.unit})` : measure.name;
