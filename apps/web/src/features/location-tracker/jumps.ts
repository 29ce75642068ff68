/**
 * A location run's jumps (server: location.jumps.ts, ADR 026): the frames where the position moved more than a
 * body length since the previous tracked frame, a page at a time.
 */
import type { ApiResponse } from '@app/api';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { analysisKeys, runPath, type VideoRef } from '@/features/analysis/api';
import { api } from '@/lib/api-client-typed';

type JumpsPath =
  '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/{analysis_uuid}/jumps/';
export type JumpPage = ApiResponse<JumpsPath, 'get'>;
export type Jump = JumpPage['results'][number];
export type JumpOrdering = 'frame' | '-distance_px';

export interface JumpPageRequest {
  page: number;
  pageSize: number;
  ordering: JumpOrdering;
}

export const jumpsApi = {
  page: (ref: VideoRef, analysisUuid: string, request: JumpPageRequest): Promise<JumpPage> =>
    api.GET(
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/{analysis_uuid}/jumps/',
      {
        params: {
          path: runPath(ref, analysisUuid),
          query: { page: request.page, page_size: request.pageSize, ordering: request.ordering },
        },
      },
    ),
};

export const jumpsQuery = (ref: VideoRef, analysisUuid: string, request: JumpPageRequest) =>
  queryOptions({
    queryKey: [...analysisKeys.all, 'jumps', analysisUuid, request] as const,
    queryFn: () => jumpsApi.page(ref, analysisUuid, request),
    // A finished run's jumps never change; the page on screen stays while the next one loads.
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: keepPreviousData,
  });
