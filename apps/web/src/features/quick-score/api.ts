import type { ApiResponse } from '@app/api';
import { queryOptions } from '@tanstack/react-query';
import { runPath, type VideoRef } from '@/features/analysis/api';
import { type Page, requestHeaders, requireParam } from '@/lib/api-client';
import { api, apiUrl } from '@/lib/api-client-typed';

type PositionPath =
  '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/{analysis_uuid}/review-position/';
export type ReviewPosition = ApiResponse<PositionPath, 'get'>;
export type ProjectLabel = ApiResponse<'/api/projects/{project_uuid}/labels/', 'get'>['results'][number];

const LABEL_PAGE = 500;

export const quickScoreKeys = {
  all: ['quick-score'] as const,
  position: (analysisUuid: string) => [...quickScoreKeys.all, 'position', analysisUuid] as const,
  labels: (projectUuid: string) => [...quickScoreKeys.all, 'labels', projectUuid] as const,
};

const POSITION =
  '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/{analysis_uuid}/review-position/';
const at = (ref: VideoRef, analysisUuid: string) => ({ params: { path: runPath(ref, analysisUuid) } });

export const quickScoreApi = {
  position: (ref: VideoRef, analysisUuid: string): Promise<ReviewPosition> => api.GET(POSITION, at(ref, analysisUuid)),
  savePosition: (ref: VideoRef, analysisUuid: string, eventId: number): Promise<ReviewPosition> =>
    api.PUT(POSITION, { ...at(ref, analysisUuid), body: { event_id: eventId } }),
  /** The same PUT, for a page that is going away: `keepalive` lets it finish after the tab closed. */
  savePositionOnExit: (ref: VideoRef, analysisUuid: string, eventId: number) => {
    void fetch(apiUrl('put', POSITION, { ...at(ref, analysisUuid), body: { event_id: eventId } }), {
      method: 'PUT',
      headers: requestHeaders({ json: true }),
      body: JSON.stringify({ event_id: eventId }),
      credentials: 'same-origin',
      keepalive: true,
    }).catch(() => {});
  },
  /** Every label of the project, by name (a few pages at most). */
  labels: async (projectUuid: string): Promise<string[]> => {
    const names: string[] = [];
    for (let page = 1; ; page++) {
      const answer: Page<ProjectLabel> = await api.GET('/api/projects/{project_uuid}/labels/', {
        params: { path: { project_uuid: projectUuid }, query: { page, page_size: LABEL_PAGE } },
      });
      names.push(...answer.results.map((label) => label.name));
      if (!answer.next) return names;
    }
  },
  createLabel: (projectUuid: string, name: string): Promise<ProjectLabel> =>
    api.POST('/api/projects/{project_uuid}/labels/', {
      params: { path: { project_uuid: projectUuid } },
      body: { name: requireParam('name', name, 'labelsCreate') },
    }),
};

export const quickScoreQueries = {
  position: (ref: VideoRef, analysisUuid: string) =>
    queryOptions({
      queryKey: quickScoreKeys.position(analysisUuid),
      queryFn: () => quickScoreApi.position(ref, analysisUuid),
      // Another machine may have moved on: read it afresh each time the run opens.
      staleTime: 0,
      gcTime: 0,
    }),
  labels: (projectUuid: string) =>
    queryOptions({ queryKey: quickScoreKeys.labels(projectUuid), queryFn: () => quickScoreApi.labels(projectUuid) }),
};
