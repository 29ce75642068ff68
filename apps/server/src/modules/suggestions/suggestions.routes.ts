import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { projectErrorResponses } from '../../lib/openapi.js';
import { pageSchema } from '../../lib/pagination.js';
import { projectScope } from '../../lib/project-scope.js';
import { modelSchema, modelsParams, modelsQuery, trainBody } from './suggestions.schemas.js';
import * as service from './suggestions.service.js';

const tags = ['suggestions'];

export default async function suggestionRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onRequest', app.authenticate);

  api.get(
    '/projects/:project_uuid/models/',
    {
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "The project's suggestion models: one per run kind and protocol, with every version's figures",
        description:
          'Each model (ADR 038): its newest version (`model_uuid`, `version`, `trained_at`, `examples`) with the figures cross-validated by video per decision (keep, discard) and per label — precision, recall, examples — its training state, and the history of its versions newest first. Filters: `kind`, `protocol_uuid` (`none`: runs made without a protocol).',
        params: modelsParams,
        querystring: modelsQuery,
        response: { 200: pageSchema(modelSchema), ...projectErrorResponses },
      },
    },
    async (request) =>
      service.listModels(app.ctx, projectScope(request).project.projectUuid, request.query, request.url),
  );

  api.post(
    '/projects/:project_uuid/models/train/',
    {
      config: { access: 'member' },
      schema: {
        tags,
        summary: "Train a model now on the project's reviewed events of a run kind (and protocol): 202 with its state",
        description:
          'Queues the training (a background job; at most one waits and one runs per model) and answers at once. A training also starts by itself after every 50 new reviews. 400 when no event of such runs has been decided on yet.',
        params: modelsParams,
        body: trainBody,
        response: { 202: modelSchema, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { project, user } = projectScope(request);
      return reply.status(202).send(await service.trainNow(app.ctx, project.projectUuid, request.body, user.id));
    },
  );
}
