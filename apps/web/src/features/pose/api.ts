import type { ApiResponse } from '@app/api';
import { queryOptions } from '@tanstack/react-query';
import { api, apiDownload } from '@/lib/api-client-typed';
import { saveResponse } from '@/lib/download';

const SETS = '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/pose/';
const FRAMES = '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/pose/{pose_uuid}/frames/';
const SET = '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/pose/{pose_uuid}/';
const EXPORT = '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/pose/{pose_uuid}/export/';

/** Shapes come from the server's OpenAPI document (packages/api). */
export type PoseSet = ApiResponse<typeof SETS, 'get'>['results'][number];
export type PoseFrames = ApiResponse<typeof FRAMES, 'get'>['frames'];
export type PoseFrame = PoseFrames[number];

/** The export formats (`…/export/?format=`): DeepLabCut's CSV, and one row per point. */
export const POSE_EXPORTS = [
  { format: 'dlc', label: 'DeepLabCut CSV' },
  { format: 'tidy', label: 'Tidy CSV' },
] as const;
export type PoseExportFormat = (typeof POSE_EXPORTS)[number]['format'];

/** What the import form sends (multipart): the file, and DeepLabCut's config.yaml for the skeleton. */
export interface PoseImport {
  file: File;
  name: string;
  /** Whole frames as typed; empty: none. */
  frameOffset: string;
  config: File | null;
}

export interface PoseVideoRef {
  projectUuid: string;
  subjectUuid: string;
  videoUuid: string;
}

/** The server answers at most this many frames a request. */
export const MAX_FRAMES_PER_REQUEST = 1000;

const path = (ref: PoseVideoRef) => ({
  project_uuid: ref.projectUuid,
  subject_uuid: ref.subjectUuid,
  video_uuid: ref.videoUuid,
});

export const poseKeys = {
  all: ['pose'] as const,
  sets: (ref: PoseVideoRef) => [...poseKeys.all, 'sets', ref.projectUuid, ref.subjectUuid, ref.videoUuid] as const,
};

export const poseApi = {
  sets: (ref: PoseVideoRef): Promise<{ results: PoseSet[] }> => api.GET(SETS, { params: { path: path(ref) } }),
  frames: (ref: PoseVideoRef, poseUuid: string, start: number, count: number): Promise<{ frames: PoseFrames }> =>
    api.GET(FRAMES, { params: { path: { ...path(ref), pose_uuid: poseUuid }, query: { start, count } } }),
  importSet: (ref: PoseVideoRef, upload: PoseImport): Promise<PoseSet> => {
    const form = new FormData();
    if (upload.name.trim()) form.set('name', upload.name.trim());
    if (upload.frameOffset.trim()) form.set('frame_offset', upload.frameOffset.trim());
    form.set('file', upload.file);
    if (upload.config) form.set('config', upload.config);
    return api.POST(SETS, { params: { path: path(ref) }, body: form });
  },
  deleteSet: (ref: PoseVideoRef, poseUuid: string): Promise<void> =>
    api.DELETE(SET, { params: { path: { ...path(ref), pose_uuid: poseUuid } } }),
  /** Downloads a set through the browser, named by the server. */
  exportSet: async (ref: PoseVideoRef, set: Pick<PoseSet, 'pose_uuid' | 'name'>, format: PoseExportFormat) => {
    const response = await apiDownload('get', EXPORT, {
      params: { path: { ...path(ref), pose_uuid: set.pose_uuid }, query: { format } },
    });
    await saveResponse(response, `${set.name}-${format}.csv`);
  },
};

export const poseQueries = {
  sets: (ref: PoseVideoRef) => queryOptions({ queryKey: poseKeys.sets(ref), queryFn: () => poseApi.sets(ref) }),
};
