import type { ApiRequestBody, ApiResponse } from '@app/api';
import { queryOptions } from '@tanstack/react-query';
import { apiBinary, apiRequest, requireParam } from '@/lib/api-client';
import type { Range, RangeChange } from './bouts';

/** Shapes come from the server's OpenAPI document (packages/api). */
type AnnotationsPath<S extends string> =
  `/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/annotations/${S}`;
export type Track = ApiResponse<AnnotationsPath<'config/{annotation_config_uuid}/'>, 'patch'>;
export type TrackRanges = ApiResponse<AnnotationsPath<'{annotation_config_uuid}/'>, 'get'>;
export type CreateTrackBody = ApiRequestBody<AnnotationsPath<'config/'>, 'post'>;
export type TrackChanges = ApiRequestBody<AnnotationsPath<'config/{annotation_config_uuid}/'>, 'patch'>;
export type TrackPreset = ApiResponse<'/api/projects/{project_uuid}/annotations/presets/', 'get'>['tracks'][number];

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

const base = (ref: AnnotationVideoRef, op: string) =>
  `projects/${requireParam('projectUuid', ref.projectUuid, op)}/subjects/${requireParam('subjectUuid', ref.subjectUuid, op)}/videos/${requireParam('videoUuid', ref.videoUuid, op)}/annotations/`;
const track = (uuid: string, op: string) => requireParam('annotationConfigUuid', uuid, op);

export const annotationsApi = {
  tracks: (ref: AnnotationVideoRef) => apiRequest<Track[]>(`${base(ref, 'annotationsConfigList')}config/`),
  createTrack: (ref: AnnotationVideoRef, body: CreateTrackBody) =>
    apiRequest<Track>(`${base(ref, 'annotationsConfigCreate')}config/`, {
      method: 'POST',
      body: requireParam('body', body, 'annotationsConfigCreate'),
    }),
  updateTrack: (ref: AnnotationVideoRef, uuid: string, body: TrackChanges) =>
    apiRequest<Track>(
      `${base(ref, 'annotationsConfigPartialUpdate')}config/${track(uuid, 'annotationsConfigPartialUpdate')}/`,
      {
        method: 'PATCH',
        body: requireParam('body', body, 'annotationsConfigPartialUpdate'),
      },
    ),
  deleteTrack: (ref: AnnotationVideoRef, uuid: string) =>
    apiRequest<void>(`${base(ref, 'annotationsConfigDestroy')}config/${track(uuid, 'annotationsConfigDestroy')}/`, {
      method: 'DELETE',
    }),
  applyPresets: (ref: AnnotationVideoRef) =>
    apiRequest<Track[]>(`${base(ref, 'annotationsConfigPresets')}config/presets/`, { method: 'POST' }),
  presets: (projectUuid: string) =>
    apiRequest<{ tracks: TrackPreset[] }>(
      `projects/${requireParam('projectUuid', projectUuid, 'annotationsPresets')}/annotations/presets/`,
    ),
  ranges: (ref: AnnotationVideoRef, uuid: string) =>
    apiRequest<TrackRanges>(`${base(ref, 'annotationsRetrieve')}${track(uuid, 'annotationsRetrieve')}/`),
  patchRanges: (ref: AnnotationVideoRef, uuid: string, version: number, change: RangeChange) =>
    apiRequest<TrackRanges>(`${base(ref, 'annotationsPartialUpdate')}${track(uuid, 'annotationsPartialUpdate')}/`, {
      method: 'PATCH',
      body: { version, add: change.add, remove: change.remove },
    }),
  importCsv: (ref: AnnotationVideoRef, uuid: string, file: File, version: number) => {
    const form = new FormData();
    form.set('version', String(version));
    form.set('file', file);
    return apiRequest<TrackRanges>(`${base(ref, 'annotationsImport')}${track(uuid, 'annotationsImport')}/import/`, {
      method: 'POST',
      form,
    });
  },
  exportCsv: (ref: AnnotationVideoRef, uuid: string) =>
    apiBinary(`${base(ref, 'annotationsExport')}${track(uuid, 'annotationsExport')}/export/`, {
      query: { format: 'csv' },
    }),
  exportBoris: (ref: AnnotationVideoRef) =>
    apiBinary(`${base(ref, 'annotationsExportBoris')}export/`, { query: { format: 'boris' } }),
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
