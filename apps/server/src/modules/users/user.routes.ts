import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../lib/authenticate.js';
import { notFound } from '../../lib/errors.js';
import { readImageUpload } from '../../lib/image-upload.js';
import { listQuerySchema, pageSchema } from '../../lib/pagination.js';
import { userUpdateBodySchema } from '../auth/auth.schemas.js';
import { pendingInvitationSchema, profileIdParamsSchema } from './user.schemas.js';
import { serializeUser, userSchema } from './user.serializer.js';
import { listPendingInvitations, replaceAvatar, updateProfile } from './user.service.js';

const tags = ['users'];

export default async function userRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  app.get(
    '/users/profile/pending-invitations/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Invitations to the signed-in user’s e-mail address that can still be accepted',
        querystring: listQuerySchema,
        response: { 200: pageSchema(pendingInvitationSchema) },
      },
    },
    async (request) => listPendingInvitations(ctx, currentUser(request), request.query, request.url),
  );

  app.post(
    '/users/profile/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Update the signed-in user’s names',
        body: userUpdateBodySchema,
        response: { 200: userSchema },
      },
    },
    async (request) => serializeUser(ctx, await updateProfile(ctx, currentUser(request), request.body)),
  );

  app.post(
    '/users/profile/upload_avatar/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Upload an avatar (multipart, field `avatar`: PNG, JPEG, GIF or WebP up to 5 MB)',
        consumes: ['multipart/form-data'],
        response: { 200: userSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const image = await readImageUpload(request, 'avatar');
      return serializeUser(ctx, await replaceAvatar(ctx, user, image));
    },
  );

  /** Only the caller's own profile exists for them: any other id is 404, never a hint about other accounts. */
  const ownProfile = (request: Parameters<typeof currentUser>[0], id: string) => {
    const user = currentUser(request);
    if (id !== String(user.id)) throw notFound();
    return user;
  };

  app.get(
    '/users/profile/:id/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'The signed-in user’s profile (another id is 404)',
        params: profileIdParamsSchema,
        response: { 200: userSchema },
      },
    },
    async (request) => serializeUser(ctx, ownProfile(request, request.params.id)),
  );
  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/users/profile/:id/',
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: 'Update the signed-in user’s names (another id is 404)',
        params: profileIdParamsSchema,
        body: userUpdateBodySchema,
        response: { 200: userSchema },
      },
      handler: async (request) =>
        serializeUser(ctx, await updateProfile(ctx, ownProfile(request, request.params.id), request.body)),
    });
  }
}
