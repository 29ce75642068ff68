import type { ApiRequestBody, ApiResponse } from '@app/api';
import { api, apiDownload } from '@/lib/api-client-typed';
import { saveResponse } from '@/lib/download';

/** Shapes come from the server's OpenAPI document (packages/api). */
type VideoPath<S extends string> = `/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/${S}`;
export type AgreementReport = ApiResponse<VideoPath<'agreement/'>, 'post'>;
export type AgreementBody = ApiRequestBody<VideoPath<'agreement/'>, 'post'>;
export type EventFigures = AgreementReport['events'];
export type IntervalFigures = NonNullable<AgreementReport['intervals']>;
export type CalibrationResult = ApiResponse<VideoPath<'analysis/{analysis_uuid}/calibrate/'>, 'post'>;
export type CalibrateBody = ApiRequestBody<VideoPath<'analysis/{analysis_uuid}/calibrate/'>, 'post'>;
export type EventCalibration = Extract<CalibrationResult, { target: 'events' }>;
export type FreezingCalibration = Extract<CalibrationResult, { target: 'freezing' }>;

/** The video a comparison or calibration belongs to. */
export interface AgreementVideoRef {
  projectUuid: string;
  subjectUuid: string;
  videoUuid: string;
}

const onVideo = (ref: AgreementVideoRef) => ({
  project_uuid: ref.projectUuid,
  subject_uuid: ref.subjectUuid,
  video_uuid: ref.videoUuid,
});
const onRun = (ref: AgreementVideoRef, analysisUuid: string) => ({ ...onVideo(ref), analysis_uuid: analysisUuid });

export type ExportFormat = 'csv' | 'xlsx';

export const agreementApi = {
  compare: (ref: AgreementVideoRef, body: AgreementBody): Promise<AgreementReport> =>
    api.POST('/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/agreement/', {
      params: { path: onVideo(ref) },
      body,
    }),
  exportReport: async (ref: AgreementVideoRef, body: AgreementBody, format: ExportFormat) => {
    const response = await apiDownload(
      'post',
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/agreement/export/',
      { params: { path: onVideo(ref), query: { format } }, body },
    );
    await saveResponse(response, `agreement.${format}`);
  },
  calibrate: (ref: AgreementVideoRef, analysisUuid: string, body: CalibrateBody): Promise<CalibrationResult> =>
    api.POST(
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/{analysis_uuid}/calibrate/',
      { params: { path: onRun(ref, analysisUuid) }, body },
    ),
  exportCurve: async (ref: AgreementVideoRef, analysisUuid: string, body: CalibrateBody, format: ExportFormat) => {
    const response = await apiDownload(
      'post',
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/{analysis_uuid}/calibrate/export/',
      { params: { path: onRun(ref, analysisUuid), query: { format } }, body },
    );
    await saveResponse(response, `calibration.${format}`);
  },
};
