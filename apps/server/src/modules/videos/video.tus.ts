import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { EVENTS, Server, type Upload } from '@tus/server';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { videos } from '../../db/schema.js';
import { requireProjectRole } from '../../lib/access.js';
import { tokenUser } from '../../lib/authenticate.js';
import { DISK_FULL_MESSAGE, fieldError, HttpError, isDiskFull, unauthorized } from '../../lib/errors.js';
import { getSubjectOrThrow } from '../subjects/subject.lookup.js';
import { uploadFieldsSchema } from './video.schemas.js';
import {
  cleanUpAbandonedUploads,
  ingestVideo,
  removeTusParts,
  tusDirectory,
  UPLOAD_EXPIRY_MS,
} from './video.service.js';
import { cleanFilename, formatBytes, videoExtension } from './video.upload.js';

/** What tus hooks throw to answer with a status: the body is the API's usual `{errors}` JSON. */
function tusError(error: unknown): { status_code: number; body: string } {
  if (error instanceof HttpError) return { status_code: error.status, body: JSON.stringify({ errors: error.errors }) };
  throw error;
}

/**
 * Resumable uploads (tus 1.0, creation + termination) at /api/uploads/, for big files and flaky networks.
 *
 * The client creates an upload with `Authorization: Bearer …`, `Upload-Length` and `Upload-Metadata`
 * (project_uuid, subject_uuid, filename; optional name, recorded_at), then PATCHes the bytes, resuming from
 * HEAD's `Upload-Offset` after a break. The upload id is the video's uuid: at creation a video row with
 * status `uploading` appears in the subject's list (so the app shows the upload and others see it coming);
 * when the last byte arrives the file goes through the same pipeline as a multipart upload (probe → row
 * `processing` → storage → job) and the final PATCH answers 400 with the usual error body, removing the row
 * and the bytes, when it is not a readable video. Parts are kept in DATA_DIR/tmp/tus; in the scaled shape the
 * requests of one upload must reach a server that shares that folder.
 */
export default async function tusRoutes(app: FastifyInstance) {
  const ctx = app.ctx;
  const directory = tusDirectory(ctx);
  // With an expiry, tus tells clients (Upload-Expires) how long they may resume.
  const datastore = new FileStore({ directory, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });

  async function userIdOf(req: Request): Promise<number> {
    const [scheme, token] = (req.headers.get('authorization') ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !token) throw tusError(unauthorized());
    const claims = await ctx.tokens.verify(token, 'access');
    // The user must still exist and not have changed their password since the token was issued.
    const user = claims ? await tokenUser(ctx.db, claims) : null;
    if (!user) throw tusError(unauthorized('Given token not valid for any token type'));
    return user.id;
  }

  // The origin of the `Location` of a new upload: PUBLIC_URL, or — only when TRUST_PROXY trusts the proxy the
  // request came through — the origin Fastify derives from its X-Forwarded-* headers. tus's own reading of
  // X-Forwarded-Host/Host is never used, so a hostile header cannot point the client's bytes elsewhere.
  const locationOrigin = new AsyncLocalStorage<string>();
  const tus = new Server({
    path: '/api/uploads',
    datastore,
    maxSize: ctx.config.maxUploadBytes,
    respectForwardedHeaders: false,
    generateUrl: (_req, { path: uploadsPath, id }) =>
      `${locationOrigin.getStore() ?? ctx.config.publicUrl}${uploadsPath}/${id}`,
    namingFunction: () => randomUUID(),
    async onIncomingRequest(req, uploadId) {
      const userId = await userIdOf(req);
      if (req.method === 'POST') return;
      // Only the user who started an upload may continue, inspect or cancel it.
      const upload = await datastore.getUpload(uploadId).catch(() => null);
      if (upload && upload.metadata?.user_id !== String(userId)) {
        throw { status_code: 404, body: JSON.stringify({ errors: 'Not found.' }) };
      }
      // More bytes need what creating the upload needed: still a member, and a project that takes uploads now
      // (it may have been locked, or the uploader removed, since the upload began).
      if (req.method === 'PATCH' && upload?.metadata?.project_uuid) {
        try {
          await requireProjectRole(ctx, userId, upload.metadata.project_uuid, 'member', 'process');
        } catch (error) {
          throw tusError(error);
        }
      }
    },
    async onUploadCreate(req, upload: Upload) {
      const userId = await userIdOf(req);
      const meta = upload.metadata ?? {};
      try {
        if (upload.size === undefined) {
          throw fieldError('Upload-Length', 'Give the file size in Upload-Length (deferred length is not supported).');
        }
        const { project_uuid, subject_uuid, filename } = meta;
        if (!project_uuid) throw fieldError('project_uuid', 'Upload-Metadata must include project_uuid.');
        if (!subject_uuid) throw fieldError('subject_uuid', 'Upload-Metadata must include subject_uuid.');
        if (!filename) throw fieldError('filename', 'Upload-Metadata must include filename.');
        await requireProjectRole(ctx, userId, project_uuid, 'member', 'process');
        const subject = await getSubjectOrThrow(ctx, project_uuid, subject_uuid);
        const originalFilename = cleanFilename(filename);
        videoExtension(originalFilename);
        const fields = uploadFieldsSchema.safeParse({
          name: meta.name ?? undefined,
          recorded_at: meta.recorded_at ?? undefined,
        });
        if (!fields.success) throw fieldError(String(fields.error.issues[0]?.path[0]), fields.error.issues[0]!.message);
        await ctx.db.insert(videos).values({
          videoUuid: upload.id,
          projectUuid: subject.projectUuid,
          subjectUuid: subject.subjectUuid,
          name: fields.data.name || path.basename(originalFilename, path.extname(originalFilename)),
          originalFilename,
          sizeBytes: upload.size,
          status: 'uploading',
          recordedAt: fields.data.recorded_at ?? null,
          uploadedById: userId,
        });
        return { metadata: { ...meta, filename: originalFilename, user_id: String(userId) } };
      } catch (error) {
        throw tusError(error);
      }
    },
    async onUploadFinish(_req, upload: Upload) {
      const meta = upload.metadata ?? {};
      const userId = Number(meta.user_id);
      try {
        const subject = await getSubjectOrThrow(ctx, meta.project_uuid ?? '', meta.subject_uuid ?? '');
        const originalFilename = meta.filename ?? 'video';
        const fields = uploadFieldsSchema.safeParse({
          name: meta.name ?? undefined,
          recorded_at: meta.recorded_at ?? undefined,
        });
        const video = await ingestVideo(ctx, {
          userId,
          subject,
          localPath: path.join(directory, upload.id),
          originalFilename,
          extension: videoExtension(originalFilename),
          name: fields.success ? fields.data.name : undefined,
          recordedAt: fields.success ? fields.data.recorded_at : undefined,
          videoUuid: upload.id,
        });
        await rm(path.join(directory, `${upload.id}.json`), { force: true });
        return { headers: { 'x-video-uuid': video.videoUuid } };
      } catch (error) {
        // Not a video (or the subject went away): the upload leaves nothing behind.
        await ctx.db.delete(videos).where(and(eq(videos.videoUuid, upload.id), eq(videos.status, 'uploading')));
        await removeTusParts(ctx, [upload.id]);
        throw tusError(error);
      }
    },
    async onResponseError(req, error) {
      // A full disk while the bytes arrive: the upload cannot finish, so it leaves nothing (no part, no row).
      if (isDiskFull(error)) {
        ctx.logger.error({ err: error }, 'disk full during a tus upload');
        const id = new URL(req.url).pathname.split('/').filter(Boolean).pop() ?? '';
        if (/^[0-9a-f-]{36}$/.test(id)) {
          await removeTusParts(ctx, [id]).catch(() => {});
          await ctx.db
            .delete(videos)
            .where(and(eq(videos.videoUuid, id), eq(videos.status, 'uploading')))
            .catch(() => {});
        }
        return { status_code: 507, body: JSON.stringify({ errors: DISK_FULL_MESSAGE }) };
      }
      // tus's own errors are plain text: answer in the API's error shape.
      if ('status_code' in error && !error.body.startsWith('{')) {
        const message =
          error.status_code === 413
            ? `The video is larger than the upload limit of ${formatBytes(ctx.config.maxUploadBytes)}.`
            : error.body.trim();
        return { status_code: error.status_code, body: JSON.stringify({ errors: message }) };
      }
      return undefined;
    },
  });

  // Cancelled by the client (DELETE): the `uploading` row goes too.
  tus.on(EVENTS.POST_TERMINATE, (_req, _res, id) => {
    void ctx.db
      .delete(videos)
      .where(and(eq(videos.videoUuid, id), eq(videos.status, 'uploading')))
      .catch((error) => ctx.logger.warn({ err: error, videoUuid: id }, 'could not remove a cancelled upload'));
  });

  // Abandoned uploads go at start and every few hours after.
  const cleanUp = () =>
    cleanUpAbandonedUploads(ctx).catch((error) => ctx.logger.warn({ err: error }, 'upload clean-up failed'));
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    void cleanUp();
    timer = setInterval(cleanUp, 6 * 60 * 60 * 1000).unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));

  // tus reads the raw request body itself.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    const origin = ctx.config.trustProxy ? `${request.protocol}://${request.host}` : ctx.config.publicUrl;
    await locationOrigin.run(origin, () => tus.handle(request.raw, reply.raw));
  };
  app.all('/uploads/', { schema: { hide: true } }, handle);
  app.all('/uploads/*', { schema: { hide: true } }, handle);
}
