import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { users } from '../../db/schema.js';
import { unauthorized } from '../../lib/errors.js';
import { errorSchema, noContent, projectErrorResponses } from '../../lib/openapi.js';
import { listQuerySchema, pageSchema } from '../../lib/pagination.js';
import { projectScope, subjectScope, videoScope } from '../../lib/project-scope.js';
import { multipartUploadsDir } from '../../lib/storage-keys.js';
import { projectParams } from '../projects/project.schemas.js';
import * as trash from '../trash/trash.service.js';
import {
  batchDestroyBody,
  patchVideoBody,
  streamQuery,
  updateVideoBody,
  uploadFormDoc,
  videoListParams,
  videoParams,
  videoSchema,
} from './video.schemas.js';
import * as service from './video.service.js';
import tusRoutes from './video.tus.js';
import { parseUploadFields, receiveMultipartVideo } from './video.upload.js';

const tags = ['videos'];
const base = '/projects/:project_uuid/subjects/:subject_uuid/videos';

export default async function videoRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  api.get(
    `${base}/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "The subject's videos",
        description:
          'Search matches name and original file name; ordering: name, created_at, updated_at, recorded_at, duration_s, size_bytes, status (prefix - to reverse; default -created_at).',
        params: videoListParams,
        querystring: listQuerySchema,
        response: { 200: pageSchema(videoSchema), ...projectErrorResponses },
      },
    },
    async (request) => {
      const { user, subject } = subjectScope(request);
      return service.listVideos(ctx, subject, user.id, request.query, request.url);
    },
  );

  api.get(
    '/projects/:project_uuid/videos/',
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary:
          'Every video of the project, across its subjects (e.g. `?ordering=-created_at&page_size=5` for the latest)',
        description: "Search, ordering and pagination as for a subject's videos.",
        params: projectParams,
        querystring: listQuerySchema,
        response: { 200: pageSchema(videoSchema), ...projectErrorResponses },
      },
    },
    async (request) => {
      const { user, project } = projectScope(request);
      return service.listVideos(ctx, project, user.id, request.query, request.url);
    },
  );

  api.post(
    `${base}/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member', work: 'process' },
      schema: {
        tags,
        summary: 'Upload a video (member or above; not while the project is a draft)',
        description:
          'multipart/form-data with the video in the field `file` and optional text fields `name` and `recorded_at` ' +
          '(ISO 8601). The file is checked with ffprobe: one that is not a readable video is refused with 400 and ' +
          'nothing is kept. The answer is 201 with the video in status `processing`; a background job makes the ' +
          'thumbnail and, when browsers cannot play the original, an H.264 MP4 playback copy, then the status ' +
          'becomes `ready` (or `failed` with `error`). Big files can be uploaded resumably with the tus protocol at ' +
          '/api/uploads/ (metadata: project_uuid, subject_uuid, filename, optional name).',
        consumes: ['multipart/form-data'],
        params: videoListParams,
        body: uploadFormDoc,
        response: { 201: videoSchema, ...projectErrorResponses, 413: errorSchema, 415: errorSchema },
      },
    },
    async (request, reply) => {
      const { user, subject } = subjectScope(request);
      const upload = await receiveMultipartVideo(
        request,
        multipartUploadsDir(ctx.config.dataDir),
        ctx.config.maxUploadBytes,
      );
      const fields = await parseUploadFields(upload);
      const video = await service.ingestVideo(ctx, {
        userId: user.id,
        subject,
        localPath: upload.localPath,
        originalFilename: upload.originalFilename,
        extension: upload.extension,
        name: fields.name,
        recordedAt: fields.recorded_at,
      });
      return reply.status(201).send(await service.toVideoResponse(ctx, video, user.id));
    },
  );

  api.post(
    `${base}/batch_destroy/`,
    {
      onRequest: app.authenticate,
      config: { access: 'admin' },
      schema: {
        tags,
        summary:
          'Move several videos to the trash with their runs and tracks; all or nothing (owner or admin: a bulk delete)',
        params: videoListParams,
        body: batchDestroyBody,
        response: { 204: noContent, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { user, subject } = subjectScope(request);
      await trash.trashVideos(ctx, user.id, subject, request.body.video_uuids);
      return reply.status(204).send(null);
    },
  );

  api.get(
    `${base}/:video_uuid/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: 'One video, with its processing state',
        params: videoParams,
        response: { 200: videoSchema, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { user, video } = videoScope(request);
      return service.toVideoResponse(ctx, video, user.id);
    },
  );

  for (const method of ['put', 'patch'] as const) {
    api[method](
      `${base}/:video_uuid/`,
      {
        onRequest: app.authenticate,
        config: { access: 'member' },
        schema: {
          tags,
          summary:
            method === 'put'
              ? 'Replace a video’s name, recording time and subject (member or above)'
              : 'Change a video’s name, recording time or subject (member or above)',
          description: 'A `subject_uuid` of another subject of the same project moves the video (and its files) there.',
          params: videoParams,
          body: method === 'put' ? updateVideoBody : patchVideoBody,
          response: { 200: videoSchema, ...projectErrorResponses, 409: errorSchema },
        },
      },
      async (request) => {
        const { user, video } = videoScope(request);
        return service.toVideoResponse(ctx, await service.updateVideo(ctx, video, request.body), user.id);
      },
    );
  }

  api.delete(
    `${base}/:video_uuid/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Move a video to the trash with its runs and tracks; files are kept until the purge (member or above)',
        params: videoParams,
        response: { 204: noContent, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { user, video } = videoScope(request);
      await trash.trashVideo(ctx, user.id, video);
      return reply.status(204).send(null);
    },
  );

  /** Who is streaming: the signed `?token=` of `stream_url` (for `<video>`), else the bearer header. */
  async function authenticateStream(request: FastifyRequest) {
    const { token } = request.query as { token?: string };
    if (token === undefined) return app.authenticate(request);
    const claims = await ctx.tokens.verify(token, 'stream');
    const { video_uuid } = request.params as { video_uuid: string };
    if (!claims || claims.res !== video_uuid) {
      throw unauthorized('The stream link is invalid or has expired; reload the video to get a new one.');
    }
    const [user] = await ctx.db
      .select()
      .from(users)
      .where(eq(users.id, Number(claims.sub)))
      .limit(1);
    if (!user) throw unauthorized('The stream link is invalid or has expired; reload the video to get a new one.');
    request.user = user;
  }

  api.route({
    // HEAD declared explicitly so that it answers with the real Content-Length without reading the file.
    method: ['GET', 'HEAD'],
    url: `${base}/:video_uuid/stream/`,
    schema: {
      tags,
      summary: 'The playable video file, with HTTP Range support',
      description:
        'Serves the playback copy when there is one, else the original. Authenticate with the bearer header or ' +
        'with the `token` that `stream_url` carries (a `<video>` element cannot send headers). Answers 206 for a ' +
        'satisfiable `Range: bytes=…`, 416 for one past the end, else 200 with the whole file.',
      security: [{ bearerAuth: [] }, {}],
      params: videoParams,
      querystring: streamQuery,
      response: {
        200: z.any().describe('The whole file'),
        206: z.any().describe('The requested byte range'),
        ...projectErrorResponses,
        416: errorSchema,
      },
    },
    onRequest: authenticateStream,
    config: { access: 'viewer' },
    handler: async (request, reply) => {
      const plan = await service.planStream(ctx, videoScope(request).video, request.headers.range);
      reply.status(plan.status).headers(plan.headers);
      if (request.method === 'HEAD') return reply.send();
      return reply.send(await plan.open());
    },
  });

  await app.register(tusRoutes);
}
