import type { ApiRequestBody, ApiResponse } from '@app/api';
import { queryOptions } from '@tanstack/react-query';
import { type Page, requireParam } from '@/lib/api-client';
import { api, apiDownload } from '@/lib/api-client-typed';
import { saveResponse } from '@/lib/download';

/** Shapes come from the server's OpenAPI document (packages/api). */
type RunPath = '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/{analysis_uuid}/';
type VideoAnalysisPath<S extends string> =
  `/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/${S}`;
export type AnalysisRun = ApiResponse<RunPath, 'get'>;
export type AnalysisStatus = AnalysisRun['status'];
export type AnalysisKind = AnalysisRun['kind'];
export type AnalysisSummary = NonNullable<AnalysisRun['summary']>;
export type EventCounts = NonNullable<AnalysisRun['event_counts']>;
export type CreateAnalysisBody = ApiRequestBody<VideoAnalysisPath<''>, 'post'>;
type PreviewAnswer = ApiResponse<VideoAnalysisPath<'create-preview/'>, 'post'>;
export type Preview = Extract<PreviewAnswer, { kind: 'movement_detection' }>;
export type LocationPreview = Extract<PreviewAnswer, { kind: 'location_tracking' }>;
type PreviewWindow = { parameters: Record<string, unknown>; start_s: number; length_s: number };
export type EventsAnswer = ApiResponse<VideoAnalysisPath<'retrieve-events/'>, 'get'>;
export type AnalysisEvent = EventsAnswer['events'][number];
export type UpdateEventsBody = ApiRequestBody<VideoAnalysisPath<'update-events/'>, 'post'>;
export type EventChange = UpdateEventsBody['changes'][number];
export type UpdateEventsAnswer = ApiResponse<VideoAnalysisPath<'update-events/'>, 'post'>;

/** A run's bypass ranges as stored with its parameters ([start, end] seconds). */
export function runBypassRanges(run: Pick<AnalysisRun, 'parameters'>): [number, number][] {
  const raw = run.parameters.bypass_ranges;
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (range): range is [number, number] =>
      Array.isArray(range) && typeof range[0] === 'number' && typeof range[1] === 'number',
  );
}

/** A run still has work ahead: poll it. */
export const isRunActive = (run: Pick<AnalysisRun, 'status'>) => run.status === 'queued' || run.status === 'running';
export const RUN_POLL_MS = 1000;

/** The video a run belongs to, as the calls under .../videos/{v}/analysis/ need it. */
export interface VideoRef {
  projectUuid: string;
  subjectUuid: string;
  videoUuid: string;
}

export interface RunFilters {
  kind?: AnalysisKind;
  status?: AnalysisStatus;
  subject?: string;
  video?: string;
  /** Runs made from this protocol, any version (ADR 031). */
  protocol?: string;
  /** Only runs that found events ('true') or none ('false'). */
  has_events?: 'true' | 'false';
  page?: number;
  page_size?: number;
}

export const analysisKeys = {
  all: ['analysis'] as const,
  lists: () => [...analysisKeys.all, 'list'] as const,
  list: (projectUuid: string, filters: RunFilters = {}) => [...analysisKeys.lists(), projectUuid, filters] as const,
  run: (analysisUuid: string) => [...analysisKeys.all, 'run', analysisUuid] as const,
  series: (analysisUuid: string) => [...analysisKeys.all, 'series', analysisUuid] as const,
  events: (analysisUuid: string) => [...analysisKeys.all, 'events', analysisUuid] as const,
};

const videoPath = (ref: VideoRef) => ({
  project_uuid: ref.projectUuid,
  subject_uuid: ref.subjectUuid,
  video_uuid: ref.videoUuid,
});
const onVideo = (ref: VideoRef) => ({ params: { path: videoPath(ref) } });
/** The path parameters of a run's operations (every feature that calls one builds them here). */
export const runPath = (ref: VideoRef, analysisUuid: string) => ({ ...videoPath(ref), analysis_uuid: analysisUuid });
const onRun = (ref: VideoRef, analysisUuid: string) => ({ path: runPath(ref, analysisUuid) });
const RUN = '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/{analysis_uuid}/';

export const runRef = (run: Pick<AnalysisRun, 'project_uuid' | 'subject_uuid' | 'video_uuid'>): VideoRef => ({
  projectUuid: run.project_uuid,
  subjectUuid: run.subject_uuid,
  videoUuid: run.video_uuid,
});

/** A run's series: values[i] (NaN = bypassed) at times[i], or at i / fps when the run has no times. */
export interface SeriesData {
  values: Float64Array;
  times: Float64Array | null;
  fps: number;
}

async function float64(response: Response): Promise<Float64Array> {
  return new Float64Array(await response.arrayBuffer());
}

const postPreview = (ref: VideoRef, body: PreviewWindow & { kind: PreviewAnswer['kind'] }): Promise<PreviewAnswer> =>
  api.POST('/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/create-preview/', {
    ...onVideo(ref),
    body,
  });

export const analysisApi = {
  list: (projectUuid: string, filters: RunFilters = {}): Promise<Page<AnalysisRun>> =>
    api.GET('/api/projects/{project_uuid}/analysis/', {
      params: { path: { project_uuid: projectUuid }, query: { ...filters } },
    }),
  retrieve: (ref: VideoRef, analysisUuid: string): Promise<AnalysisRun> =>
    api.GET(RUN, { params: onRun(ref, analysisUuid) }),
  create: (ref: VideoRef, body: CreateAnalysisBody): Promise<AnalysisRun> =>
    api.POST('/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/', {
      ...onVideo(ref),
      body,
    }),
  preview: async (ref: VideoRef, body: PreviewWindow): Promise<Preview> => {
    const answer = await postPreview(ref, { kind: 'movement_detection', ...body });
    if (answer.kind !== 'movement_detection') throw new Error('The server answered another kind of preview.');
    return answer;
  },
  locationPreview: async (ref: VideoRef, body: PreviewWindow): Promise<LocationPreview> => {
    const answer = await postPreview(ref, { kind: 'location_tracking', ...body });
    if (answer.kind !== 'location_tracking') throw new Error('The server answered another kind of preview.');
    return answer;
  },
  revoke: (ref: VideoRef, analysisUuid: string): Promise<AnalysisRun> =>
    api.POST(
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/{analysis_uuid}/revoke/',
      { params: onRun(ref, analysisUuid) },
    ),
  /** Moves the run (revoked first if still running) and its events to the project's trash. */
  destroy: (ref: VideoRef, analysisUuid: string): Promise<void> =>
    api.DELETE(RUN, { params: onRun(ref, analysisUuid) }),
  /** The run's events; each one nobody decided on carries a suggestion where its classes reach `minPrecision`. */
  events: (ref: VideoRef, analysisUuid: string, minPrecision?: number): Promise<EventsAnswer> =>
    api.GET('/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/retrieve-events/', {
      params: {
        path: videoPath(ref),
        query: {
          analysis_uuid: requireParam('analysisUuid', analysisUuid, 'analysisRetrieveEvents'),
          ...(minPrecision === undefined ? {} : { min_precision: minPrecision }),
        },
      },
    }),
  updateEvents: (ref: VideoRef, body: UpdateEventsBody): Promise<UpdateEventsAnswer> =>
    api.POST('/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/update-events/', {
      ...onVideo(ref),
      body,
    }),
  timeseriesUrl: (ref: VideoRef, analysisUuid: string): Promise<{ url: string; expires_at: string }> =>
    api.GET(
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/retrieve-timeseries-url/',
      {
        params: {
          path: videoPath(ref),
          query: { analysis_uuid: requireParam('analysisUuid', analysisUuid, 'analysisRetrieveTimeseriesUrl') },
        },
      },
    ),
  /** The series as raw Float64 (one request for values; a second for times when the run has its own). */
  series: async (ref: VideoRef, analysisUuid: string): Promise<SeriesData> => {
    const path =
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/{analysis_uuid}/series/';
    const response = await apiDownload('get', path, { params: onRun(ref, analysisUuid) });
    const fps = Number(response.headers.get('x-fps')) || 30;
    const hasTimes = response.headers.get('x-has-times') === '1';
    const values = await float64(response);
    const times = hasTimes
      ? await float64(
          await apiDownload('get', path, { params: { ...onRun(ref, analysisUuid), query: { part: 'times' } } }),
        )
      : null;
    return { values, times, fps };
  },
  /** Downloads a run's table (events or series) as CSV or XLSX through the browser. */
  download: async (ref: VideoRef, analysisUuid: string, table: 'events' | 'series', format: 'csv' | 'xlsx') => {
    const response = await apiDownload(
      'get',
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/{analysis_uuid}/export/',
      { params: { ...onRun(ref, analysisUuid), query: { table, format } } },
    );
    saveResponse(response, `${table}-${analysisUuid}.${format}`);
  },
  downloadSummary: async (projectUuid: string, format: 'csv' | 'xlsx') => {
    const response = await apiDownload('get', '/api/projects/{project_uuid}/analysis/export/', {
      params: { path: { project_uuid: projectUuid }, query: { format } },
    });
    saveResponse(response, `analysis-summary.${format}`);
  },
};

export const analysisQueries = {
  list: (projectUuid: string, filters: RunFilters = {}) =>
    queryOptions({
      queryKey: analysisKeys.list(projectUuid, filters),
      queryFn: () => analysisApi.list(projectUuid, filters),
      // Follow queued and running runs live.
      refetchInterval: (query) => (query.state.data?.results.some(isRunActive) ? RUN_POLL_MS : false),
    }),
  run: (ref: VideoRef, analysisUuid: string) =>
    queryOptions({
      queryKey: analysisKeys.run(analysisUuid),
      queryFn: () => analysisApi.retrieve(ref, analysisUuid),
      refetchInterval: (query) => (query.state.data && isRunActive(query.state.data) ? RUN_POLL_MS : false),
    }),
  series: (ref: VideoRef, analysisUuid: string) =>
    queryOptions({
      queryKey: analysisKeys.series(analysisUuid),
      queryFn: () => analysisApi.series(ref, analysisUuid),
      // A finished run's series never changes.
      staleTime: Number.POSITIVE_INFINITY,
    }),
  events: (ref: VideoRef, analysisUuid: string) =>
    queryOptions({
      queryKey: analysisKeys.events(analysisUuid),
      queryFn: () => analysisApi.events(ref, analysisUuid),
    }),
};
