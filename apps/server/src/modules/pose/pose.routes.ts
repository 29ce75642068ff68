import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachmentDisposition } from '../../lib/download-names.js';
import { errorSchema, noContent, projectErrorResponses } from '../../lib/openapi.js';
import { videoScope } from '../../lib/project-scope.js';
import { exportPoseSet } from './pose.export.js';
import {
  poseExportQuery,
  poseFramesQuery,
  poseFramesSchema,
  poseSetListSchema,
  poseSetParams,
  poseSetSchema,
  poseVideoParams,
} from './pose.schemas.js';
import * as service from './pose.service.js';

const tags = ['pose'];
const base = '/projects/:project_uuid/subjects/:subject_uuid/videos/:video_uuid/pose';
const fileResponse = z.any().meta({ description: 'The file', type: 'string', format: 'binary' });

export default async function poseRoutes(app: FastifyInstance) {
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
          'Import a pose-estimation file (multipart: field "file"; optional "name", "frame_offset", and "config" — DeepLabCut\'s config.yaml)',
        description:
          "DeepLabCut CSV or .h5, SLEAP analysis .h5 or CSV, told apart by their structure. A file of every frame must have the video's frame count, or fit in it from `frame_offset`; a file of some frames (labelled images, SLEAP's CSV) must name frames inside the video. With a DeepLabCut file, `config` may carry the project's config.yaml: its `skeleton` (pairs of body parts, each one the file has) becomes the set's edges. A file or config that does not fit is refused by field (`file`, `frame_offset`, `config`) with what did not fit, and nothing is kept.",
        params: poseVideoParams,
        consumes: ['multipart/form-data'],
        response: { 201: poseSetSchema, ...projectErrorResponses, 413: errorSchema, 415: errorSchema },
      },
    },
    async (request, reply) => {
      const { user, video } = videoScope(request);
      return reply.status(201).send(await service.importPose(ctx, video, user.id, request));
    },
  );

  api.get(
    `${base}/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "The video's pose sets, oldest first",
        params: poseVideoParams,
        response: { 200: poseSetListSchema, ...projectErrorResponses },
      },
    },
    async (request) => service.listPoseSets(ctx, videoScope(request).video),
  );

  api.get(
    `${base}/:pose_uuid/frames/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: 'Points of a window of frames (`?start=&count=`, at most 1000 frames)',
        description:
          '`{frames: [{frame, individuals: {<individual>: {<body part>: [x, y, likelihood] | null}}}]}`; a window past the last frame is cut there.',
        params: poseSetParams,
        querystring: poseFramesQuery,
        response: { 200: poseFramesSchema, ...projectErrorResponses },
      },
    },
    async (request) => service.poseFrames(ctx, videoScope(request).video, request.params.pose_uuid, request.query),
  );

  api.get(
    `${base}/:pose_uuid/export/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: 'A pose set as DeepLabCut CSV (`?format=dlc`) or a tidy CSV (`?format=tidy`)',
        description:
          "dlc: DeepLabCut's header rows and one row per video frame (importing it again gives the same set). tidy: `frame,time_s,individual,bodypart,x,y,likelihood`, one row per point present.",
        params: poseSetParams,
        querystring: poseExportQuery,
        response: { 200: fileResponse, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { body, name } = await exportPoseSet(
        ctx,
        videoScope(request),
        request.params.pose_uuid,
        request.query.format,
      );
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachmentDisposition(name))
        .header('cache-control', 'no-store')
        .send(body);
    },
  );

  api.delete(
    `${base}/:pose_uuid/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Delete a pose set (its file goes with it)',
        params: poseSetParams,
        response: { 204: noContent, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      await service.deletePoseSet(ctx, videoScope(request).video, request.params.pose_uuid);
      return reply.status(204).send(null);
    },
  );
}
