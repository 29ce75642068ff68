import type { ApiResponse } from '@app/api';
import { queryOptions } from '@tanstack/react-query';
import { type ListParams, type Page, requireParam } from '@/lib/api-client';
import { api } from '@/lib/api-client-typed';

/** Shapes come from the server's OpenAPI document (packages/api). */
export type Video = ApiResponse<'/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/', 'get'>;
export type VideoStatus = Video['status'];

export const VIDEO_POLL_MS = 2000;
export const isVideoBusy = (video: Pick<Video, 'status'>) =>
  video.status === 'uploading' || video.status === 'processing';
/** The playback copy is still to be made: the player waits for it (the video is analysable meanwhile). */
export const isCopyPreparing = (video: Pick<Video, 'playback_copy'>) =>
  video.playback_copy.state === 'pending' || video.playback_copy.state === 'making';

export const videoKeys = {
  all: ['videos'] as const,
  lists: () => [...videoKeys.all, 'list'] as const,
  list: (projectUuid: string, subjectUuid: string, params: ListParams = {}) =>
    [...videoKeys.lists(), projectUuid, subjectUuid, params] as const,
  recent: (projectUuid: string) => [...videoKeys.all, 'recent', projectUuid] as const,
  inProject: (projectUuid: string, params: ListParams = {}) =>
    [...videoKeys.lists(), projectUuid, 'all-subjects', params] as const,
  details: () => [...videoKeys.all, 'detail'] as const,
  detail: (projectUuid: string, subjectUuid: string, videoUuid: string) =>
    [...videoKeys.details(), projectUuid, subjectUuid, videoUuid] as const,
};

const VIDEOS = '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/';
const VIDEO = '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/';
const at = (projectUuid: string, subjectUuid: string, videoUuid: string) => ({
  params: { path: { project_uuid: projectUuid, subject_uuid: subjectUuid, video_uuid: videoUuid } },
});

export const videosApi = {
  list: (projectUuid: string, subjectUuid: string, params: ListParams = {}): Promise<Page<Video>> =>
    api.GET(VIDEOS, { params: { path: { project_uuid: projectUuid, subject_uuid: subjectUuid }, query: params } }),
  recent: (projectUuid: string): Promise<Page<Video>> =>
    api.GET('/api/projects/{project_uuid}/videos/', {
      params: { path: { project_uuid: projectUuid }, query: { ordering: '-created_at', page_size: 5 } },
    }),
  /** Every video of the project, across its subjects. */
  inProject: (projectUuid: string, params: ListParams = {}): Promise<Page<Video>> =>
    api.GET('/api/projects/{project_uuid}/videos/', { params: { path: { project_uuid: projectUuid }, query: params } }),
  retrieve: (projectUuid: string, subjectUuid: string, videoUuid: string): Promise<Video> =>
    api.GET(VIDEO, at(projectUuid, subjectUuid, videoUuid)),
  update: (
    projectUuid: string,
    subjectUuid: string,
    videoUuid: string,
    body: Partial<Pick<Video, 'name' | 'recorded_at'>>,
  ): Promise<Video> => api.PATCH(VIDEO, { ...at(projectUuid, subjectUuid, videoUuid), body }),
  destroy: (projectUuid: string, subjectUuid: string, videoUuid: string): Promise<void> =>
    api.DELETE(VIDEO, at(projectUuid, subjectUuid, videoUuid)),
  batchDestroy: (projectUuid: string, subjectUuid: string, videoUuids: string[]): Promise<void> =>
    api.POST('/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/batch_destroy/', {
      params: { path: { project_uuid: projectUuid, subject_uuid: subjectUuid } },
      body: { video_uuids: requireParam('videoUuids', videoUuids, 'videosBatchDestroy') },
    }),
};

export const videoQueries = {
  list: (projectUuid: string, subjectUuid: string, params: ListParams = {}) =>
    queryOptions({
      queryKey: videoKeys.list(projectUuid, subjectUuid, params),
      queryFn: () => videosApi.list(projectUuid, subjectUuid, params),
      // Follow uploads, processing and playback copies until every video is ready (and playable) or failed.
      refetchInterval: (query) =>
        query.state.data?.results.some((video) => isVideoBusy(video) || isCopyPreparing(video)) ? VIDEO_POLL_MS : false,
    }),
  recent: (projectUuid: string) =>
    queryOptions({ queryKey: videoKeys.recent(projectUuid), queryFn: () => videosApi.recent(projectUuid) }),
  inProject: (projectUuid: string, params: ListParams = {}) =>
    queryOptions({
      queryKey: videoKeys.inProject(projectUuid, params),
      queryFn: () => videosApi.inProject(projectUuid, params),
    }),
};
