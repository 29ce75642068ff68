import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noContent, projectErrorResponses } from '../../lib/openapi.js';
import { listQuerySchema, pageSchema } from '../../lib/pagination.js';
import { type ProjectScope, projectScope } from '../../lib/project-scope.js';
import { projectSchema } from '../projects/project.schemas.js';
import {
  changeRoleBody,
  memberListParams,
  memberParams,
  memberSchema,
  transferOwnershipBody,
} from './member.schemas.js';
import * as service from './member.service.js';

const tags = ['members'];
const base = '/projects/:project_uuid/members';

const actorOf = ({ user, role, project }: ProjectScope): service.Actor => ({
  userId: user.id,
  viewer: user,
  role,
  project,
});

/** The team of a project: everyone reads it; owners and admins manage it; anyone but the owner can leave. */
export default async function memberRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  api.addHook('onRequest', app.authenticate);

  api.get(
    `${base}/`,
    {
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "The project's members and their roles",
        description: 'Search matches e-mail and name; ordering: joined_at, email, role.',
        params: memberListParams,
        querystring: listQuerySchema,
        response: { 200: pageSchema(memberSchema), ...projectErrorResponses },
      },
    },
    async (request) => {
      const { user, project } = projectScope(request);
      return service.listMembers(ctx, user, project.projectUuid, request.query, request.url);
    },
  );

  api.patch(
    `${base}/:user_id/`,
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: "Change a member's role to admin, member or viewer (owner or admin)",
        description:
          "The owner's role never changes here (transfer ownership instead), nobody changes their own role, and only the owner changes an admin's role.",
        params: memberParams,
        body: changeRoleBody,
        response: { 200: memberSchema, ...projectErrorResponses, 409: projectErrorResponses[400] },
      },
    },
    async (request) =>
      service.changeRole(ctx, actorOf(projectScope(request)), request.params.user_id, request.body.role),
  );

  api.delete(
    `${base}/:user_id/`,
    {
      // Leaving is open to every member, on a locked project too; the service holds removing others to the rules.
      config: { access: 'viewer', work: 'renew' },
      schema: {
        tags,
        summary: 'Remove a member (owner or admin), or leave the project (your own id)',
        description:
          'Their videos, runs and edits stay, credited to them. The owner cannot leave or be removed; only the owner removes an admin.',
        params: memberParams,
        response: { 204: noContent, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      await service.removeMember(ctx, actorOf(projectScope(request)), request.params.user_id);
      return reply.status(204).send(null);
    },
  );

  api.post(
    `${base}/transfer-ownership/`,
    {
      config: { access: 'owner' },
      schema: {
        tags,
        summary: 'Make an admin the owner; the previous owner stays as an admin (owner only)',
        params: memberListParams,
        body: transferOwnershipBody,
        response: { 200: projectSchema, ...projectErrorResponses, 409: projectErrorResponses[400] },
      },
    },
    async (request) => service.transferOwnership(ctx, actorOf(projectScope(request)), request.body.user_id),
  );
}
