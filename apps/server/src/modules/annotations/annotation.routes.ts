import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachmentDisposition, downloadFileName } from '../../lib/download-names.js';
import { errorSchema, noContent, projectErrorResponses } from '../../lib/openapi.js';
import { projectScope, videoScope } from '../../lib/project-scope.js';
import * as trash from '../trash/trash.service.js';
import { borisAggregatedEvents, exportTrackCsv, importTrackCsv } from './annotation.files.js';
import { fillTrackFromSeries } from './annotation.fill.js';
import { applyTrackPresets, projectTrackPresets } from './annotation.presets.js';
import {
  annotationConfigParams,
  annotationProjectParams,
  annotationVideoParams,
  configListSchema,
  configSchema,
  createConfigBody,
  fillFromSeriesBody,
  fillFromSeriesResponse,
  patchConfigBody,
  patchRangesBody,
  presetsResponse,
  putConfigBody,
  putRangesBody,
  rangesConflict,
  rangesResponse,
  trackExportQuery,
  videoExportQuery,
} from './annotation.schemas.js';
import * as service from './annotation.service.js';

const tags = ['annotations'];
const base = '/projects/:project_uuid/subjects/:subject_uuid/videos/:video_uuid/annotations';
const fileResponse = z.any().meta({ description: 'The file', type: 'string', format: 'binary' });
const ADDITION = 'An addition to the spec’s calls.';
/** A PUT of 100,000 ranges at full precision is about 4 MB of JSON. */
const RANGES_BODY_LIMIT = 8 * 1024 * 1024;

/** A name safe in a Content-Disposition header. */

export default async function annotationRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  api.get(
    `${base}/config/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "The video's annotation tracks, in their order",
        params: annotationVideoParams,
        response: { 200: configListSchema, ...projectErrorResponses },
      },
    },
    async (request) => service.listConfigs(ctx, videoScope(request).video),
  );

  api.post(
    `${base}/config/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Create a track (`{name, color?, hotkey?, order?}`)',
        description: `${ADDITION} Names and hot keys (one letter or digit) are unique per video; a colour is given from a palette when none is sent; the new track goes last unless \`order\` says otherwise.`,
        params: annotationVideoParams,
        body: createConfigBody,
        response: { 201: configSchema, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { user, video } = videoScope(request);
      return reply.status(201).send(await service.createConfig(ctx, video, user.id, request.body));
    },
  );

  api.post(
    `${base}/config/presets/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member' },
      schema: {
        tags,
        summary: "Give the video the project's track set (names, colours, keys used on its other videos)",
        description: `${ADDITION} Adds every track of \`GET /projects/{p}/annotations/presets/\` whose name the video lacks (a hot key the video already uses is left off); answers the video's tracks.`,
        params: annotationVideoParams,
        response: { 201: configListSchema, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { user, video } = videoScope(request);
      return reply.status(201).send(await applyTrackPresets(ctx, video, user.id));
    },
  );

  for (const method of ['put', 'patch'] as const) {
    api[method](
      `${base}/config/:annotation_config_uuid/`,
      {
        onRequest: app.authenticate,
        config: { access: 'member' },
        schema: {
          tags,
          summary:
            method === 'put'
              ? 'Replace a track’s name, colour, hot key (null: none) and order'
              : 'Rename, recolour, change the hot key or the order of a track',
          description: 'Does not touch the ranges nor their version.',
          params: annotationConfigParams,
          body: method === 'put' ? putConfigBody : patchConfigBody,
          response: { 200: configSchema, ...projectErrorResponses },
        },
      },
      async (request) =>
        service.updateConfig(
          ctx,
          videoScope(request).video,
          request.params.annotation_config_uuid,
          request.body as z.output<typeof patchConfigBody>,
        ),
    );
  }

  api.delete(
    `${base}/config/:annotation_config_uuid/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Move a track with its ranges to the trash',
        description: ADDITION,
        params: annotationConfigParams,
        response: { 204: noContent, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { user, video } = videoScope(request);
      await trash.trashTrack(ctx, user.id, video, request.params.annotation_config_uuid);
      return reply.status(204).send(null);
    },
  );

  api.post(
    `${base}/fill-from-series/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member' },
      schema: {
        tags,
        summary: "Fill a track with the bouts where a run's series meets a rule (e.g. a pose distance < 2 cm)",
        description: `${ADDITION} A frame meets the rule when its value is a number and \`value <comparison> threshold\`; each run of such frames is a bout from its first frame's start to its last frame's end; gaps shorter than \`merge_gap_s\` are closed, then bouts shorter than \`min_duration_s\` left out (ADR 037). The bouts go into a new track (\`name\`: 201) or a track of the video (\`annotation_config_uuid\` at \`version\`: 200), replacing its bouts (\`mode: replace\`) or added to them, overlapping ones joined (\`merge\`); a stale version is 409 with the current ranges. Bad input is 400 by field and changes nothing.`,
        params: annotationVideoParams,
        body: fillFromSeriesBody,
        response: {
          200: fillFromSeriesResponse,
          201: fillFromSeriesResponse,
          ...projectErrorResponses,
          409: rangesConflict,
        },
      },
    },
    async (request, reply) => {
      const { user, video } = videoScope(request);
      const { created, answer } = await fillTrackFromSeries(ctx, video, user.id, request.body);
      return reply.status(created ? 201 : 200).send(answer);
    },
  );

  api.get(
    `${base}/export/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "Every track of the video as BORIS's aggregated-events table (TSV, `?format=boris`)",
        description: `${ADDITION} Columns: Observation id (the video's name), Observation date, Description, Media file (the uploaded file's name), Total length (s), FPS, Subject, Behavior (the track), Behavioral category, Modifiers, Behavior type (STATE), Start (s), Stop (s), Duration (s), Comment start, Comment stop; one row per bout, by start time.`,
        params: annotationVideoParams,
        querystring: videoExportQuery,
        response: { 200: fileResponse, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { video, subject } = videoScope(request);
      const tsv = await borisAggregatedEvents(ctx, video, subject);
      return reply
        .header('content-type', 'text/tab-separated-values; charset=utf-8')
        .header(
          'content-disposition',
          attachmentDisposition(downloadFileName([subject.name, video.name, 'boris'], 'tsv')),
        )
        .header('cache-control', 'no-store')
        .send(tsv);
    },
  );

  api.get(
    `${base}/:annotation_config_uuid/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "A track's ranges, sorted, with their version",
        params: annotationConfigParams,
        response: { 200: rangesResponse, ...projectErrorResponses },
      },
    },
    async (request) => service.getRanges(ctx, videoScope(request).video, request.params.annotation_config_uuid),
  );

  api.put(
    `${base}/:annotation_config_uuid/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member' },
      bodyLimit: RANGES_BODY_LIMIT,
      schema: {
        tags,
        summary: "Replace a track's ranges (`{ranges, version}`)",
        description:
          'The spec’s time-range rules: two numbers, start < end, each start not before the previous end, all within the video; a broken rule is 400 naming the row (`{"errors": {"ranges": ["Row 2 …"]}}`) and changes nothing. A `version` other than the current one is 409 with the current `version` and `ranges`.',
        params: annotationConfigParams,
        body: putRangesBody,
        response: { 200: rangesResponse, ...projectErrorResponses, 409: rangesConflict },
      },
    },
    async (request) =>
      service.replaceRanges(ctx, videoScope(request).video, request.params.annotation_config_uuid, request.body),
  );

  api.patch(
    `${base}/:annotation_config_uuid/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member' },
      bodyLimit: RANGES_BODY_LIMIT,
      schema: {
        tags,
        summary: "Change part of a track's ranges (`{version, add?, remove?}`)",
        description:
          'Removes each range of `remove` (it must be one of the track’s, exactly), then adds each range of `add` (within the video, overlapping nothing; touching is fine). All or nothing; field errors name the row of `add` or `remove`. A stale `version` is 409 with the current `version` and `ranges`.',
        params: annotationConfigParams,
        body: patchRangesBody,
        response: { 200: rangesResponse, ...projectErrorResponses, 409: rangesConflict },
      },
    },
    async (request) =>
      service.patchRanges(ctx, videoScope(request).video, request.params.annotation_config_uuid, request.body),
  );

  api.post(
    `${base}/:annotation_config_uuid/import/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member' },
      schema: {
        tags,
        summary: "Replace a track's ranges with a time-range CSV (multipart: field `file`; optional field `version`)",
        description: `${ADDITION} The CSV is checked with the spec's rules and messages (§5: 'CSV is empty', 'File is not a CSV', 'Row N …'), and against the video's length; a broken rule is 400 \`{"errors": {"file": [message]}}\` and changes nothing. With \`version\`, a stale one is 409.`,
        params: annotationConfigParams,
        consumes: ['multipart/form-data'],
        response: {
          200: rangesResponse,
          ...projectErrorResponses,
          409: rangesConflict,
          413: errorSchema,
          415: errorSchema,
        },
      },
    },
    async (request) => importTrackCsv(ctx, videoScope(request).video, request.params.annotation_config_uuid, request),
  );

  api.get(
    `${base}/:annotation_config_uuid/export/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "A track's ranges as a time-range CSV (`?format=csv`): header `start,end`, exact seconds",
        description: `${ADDITION} Importing the file again gives the same ranges.`,
        params: annotationConfigParams,
        querystring: trackExportQuery,
        response: { 200: fileResponse, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { subject, video } = videoScope(request);
      const { name, csv } = await exportTrackCsv(ctx, video, request.params.annotation_config_uuid);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachmentDisposition(downloadFileName([subject.name, video.name, name], 'csv')))
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  api.get(
    '/projects/:project_uuid/annotations/presets/',
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "The project's track set: each track name used on its videos, with its latest colour, key and order",
        description: ADDITION,
        params: annotationProjectParams,
        response: { 200: presetsResponse, ...projectErrorResponses },
      },
    },
    async (request) => ({ tracks: await projectTrackPresets(ctx, projectScope(request).project.projectUuid) }),
  );
}
