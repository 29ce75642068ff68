import type { ApiRequestBody, ApiResponse } from '@app/api';
import { queryOptions } from '@tanstack/react-query';
import { api, apiDownload } from '@/lib/api-client-typed';
import type { Range, RangeChange } from './bouts';

/** Shapes come from the server's OpenAPI document (packages/api). */
type AnnotationsPath<S extends string> =
  `/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/annotations/${S}`;
export type Track = ApiResponse<AnnotationsPath<'config/{annotation_config_uuid}/'>, 'patch'>;
export type TrackRanges = ApiResponse<AnnotationsPath<'{annotation_config_uuid}/'>, 'get'>;
export type CreateTrackBody = ApiRequestBody<AnnotationsPath<'config/'>, 'post'>;
export type TrackChanges = ApiRequestBody<AnnotationsPath<'config/{annotation_config_uuid}/'>, 'patch'>;
export type TrackPreset = ApiResponse<'/api/projects/{project_uuid}/annotations/presets/', 'get'>['tracks'][number];
export type FillFromSeriesBody = ApiRequestBody<AnnotationsPath<'fill-from-series/'>, 'post'>;
export type FillFromSeriesAnswer = ApiResponse<AnnotationsPath<'fill-from-series/'>, 'post'>;

/** The body of a 409 on a track's ranges: the version and ranges the server has now. */
export interface RangesConflict {
  errors: string;
  version: number;
  ranges: Range[];
}

/** The video whose annotations the calls read and write. */
export interface AnnotationVideoRef {
  projectUuid: string;
  subjectUuid: string;
  videoUuid: string;
}

export const annotationKeys = {
  all: ['annotations'] as const,
  tracks: (videoUuid: string) => [...annotationKeys.all, 'tracks', videoUuid] as const,
  presets: (projectUuid: string) => [...annotationKeys.all, 'presets', projectUuid] as const,
  ranges: (trackUuid: string) => [...annotationKeys.all, 'ranges', trackUuid] as const,
};

const videoPath = (ref: AnnotationVideoRef) => ({
  project_uuid: ref.projectUuid,
  subject_uuid: ref.subjectUuid,
  video_uuid: ref.videoUuid,
});
const onVideo = (ref: AnnotationVideoRef) => ({ params: { path: videoPath(ref) } });
const onTrack = (ref: AnnotationVideoRef, uuid: string) => ({
  params: { path: { ...videoPath(ref), annotation_config_uuid: uuid } },
});

export const annotationsApi = {
  tracks: (ref: AnnotationVideoRef): Promise<Track[]> =>
    api.GET(
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/annotations/config/',
      onVideo(ref),
    ),
  createTrack: (ref: AnnotationVideoRef, body: CreateTrackBody): Promise<Track> =>
    api.POST('/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/annotations/config/', {
      ...onVideo(ref),
      body,
    }),
  updateTrack: (ref: AnnotationVideoRef, uuid: string, body: TrackChanges): Promise<Track> =>
    api.PATCH(
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/annotations/config/{annotation_config_uuid}/',
      { ...onTrack(ref, uuid), body },
    ),
  deleteTrack: (ref: AnnotationVideoRef, uuid: string): Promise<void> =>
    api.DELETE(
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/annotations/config/{annotation_config_uuid}/',
      onTrack(ref, uuid),
    ),
  applyPresets: (ref: AnnotationVideoRef): Promise<Track[]> =>
    api.POST(
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/annotations/config/presets/',
      onVideo(ref),
    ),
  presets: (projectUuid: string): Promise<{ tracks: TrackPreset[] }> =>
    api.GET('/api/projects/{project_uuid}/annotations/presets/', { params: { path: { project_uuid: projectUuid } } }),
  ranges: (ref: AnnotationVideoRef, uuid: string): Promise<TrackRanges> =>
    api.GET(
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/annotations/{annotation_config_uuid}/',
      onTrack(ref, uuid),
    ),
  patchRanges: (ref: AnnotationVideoRef, uuid: string, version: number, change: RangeChange): Promise<TrackRanges> =>
    api.PATCH(
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/annotations/{annotation_config_uuid}/',
      { ...onTrack(ref, uuid), body: { version, add: change.add, remove: change.remove } },
    ),
  importCsv: (ref: AnnotationVideoRef, uuid: string, file: File, version: number): Promise<TrackRanges> => {
    const form = new FormData();
    form.set('version', String(version));
    form.set('file', file);
    return api.POST(
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/annotations/{annotation_config_uuid}/import/',
      { ...onTrack(ref, uuid), body: form },
    );
  },
  /** Bouts where a run's series meets a rule, into a new track or one of the video's (ADR 037). */
  fillFromSeries: (ref: AnnotationVideoRef, body: FillFromSeriesBody): Promise<FillFromSeriesAnswer> =>
    api.POST('/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/annotations/fill-from-series/', {
      ...onVideo(ref),
      body,
    }),
  exportCsv: (ref: AnnotationVideoRef, uuid: string) =>
    apiDownload(
      'get',
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/annotations/{annotation_config_uuid}/export/',
      { params: { ...onTrack(ref, uuid).params, query: { format: 'csv' } } },
    ),
  exportBoris: (ref: AnnotationVideoRef) =>
    apiDownload('get', '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/annotations/export/', {
      params: { path: videoPath(ref), query: { format: 'boris' } },
    }),
};

export const annotationQueries = {
  tracks: (ref: AnnotationVideoRef) =>
    queryOptions({ queryKey: annotationKeys.tracks(ref.videoUuid), queryFn: () => annotationsApi.tracks(ref) }),
  presets: (projectUuid: string) =>
    queryOptions({ queryKey: annotationKeys.presets(projectUuid), queryFn: () => annotationsApi.presets(projectUuid) }),
  /** One track's bouts, for pages that show them without editing (the Annotator keeps its own list). */
  ranges: (ref: AnnotationVideoRef, trackUuid: string) =>
    queryOptions({ queryKey: annotationKeys.ranges(trackUuid), queryFn: () => annotationsApi.ranges(ref, trackUuid) }),
};
