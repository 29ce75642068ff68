import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { projectErrorResponses } from '../../lib/openapi.js';
import { pageSchema } from '../../lib/pagination.js';
import { projectScope } from '../../lib/project-scope.js';
import { createLabelBody, labelListParams, labelListQuery, labelSchema } from './label.schemas.js';
import * as service from './label.service.js';

const tags = ['labels'];

export default async function labelRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onRequest', app.authenticate);

  api.get(
    '/projects/:project_uuid/labels/',
    {
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "The project's event labels, by name",
        description:
          'Every label an event of the project has been given, and those saved with POST. `search` filters by name.',
        params: labelListParams,
        querystring: labelListQuery,
        response: { 200: pageSchema(labelSchema), ...projectErrorResponses },
      },
    },
    async (request) =>
      service.listLabels(app.ctx, projectScope(request).project.projectUuid, request.query, request.url),
  );

  api.post(
    '/projects/:project_uuid/labels/',
    {
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Save a label in the project (201; 200 with the existing one when the name exists in any case)',
        params: labelListParams,
        body: createLabelBody,
        response: { 200: labelSchema, 201: labelSchema, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { project, user } = projectScope(request);
      const { label, created } = await service.createLabel(app.ctx, project.projectUuid, request.body.name, user.id);
      return reply.status(created ? 201 : 200).send(label);
    },
  );
}
