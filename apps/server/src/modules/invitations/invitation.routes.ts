import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../lib/authenticate.js';
import { noContent, projectErrorResponses } from '../../lib/openapi.js';
import { listQuerySchema, pageSchema } from '../../lib/pagination.js';
import { projectScope } from '../../lib/project-scope.js';
import {
  acceptedSchema,
  createInvitationBody,
  invitationListParams,
  invitationParams,
  invitationSchema,
  patchInvitationBody,
  updateInvitationBody,
} from './invitation.schemas.js';
import * as service from './invitation.service.js';

const tags = ['invitations'];
const base = '/projects/:project_uuid/invitations';

/** Owners and admins manage invitations; the invited account accepts its own. */
export default async function invitationRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  api.addHook('onRequest', app.authenticate);

  api.get(
    `${base}/`,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: "The project's invitations (owner or admin)",
        description:
          'Search matches the e-mail; ordering: created_at, email, status, expires_at (default -created_at).',
        params: invitationListParams,
        querystring: listQuerySchema,
        response: { 200: pageSchema(invitationSchema), ...projectErrorResponses },
      },
    },
    async (request) =>
      service.listInvitations(ctx, projectScope(request).project.projectUuid, request.query, request.url),
  );

  api.post(
    `${base}/`,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: 'Invite an e-mail address as admin, member or viewer; sends the invitation e-mail (owner or admin)',
        params: invitationListParams,
        body: createInvitationBody,
        response: { 201: invitationSchema, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { user, project } = projectScope(request);
      return reply.status(201).send(await service.createInvitation(ctx, project, user, request.body));
    },
  );

  api.get(
    `${base}/:invitation_uuid/`,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: 'One invitation (owner or admin)',
        params: invitationParams,
        response: { 200: invitationSchema, ...projectErrorResponses },
      },
    },
    async (request) =>
      service.getInvitation(ctx, projectScope(request).project.projectUuid, request.params.invitation_uuid),
  );

  for (const method of ['put', 'patch'] as const) {
    api[method](
      `${base}/:invitation_uuid/`,
      {
        config: { access: 'admin' },
        schema: {
          tags,
          summary:
            method === 'put'
              ? 'Change the role a pending invitation grants (owner or admin)'
              : 'Change the role, or revoke with {"status": "revoked"} (owner or admin)',
          params: invitationParams,
          body: method === 'put' ? updateInvitationBody : patchInvitationBody,
          response: { 200: invitationSchema, ...projectErrorResponses },
        },
      },
      async (request) =>
        service.updateInvitation(
          ctx,
          projectScope(request).project.projectUuid,
          request.params.invitation_uuid,
          request.body,
        ),
    );
  }

  api.delete(
    `${base}/:invitation_uuid/`,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: 'Delete an invitation; its link stops working (owner or admin)',
        params: invitationParams,
        response: { 204: noContent, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      await service.deleteInvitation(ctx, projectScope(request).project.projectUuid, request.params.invitation_uuid);
      return reply.status(204).send(null);
    },
  );

  api.post(
    `${base}/:invitation_uuid/resend/`,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: 'Send a pending or expired invitation again, valid for 7 more days (owner or admin)',
        params: invitationParams,
        response: { 200: invitationSchema, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { user, project } = projectScope(request);
      return service.resendInvitation(ctx, project, user, request.params.invitation_uuid);
    },
  );

  api.post(
    `${base}/:invitation_uuid/accept/`,
    {
      // The invited person is not a member yet: the service checks the invitation is theirs.
      config: { notProjectScoped: true },
      schema: {
        tags,
        summary: 'Accept an invitation addressed to the signed-in account; joins the project with its role',
        params: invitationParams,
        response: { 200: acceptedSchema, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { project_uuid, invitation_uuid } = request.params;
      return service.acceptInvitation(ctx, currentUser(request), project_uuid, invitation_uuid);
    },
  );
}
