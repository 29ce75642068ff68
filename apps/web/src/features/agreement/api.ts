import type { ApiRequestBody, ApiResponse } from '@app/api';
import { apiBinary, apiRequest, requireParam } from '@/lib/api-client';
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

const videoBase = (ref: AgreementVideoRef, op: string) =>
  `projects/${requireParam('projectUuid', ref.projectUuid, op)}/subjects/${requireParam('subjectUuid', ref.subjectUuid, op)}/videos/${requireParam('videoUuid', ref.videoUuid, op)}/`;
const calibrateBase = (ref: AgreementVideoRef, analysisUuid: string, op: string) =>
  `${videoBase(ref, op)}analysis/${requireParam('analysisUuid', analysisUuid, op)}/calibrate/`;

export type ExportFormat = 'csv' | 'xlsx';

export const agreementApi = {
  compare: (ref: AgreementVideoRef, body: AgreementBody) =>
    apiRequest<AgreementReport>(`${videoBase(ref, 'agreementCompare')}agreement/`, {
      method: 'POST',
      body: requireParam('body', body, 'agreementCompare'),
    }),
  exportReport: async (ref: AgreementVideoRef, body: AgreementBody, format: ExportFormat) => {
    const response = await apiBinary(`${videoBase(ref, 'agreementExport')}agreement/export/`, {
      method: 'POST',
      query: { format },
      body: requireParam('body', body, 'agreementExport'),
    });
    await saveResponse(response, `agreement.${format}`);
  },
  calibrate: (ref: AgreementVideoRef, analysisUuid: string, body: CalibrateBody) =>
    apiRequest<CalibrationResult>(calibrateBase(ref, analysisUuid, 'analysisCalibrate'), {
      method: 'POST',
      body: requireParam('body', body, 'analysisCalibrate'),
    }),
  exportCurve: async (ref: AgreementVideoRef, analysisUuid: string, body: CalibrateBody, format: ExportFormat) => {
    const response = await apiBinary(`${calibrateBase(ref, analysisUuid, 'analysisCalibrateExport')}export/`, {
      method: 'POST',
      query: { format },
      body: requireParam('body', body, 'analysisCalibrateExport'),
    });
    await saveResponse(response, `calibration.${format}`);
  },
};
