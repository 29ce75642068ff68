import type { ApiRequestBody, ApiResponse, paths } from '@app/api';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Page } from '@/lib/api-client';
import { api, apiDownload } from '@/lib/api-client-typed';
import { saveResponse } from '@/lib/download';

// Shapes come from the server's OpenAPI document (packages/api); the rules are the server's ADR 035.
const BATCHES = '/api/projects/{project_uuid}/batches/';
const BATCH = '/api/projects/{project_uuid}/batches/{batch_uuid}/';

/** A batch with each video's newest run. */
export type Batch = ApiResponse<typeof BATCH, 'get'>;
export type BatchSummary = Omit<Batch, 'runs'>;
export type BatchRun = Batch['runs'][number];
export type CreateBatchBody = ApiRequestBody<typeof BATCHES, 'post'>;
/** What each video's run would use, as the server checks a batch without making it. */
export type BatchCheck = ApiResponse<'/api/projects/{project_uuid}/batches/check/', 'post'>;
const RESULTS = '/api/projects/{project_uuid}/batches/{batch_uuid}/results/';
const PROTOCOL_RESULTS = '/api/projects/{project_uuid}/protocols/{protocol_uuid}/results/';
const STATISTICS = '/api/projects/{project_uuid}/batches/{batch_uuid}/statistics/';
const FIGURE = '/api/projects/{project_uuid}/batches/{batch_uuid}/statistics/figure/';
/** A page of a results table: its columns (role, unit), the measures' meanings, and rows of cells. */
export type Results = ApiResponse<typeof RESULTS, 'get'>;
export type ResultCell = Results['results'][number][number];
export type Statistics = ApiResponse<typeof STATISTICS, 'get'>;
export type MeasureStatistics = Statistics['measures'][number];
export type TableFormat = 'csv' | 'xlsx';
export type TableLayout = 'wide' | 'long';
/** The statistics' two tables (one CSV each; the XLSX holds both), as the server's document names them. */
export type StatisticsTable = NonNullable<NonNullable<paths[typeof STATISTICS]['get']['parameters']['query']>['table']>;
/** Whose results: one batch's, or a protocol's across all its batches. */
export type ResultsSource = { batchUuid: string } | { protocolUuid: string };

/** How often a batch with work ahead is read again (as the run pages poll their runs). */
export const BATCH_POLL_MS = 1000;
export const BATCH_PAGE_SIZE = 25;

export interface BatchListParams {
  page?: number;
  page_size?: number;
  protocol_uuid?: string;
}

export const batchKeys = {
  all: ['batches'] as const,
  results: (projectUuid: string, source: ResultsSource, page: number, pageSize: number) =>
    [...batchKeys.all, 'results', projectUuid, source, page, pageSize] as const,
  statistics: (projectUuid: string, batchUuid: string) =>
    [...batchKeys.all, 'statistics', projectUuid, batchUuid] as const,
  figure: (projectUuid: string, batchUuid: string, measure: string) =>
    [...batchKeys.all, 'figure', projectUuid, batchUuid, measure] as const,
  lists: () => [...batchKeys.all, 'list'] as const,
  list: (projectUuid: string, params: BatchListParams) => [...batchKeys.lists(), projectUuid, params] as const,
  details: () => [...batchKeys.all, 'detail'] as const,
  detail: (projectUuid: string, batchUuid: string) => [...batchKeys.details(), projectUuid, batchUuid] as const,
};

const inProject = (projectUuid: string) => ({ path: { project_uuid: projectUuid } });
const onBatch = (projectUuid: string, batchUuid: string) => ({
  path: { project_uuid: projectUuid, batch_uuid: batchUuid },
});

export const batchesApi = {
  list: (projectUuid: string, params: BatchListParams = {}): Promise<Page<BatchSummary>> =>
    api.GET(BATCHES, { params: { ...inProject(projectUuid), query: params } }),
  retrieve: (projectUuid: string, batchUuid: string): Promise<Batch> =>
    api.GET(BATCH, { params: onBatch(projectUuid, batchUuid) }),
  create: (projectUuid: string, body: CreateBatchBody): Promise<Batch> =>
    api.POST(BATCHES, { params: inProject(projectUuid), body }),
  /** The same request as `create`, checked and answered with each video's parameters; nothing is made. */
  check: (projectUuid: string, body: CreateBatchBody): Promise<BatchCheck> =>
    api.POST('/api/projects/{project_uuid}/batches/check/', { params: inProject(projectUuid), body }),
  retry: (projectUuid: string, batchUuid: string): Promise<Batch> =>
    api.POST('/api/projects/{project_uuid}/batches/{batch_uuid}/retry/', { params: onBatch(projectUuid, batchUuid) }),
  stop: (projectUuid: string, batchUuid: string): Promise<Batch> =>
    api.POST('/api/projects/{project_uuid}/batches/{batch_uuid}/stop/', { params: onBatch(projectUuid, batchUuid) }),
};

const resultsOf = (projectUuid: string, source: ResultsSource, query: Record<string, string | number>) =>
  'batchUuid' in source
    ? apiDownload('get', RESULTS, { params: { ...onBatch(projectUuid, source.batchUuid), query } })
    : apiDownload('get', PROTOCOL_RESULTS, {
        params: { path: { project_uuid: projectUuid, protocol_uuid: source.protocolUuid }, query },
      });

export const resultsApi = {
  /** A page of the wide table (JSON), for the page. */
  page: (projectUuid: string, source: ResultsSource, page: number, pageSize: number): Promise<Results> =>
    'batchUuid' in source
      ? api.GET(RESULTS, {
          params: { ...onBatch(projectUuid, source.batchUuid), query: { format: 'json', page, page_size: pageSize } },
        })
      : api.GET(PROTOCOL_RESULTS, {
          params: {
            path: { project_uuid: projectUuid, protocol_uuid: source.protocolUuid },
            query: { format: 'json', page, page_size: pageSize },
          },
        }),
  /** The whole table as a file, under the server's name. */
  download: async (projectUuid: string, source: ResultsSource, format: TableFormat, layout: TableLayout) => {
    saveResponse(await resultsOf(projectUuid, source, { format, layout }), `results-${layout}.${format}`);
  },
  statistics: (projectUuid: string, batchUuid: string): Promise<Statistics> =>
    api.GET(STATISTICS, { params: { ...onBatch(projectUuid, batchUuid), query: { format: 'json' } } }),
  downloadStatistics: async (projectUuid: string, batchUuid: string, format: TableFormat, table: StatisticsTable) => {
    const response = await apiDownload('get', STATISTICS, {
      params: { ...onBatch(projectUuid, batchUuid), query: format === 'csv' ? { format, table } : { format } },
    });
    saveResponse(response, format === 'csv' ? `${table}.csv` : 'statistics.xlsx');
  },
  figure: (projectUuid: string, batchUuid: string, measure: string, format: 'png' | 'svg') =>
    apiDownload('get', FIGURE, { params: { ...onBatch(projectUuid, batchUuid), query: { measure, format } } }),
};

/** A batch has work ahead while any video's newest run is queued or running. */
export const isBatchActive = (batch: Pick<BatchSummary, 'status'>) => batch.status === 'running';

export const batchQueries = {
  list: (projectUuid: string, params: BatchListParams) =>
    queryOptions({
      queryKey: batchKeys.list(projectUuid, params),
      queryFn: () => batchesApi.list(projectUuid, params),
      placeholderData: keepPreviousData,
      refetchInterval: (query) => (query.state.data?.results.some(isBatchActive) ? BATCH_POLL_MS : false),
    }),
  detail: (projectUuid: string, batchUuid: string) =>
    queryOptions({
      queryKey: batchKeys.detail(projectUuid, batchUuid),
      queryFn: () => batchesApi.retrieve(projectUuid, batchUuid),
      refetchInterval: (query) => (query.state.data && isBatchActive(query.state.data) ? BATCH_POLL_MS : false),
    }),
};

/**
 * Results, statistics and plots change while a batch runs (each finished run adds its row): they are read again
 * whenever the batch's counts change (`version`), never polled on their own.
 */
export const resultQueries = {
  page: (projectUuid: string, source: ResultsSource, page: number, pageSize: number, version: string) =>
    queryOptions({
      queryKey: [...batchKeys.results(projectUuid, source, page, pageSize), version] as const,
      queryFn: () => resultsApi.page(projectUuid, source, page, pageSize),
      placeholderData: keepPreviousData,
    }),
  statistics: (projectUuid: string, batchUuid: string, version: string) =>
    queryOptions({
      queryKey: [...batchKeys.statistics(projectUuid, batchUuid), version] as const,
      queryFn: () => resultsApi.statistics(projectUuid, batchUuid),
      placeholderData: keepPreviousData,
    }),
  figure: (projectUuid: string, batchUuid: string, measure: string, version: string) =>
    queryOptions({
      queryKey: [...batchKeys.figure(projectUuid, batchUuid, measure), version] as const,
      queryFn: async () => (await resultsApi.figure(projectUuid, batchUuid, measure, 'svg')).blob(),
    }),
};

export const batchPath = (projectUuid: string, batchUuid: string) => `/projects/${projectUuid}/batches/${batchUuid}`;
