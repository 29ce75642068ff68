import type { ApiResponse } from '@app/api';
import { queryOptions } from '@tanstack/react-query';
import type { VideoRef } from '@/features/analysis/api';
import { apiRequest, buildUrl, type Page, requestHeaders, requireParam } from '@/lib/api-client';

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

const positionPath = (ref: VideoRef, analysisUuid: string, op: string) =>
  `projects/${requireParam('projectUuid', ref.projectUuid, op)}/subjects/${requireParam('subjectUuid', ref.subjectUuid, op)}/videos/${requireParam('videoUuid', ref.videoUuid, op)}/analysis/${requireParam('analysisUuid', analysisUuid, op)}/review-position/`;

export const quickScoreApi = {
  position: (ref: VideoRef, analysisUuid: string) =>
    apiRequest<ReviewPosition>(positionPath(ref, analysisUuid, 'analysisReviewPositionRetrieve')),
  savePosition: (ref: VideoRef, analysisUuid: string, eventId: number) =>
    apiRequest<ReviewPosition>(positionPath(ref, analysisUuid, 'analysisReviewPositionUpdate'), {
      method: 'PUT',
      body: { event_id: eventId },
    }),
  /** The same PUT, for a page that is going away: `keepalive` lets it finish after the tab closed. */
  savePositionOnExit: (ref: VideoRef, analysisUuid: string, eventId: number) => {
    void fetch(buildUrl(positionPath(ref, analysisUuid, 'analysisReviewPositionUpdate')), {
      method: 'PUT',
      headers: requestHeaders({ json: true }),
      body: JSON.stringify({ event_id: eventId }),
      credentials: 'same-origin',
      keepalive: true,
    }).catch(() => {});
  },
  /** Every label of the project, by name (a few pages at most). */
  labels: async (projectUuid: string): Promise<string[]> => {
    const path = `projects/${requireParam('projectUuid', projectUuid, 'labelsList')}/labels/`;
    const names: string[] = [];
    for (let page = 1; ; page++) {
      const answer = await apiRequest<Page<ProjectLabel>>(path, { query: { page, page_size: LABEL_PAGE } });
      names.push(...answer.results.map((label) => label.name));
      if (!answer.next) return names;
    }
  },
  createLabel: (projectUuid: string, name: string) =>
    apiRequest<ProjectLabel>(`projects/${requireParam('projectUuid', projectUuid, 'labelsCreate')}/labels/`, {
      method: 'POST',
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
