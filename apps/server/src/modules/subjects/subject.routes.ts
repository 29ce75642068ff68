import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noContent, projectErrorResponses } from '../../lib/openapi.js';
import { listQuerySchema, pageSchema } from '../../lib/pagination.js';
import { projectScope, subjectScope } from '../../lib/project-scope.js';
import * as trash from '../trash/trash.service.js';
import {
  bulkDeleteBody,
  createSubjectBody,
  patchSubjectBody,
  subjectListParams,
  subjectParams,
  subjectSchema,
  updateSubjectBody,
} from './subject.schemas.js';
import * as service from './subject.service.js';

const tags = ['subjects'];

export default async function subjectRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onRequest', app.authenticate);

  api.get(
    '/projects/:project_uuid/subjects/',
    {
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "The project's subjects",
        description:
          'Search matches name, group and notes; ordering: name, group, created_at, updated_at, video_count (prefix - to reverse).',
        params: subjectListParams,
        querystring: listQuerySchema,
        response: { 200: pageSchema(subjectSchema), ...projectErrorResponses },
      },
    },
    async (request) => service.listSubjects(app.ctx, projectScope(request).project, request.query, request.url),
  );

  api.post(
    '/projects/:project_uuid/subjects/',
    {
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Add a subject (member or above)',
        params: subjectListParams,
        body: createSubjectBody,
        response: { 201: subjectSchema, ...projectErrorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.createSubject(app.ctx, projectScope(request).project.projectUuid, request.body)),
  );

  api.post(
    '/projects/:project_uuid/subjects/bulk-delete/',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary:
          'Move several subjects to the trash with their videos, runs and tracks; all or nothing (owner or admin: a bulk delete)',
        params: subjectListParams,
        body: bulkDeleteBody,
        response: { 204: noContent, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { user, project } = projectScope(request);
      await trash.trashSubjects(app.ctx, user.id, project.projectUuid, request.body.subject_uuids);
      return reply.status(204).send(null);
    },
  );

  api.get(
    '/projects/:project_uuid/subjects/:subject_uuid/',
    {
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: 'One subject',
        params: subjectParams,
        response: { 200: subjectSchema, ...projectErrorResponses },
      },
    },
    async (request) => service.getSubject(app.ctx, subjectScope(request).subject.subjectUuid),
  );

  for (const method of ['put', 'patch'] as const) {
    api[method](
      '/projects/:project_uuid/subjects/:subject_uuid/',
      {
        config: { access: 'member' },
        schema: {
          tags,
          summary:
            method === 'put'
              ? 'Replace a subject (member or above)'
              : 'Change some fields of a subject (member or above)',
          params: subjectParams,
          body: method === 'put' ? updateSubjectBody : patchSubjectBody,
          response: { 200: subjectSchema, ...projectErrorResponses },
        },
      },
      async (request) => service.updateSubject(app.ctx, subjectScope(request).subject, request.body),
    );
  }

  api.delete(
    '/projects/:project_uuid/subjects/:subject_uuid/',
    {
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Move a subject to the trash with its videos, runs and tracks (member or above)',
        params: subjectParams,
        response: { 204: noContent, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { user, subject } = subjectScope(request);
      await trash.trashSubject(app.ctx, user.id, subject);
      return reply.status(204).send(null);
    },
  );
}
