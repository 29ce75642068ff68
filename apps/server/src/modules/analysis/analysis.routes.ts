import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachmentDisposition } from '../../lib/download-names.js';
import { errorSchema, noContent, projectErrorResponses } from '../../lib/openapi.js';
import { pageSchema } from '../../lib/pagination.js';
import { projectScope, videoScope } from '../../lib/project-scope.js';
import { sendTables } from '../../lib/table-reply.js';
import { suggestionSource } from '../suggestions/suggestions.cache.js';
import * as trash from '../trash/trash.service.js';
import { createAnalysis } from './analysis.create.js';
import * as events from './analysis.events.js';
import {
  eventsResponse,
  retrieveEventsQuery,
  reviewPositionBody,
  reviewPositionSchema,
  runSelectorQuery,
  updateEventsBody,
  updateEventsResponse,
} from './analysis.events.schemas.js';
import { projectSummaryTables } from './analysis.exports.js';
import * as read from './analysis.read.js';
import {
  analysisListQuery,
  analysisParams,
  analysisSchema,
  analysisVideoParams,
  createAnalysisBody,
  createdAnalysisSchema,
  exportQuery,
  previewBody,
  previewResponse,
  projectAnalysisParams,
  seriesQuery,
  summaryExportQuery,
  timeseriesUrlResponse,
} from './analysis.schemas.js';
import * as service from './analysis.service.js';
import { locationFigure } from './location.figure.js';
import { figureQuery } from './location.schemas.js';

const tags = ['analysis'];
const base = '/projects/:project_uuid/subjects/:subject_uuid/videos/:video_uuid/analysis';

const fileResponse = z.any().meta({ description: 'The file (CSV or XLSX)', type: 'string', format: 'binary' });
const figureResponse = z.any().meta({ description: 'The figure (PNG or SVG)', type: 'string', format: 'binary' });

export default async function analysisRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  api.post(
    `${base}/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member', work: 'process' },
      schema: {
        tags,
        summary:
          'Start an analysis run (movement_detection, location_tracking, pose_series from a pose set, or event_detection on an earlier run)',
        description:
          'Body `{kind, parameters, source_analysis_uuid}`. Unknown or out-of-range parameters are 400 with one message per field (`parameters.threshold`…); every default is filled in and kept with the run. Re-run = create again with the same or edited parameters. `pose_series` (ADR 032, 037): `{pose_uuid, measure: speed|distance|angle, individual?, parts, likelihood_cutoff = 0.6, max_gap_frames = 5, scale?}` — a series per video frame that event_detection reads; each entry of `parts` is a body part of `individual` (a name) or `{individual, part}`, so one measure can take parts of different individuals.',
        params: analysisVideoParams,
        body: createAnalysisBody,
        response: { 201: createdAnalysisSchema, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { user, video } = videoScope(request);
      const { analysisUuid, notices } = await createAnalysis(ctx, video, user.id, request.body);
      return reply.status(201).send({ ...(await read.getAnalysis(ctx, video, analysisUuid)), notices });
    },
  );

  api.post(
    `${base}/create-preview/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member', work: 'process' },
      schema: {
        tags,
        summary: 'Movement detection or location tracking on a short window (≤ 10 s), answered at once, with a picture',
        description:
          "Body `{kind, parameters, start_s, length_s}`; `kind` movement_detection (the default) or location_tracking, whose parameters are checked as a run's. A location preview computes the reference once per video and reference setting and keeps it for later previews and runs.",
        params: analysisVideoParams,
        body: previewBody,
        response: { 200: previewResponse, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { video } = videoScope(request);
      return service.preview(ctx, video, request.body);
    },
  );

  api.post(
    `${base}/import_timeseries/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member', work: 'process' },
      schema: {
        tags,
        summary: 'Import a time series (multipart: field "timeseries", a CSV; optional field "parameters", JSON)',
        description:
          'One value per frame (one column, optional header) or `time,value`. A row that breaks the format is named in the error and nothing is stored. Event detection runs on the series; the answer is the finished run.',
        params: analysisVideoParams,
        consumes: ['multipart/form-data'],
        response: { 201: analysisSchema, ...projectErrorResponses, 413: errorSchema, 415: errorSchema },
      },
    },
    async (request, reply) => {
      const { user, video } = videoScope(request);
      const uuid = await service.importTimeseries(ctx, video, user.id, request);
      return reply.status(201).send(await read.getAnalysis(ctx, video, uuid));
    },
  );

  api.get(
    `${base}/retrieve-events/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "A run's events (`?analysis_uuid=`; the video's latest succeeded run when absent)",
        description:
          "Each event nobody decided on carries `suggestion` from the newest model of the run's project, kind and protocol (ADR 038), where the suggested classes' held-out precision reaches `min_precision` (default 0.9) with at least 30 examples; null elsewhere. A run's suggestions are computed once per model version (in a worker thread) and kept.",
        params: analysisVideoParams,
        querystring: retrieveEventsQuery,
        response: { 200: eventsResponse, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { video } = videoScope(request);
      const run = await read.selectRun(ctx, video, request.query.analysis_uuid);
      return events.readEvents(ctx, run, undefined, await suggestionSource(ctx, run, request.query.min_precision));
    },
  );

  api.post(
    `${base}/update-events/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member' },
      schema: {
        tags,
        summary:
          "Change a run's events atomically: move, add, discard, restore, flag, unflag, label, delete, review, accept suggestions",
        description:
          'Body `{analysis_uuid, version, changes, answer}`. All changes apply or none, and each marks its event reviewed by the caller. A `version` other than the current one is 409 with `version` (the current one): reload, then apply again. A call of `review` changes only records the marks whatever the version and does not bump it. `answer: "changed"` answers only the events the call touched; `added_ids` are the ids of added events. `{action: "accept_suggestion", id, model_version?, min_precision?}` accepts one event\'s suggestion (a decision of the caller: marked reviewed); `{action: "accept_suggestions", min_confidence, model_version, min_precision?}` accepts every suggestion of the run with at least that confidence ("accept all ≥ p": nobody looked, so not marked reviewed); `accepted` says how many were accepted (ADR 038).',
        params: analysisVideoParams,
        body: updateEventsBody,
        response: {
          200: updateEventsResponse,
          ...projectErrorResponses,
          409: errorSchema.extend({ version: z.int().meta({ description: 'The current version of the events' }) }),
        },
      },
    },
    async (request) => {
      const { user, video } = videoScope(request);
      return events.updateEvents(ctx, video, user.id, request.body);
    },
  );

  api.get(
    `${base}/retrieve-timeseries-url/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "A download URL for a run's time series as CSV (`frame,time_s,value`), valid for 5 minutes",
        description:
          'The URL works for the caller only, and only while they are a member of the project; fetch it right away.',
        params: analysisVideoParams,
        querystring: runSelectorQuery,
        response: { 200: timeseriesUrlResponse, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { user, video } = videoScope(request);
      return read.timeseriesUrl(ctx, user.id, await read.selectRun(ctx, video, request.query.analysis_uuid));
    },
  );

  api.get(
    `${base}/:analysis_uuid/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: 'A run: status, progress (0–1), timings, parameters, summary, error',
        params: analysisParams,
        response: { 200: analysisSchema, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { video } = videoScope(request);
      return read.getAnalysis(ctx, video, request.params.analysis_uuid);
    },
  );

  api.post(
    `${base}/:analysis_uuid/revoke/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Stop a queued or running run (409 when it has already finished)',
        params: analysisParams,
        response: { 200: analysisSchema, ...projectErrorResponses, 409: errorSchema },
      },
    },
    async (request) => {
      const { video } = videoScope(request);
      return service.revokeAnalysis(ctx, video, request.params.analysis_uuid);
    },
  );

  api.delete(
    `${base}/:analysis_uuid/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Move a run to the trash with its events (revoked first if it is still running; member or above)',
        params: analysisParams,
        response: { 204: noContent, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { user, video } = videoScope(request);
      await trash.trashAnalysis(ctx, user.id, video, request.params.analysis_uuid);
      return reply.status(204).send(null);
    },
  );

  api.get(
    `${base}/:analysis_uuid/review-position/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: 'Where the caller stopped reviewing this run in Quick Score (event_id null before the first visit)',
        params: analysisParams,
        response: { 200: reviewPositionSchema, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { user, video } = videoScope(request);
      return events.getReviewPosition(ctx, video, user.id, request.params.analysis_uuid);
    },
  );

  api.put(
    `${base}/:analysis_uuid/review-position/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "Keep the caller's place in this run (any role: it is the reader's place, not the run's data)",
        params: analysisParams,
        body: reviewPositionBody,
        response: { 200: reviewPositionSchema, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { user, video } = videoScope(request);
      return events.setReviewPosition(ctx, video, user.id, request.params.analysis_uuid, request.body.event_id);
    },
  );

  api.get(
    `${base}/:analysis_uuid/series/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "A run's series as raw little-endian Float64 (for charts): `?part=values` (NaN = no value) or `times`",
        description:
          'values[i] is sample i; its time is times[i] when the run has times (an imported time,value series; header x-has-times: 1), else i / fps. A location-tracking run answers 2 × x-sample-count values: x of every frame, then y (NaN = no position). Headers: x-sample-count, x-fps, x-has-times.',
        params: analysisParams,
        querystring: seriesQuery,
        response: { 200: fileResponse, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const file = await read.seriesFile(
        ctx,
        videoScope(request).video,
        request.params.analysis_uuid,
        request.query.part,
      );
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', file.size)
        .header('x-sample-count', String(file.sampleCount))
        .header('x-fps', String(file.fps ?? ''))
        .header('x-has-times', file.hasTimes ? '1' : '0')
        .header('cache-control', 'private, max-age=3600')
        .send(await file.open());
    },
  );

  api.get(
    `${base}/:analysis_uuid/export/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "Download a run's events or time series as CSV or XLSX (`?table=events|series&format=csv|xlsx`)",
        params: analysisParams,
        querystring: exportQuery,
        response: { 200: fileResponse, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { table, format } = request.query;
      const { tables, nameParts } = await read.runTables(
        ctx,
        videoScope(request),
        request.params.analysis_uuid,
        table,
        format,
      );
      return sendTables(reply, tables, format, nameParts);
    },
  );

  api.get(
    `${base}/:analysis_uuid/figure/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "A location-tracking run's figure (`?name=track|heatmap&format=png|svg`) over its reference picture",
        description:
          "The path of the positions (`track`) or the time spent per spatial bin (`heatmap`), zones outlined and named, a scale bar when the run has a scale; the video's own size in pixels. The PNG has no words (no fonts on the server): the SVG names the zones and the scale bar. A run of another kind, or one not finished, is 400.",
        params: analysisParams,
        querystring: figureQuery,
        response: { 200: figureResponse, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { name, format } = request.query;
      const figure = await locationFigure(ctx, videoScope(request), request.params.analysis_uuid, name, format);
      return reply
        .header('content-type', figure.contentType)
        .header('content-disposition', attachmentDisposition(figure.fileName))
        .header('cache-control', 'no-store')
        .send(figure.bytes);
    },
  );

  api.get(
    '/projects/:project_uuid/analysis/',
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "The project's analysis runs, newest first",
        description: 'Filters: kind, status, subject (uuid), video (uuid); pagination with page and page_size.',
        params: projectAnalysisParams,
        querystring: analysisListQuery,
        response: { 200: pageSchema(analysisSchema), ...projectErrorResponses },
      },
    },
    async (request) => read.listAnalyses(ctx, projectScope(request).project, request.query, request.url),
  );

  api.get(
    '/projects/:project_uuid/analysis/export/',
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: 'The project summary: one row per subject × video × run (events per label, rate, % freezing)',
        params: projectAnalysisParams,
        querystring: summaryExportQuery,
        response: { 200: fileResponse, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { format } = request.query;
      const { tables, nameParts } = await projectSummaryTables(ctx, projectScope(request).project, format);
      return sendTables(reply, tables, format, nameParts);
    },
  );
}
