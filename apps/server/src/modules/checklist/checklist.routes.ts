import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { projectErrorResponses } from '../../lib/openapi.js';
import { projectScope } from '../../lib/project-scope.js';
import { projectParams } from '../projects/project.schemas.js';
import { checklistSchema } from './checklist.schemas.js';
import { projectChecklist } from './checklist.service.js';

export default async function checklistRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onRequest', app.authenticate);

  api.get(
    '/projects/:project_uuid/checklist/',
    {
      config: { access: 'viewer' },
      schema: {
        tags: ['projects'],
        summary: "The project's getting-started steps, from its data (any member)",
        description:
          'Subjects, ready videos and finished runs counted; `events_reviewed` once any event was reviewed or ' +
          'changed in Quick Score; `exported` once any `…/export/` download of the project answered.',
        params: projectParams,
        response: { 200: checklistSchema, ...projectErrorResponses },
      },
    },
    async (request) => projectChecklist(app.ctx, projectScope(request).project),
  );
}
