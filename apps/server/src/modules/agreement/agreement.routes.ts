import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fileDate } from '../../lib/download-names.js';
import { projectErrorResponses } from '../../lib/openapi.js';
import { videoScope } from '../../lib/project-scope.js';
import { sendTables } from '../../lib/table-reply.js';
import { analysisParams, analysisVideoParams } from '../analysis/analysis.schemas.js';
import {
  agreementReportSheets,
  agreementReportTable,
  calibrationCurveTable,
  calibrationSheets,
} from './agreement.exports.js';
import {
  agreementBody,
  agreementResponse,
  calibrateBody,
  calibrationResponse,
  exportFormatQuery,
} from './agreement.schemas.js';
import * as service from './agreement.service.js';

const tags = ['agreement'];
const videoBase = '/projects/:project_uuid/subjects/:subject_uuid/videos/:video_uuid';
const fileResponse = z.any().meta({ description: 'The file (CSV or XLSX)', type: 'string', format: 'binary' });
/** Uploaded scorings can be long lists (100,000 ranges is about 3 MB of JSON). */
const BODY_LIMIT = 8 * 1024 * 1024;

const AGREEMENT_DESCRIPTION =
  'Body `{reference, candidate, tolerance_s = 0.2, slice_s = one frame, bin_s = 60}`; each side is `{kind: run_detected | run_reviewed | track | upload, analysis_uuid?, label?, annotation_config_uuid?, events?, ranges?}`. Event agreement always (tracks and ranges compare by their starts); interval agreement when both sides have ranges. Definitions: docs/decisions/010-agreement-and-calibration.md. A read: viewers may call it.';
const CALIBRATE_DESCRIPTION =
  'Body `{reference, target: events | freezing, …}`. Events: `k {from, to, step}` (default 1 to 10 by 0.1) or `threshold {from, to, step}` (absolute), `refractory_s [..]` (default the run’s), `tolerance_s` (0.2), scored by F1. Freezing: `freeze_threshold {from, to, step}` (default 0 to twice the noise top in 40 steps), `min_freeze_s [..]`, `bin_s` (the run’s, else 60), against a reference with ranges, scored by r, slope and mean absolute difference of the binned %. Answers every setting, the best one (its `parameters` can be posted as an event_detection run on this run’s series) and warnings. Nothing is stored; no video is decoded.';

export default async function agreementRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  api.post(
    `${videoBase}/agreement/`,
    {
      onRequest: app.authenticate,
      bodyLimit: BODY_LIMIT,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: 'How well two scorings of the video agree: events within a tolerance, and intervals frame by frame',
        description: AGREEMENT_DESCRIPTION,
        params: analysisVideoParams,
        body: agreementBody,
        response: { 200: agreementResponse, ...projectErrorResponses },
      },
    },
    async (request) => service.compareScorings(ctx, videoScope(request).video, request.body),
  );

  api.post(
    `${videoBase}/agreement/export/`,
    {
      onRequest: app.authenticate,
      bodyLimit: BODY_LIMIT,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: 'The agreement report as CSV (one long table) or XLSX (summary, events, bins, disagreements)',
        description: 'The same body as `agreement/`; `?format=csv|xlsx`.',
        params: analysisVideoParams,
        querystring: exportFormatQuery,
        body: agreementBody,
        response: { 200: fileResponse, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const report = await service.compareScorings(ctx, videoScope(request).video, request.body);
      const format = request.query.format;
      const tables = format === 'csv' ? [agreementReportTable(report)] : agreementReportSheets(report);
      const { subject, video } = videoScope(request);
      return sendTables(reply, tables, format, [subject.name, video.name, `agreement-${fileDate(new Date())}`]);
    },
  );

  api.post(
    `${videoBase}/analysis/:analysis_uuid/calibrate/`,
    {
      onRequest: app.authenticate,
      bodyLimit: BODY_LIMIT,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "Sweep a run's detection settings on its stored series against a reference scoring",
        description: CALIBRATE_DESCRIPTION,
        params: analysisParams,
        body: calibrateBody,
        response: { 200: calibrationResponse, ...projectErrorResponses },
      },
    },
    async (request) => service.calibrate(ctx, videoScope(request).video, request.params.analysis_uuid, request.body),
  );

  api.post(
    `${videoBase}/analysis/:analysis_uuid/calibrate/export/`,
    {
      onRequest: app.authenticate,
      bodyLimit: BODY_LIMIT,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: 'The calibration curve as CSV (one row per setting) or XLSX (curve, summary, bins)',
        description: 'The same body as `calibrate/`; `?format=csv|xlsx`.',
        params: analysisParams,
        querystring: exportFormatQuery,
        body: calibrateBody,
        response: { 200: fileResponse, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const result = await service.calibrate(
        ctx,
        videoScope(request).video,
        request.params.analysis_uuid,
        request.body,
      );
      const format = request.query.format;
      const tables = format === 'csv' ? [calibrationCurveTable(result)] : calibrationSheets(result);
      const { subject, video } = videoScope(request);
      return sendTables(reply, tables, format, [subject.name, video.name, `calibration-${fileDate(new Date())}`]);
    },
  );
}
