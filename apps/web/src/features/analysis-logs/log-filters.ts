/** The log's filters and page live in the URL (?kind&status&subject&video&page&page_size), so links keep them. */

import { PAGE_SIZES } from '@/components/ui/table-pagination';
import type { AnalysisKind, AnalysisStatus, RunFilters } from '@/features/analysis/api';
import { ANALYSIS_KINDS, ANALYSIS_STATUSES } from './run-display';

export const DEFAULT_PAGE_SIZE = 25;

/** The URL keys that narrow the list (page and page size do not). */
export const FILTER_KEYS = ['kind', 'status', 'subject', 'video'] as const;

export interface LogFilters {
  kind?: AnalysisKind;
  status?: AnalysisStatus;
  subject?: string;
  video?: string;
  page: number;
  pageSize: number;
}

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;

/** Reads the filters; unknown kinds or statuses and odd page values fall back to "all" and the defaults. */
export function readLogFilters(params: URLSearchParams): LogFilters {
  const page = Math.floor(Number(params.get('page')));
  const pageSize = Number(params.get('page_size'));
  return {
    kind: oneOf(ANALYSIS_KINDS, params.get('kind')),
    status: oneOf(ANALYSIS_STATUSES, params.get('status')),
    subject: params.get('subject') || undefined,
    video: params.get('video') || undefined,
    page: page >= 1 ? page : 1,
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
  };
}

export const hasNarrowingFilters = (filters: LogFilters) => FILTER_KEYS.some((key) => filters[key] !== undefined);

/** The list call's filters (only what is set, so equal filters share one cache entry). */
export function toRunFilters(filters: LogFilters): RunFilters {
  const out: RunFilters = { page: filters.page, page_size: filters.pageSize };
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value !== undefined) Object.assign(out, { [key]: value });
  }
  return out;
}
