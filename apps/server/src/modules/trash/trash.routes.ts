import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorSchema, projectErrorResponses } from '../../lib/openapi.js';
import { pageSchema } from '../../lib/pagination.js';
import { projectScope } from '../../lib/project-scope.js';
import { projectParams, projectSchema } from '../projects/project.schemas.js';
import { emptyTrash } from './trash.purge.js';
import { listTrash, restoreItem, restoreProject } from './trash.restore.js';
import { emptyTrashResponse, trashItemParams, trashItemSchema, trashListQuery, trashParams } from './trash.schemas.js';

const tags = ['trash'];

export default async function trashRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onRequest', app.authenticate);

  api.get(
    '/projects/:project_uuid/trash/',
    {
      config: { access: 'member' },
      schema: {
        tags,
        summary: "The project's deleted subjects, videos, runs and tracks, newest first (member or above)",
        description:
          'Each item is one deletion with what it took (a subject: its videos, their runs, events and tracks); ' +
          'it is kept, files included, until `purge_at` (TRASH_DAYS after the deletion). `kind` filters.',
        params: trashParams,
        querystring: trashListQuery,
        response: { 200: pageSchema(trashItemSchema), ...projectErrorResponses },
      },
    },
    async (request) => {
      const { project } = projectScope(request);
      return listTrash(app.ctx, project, request.query, request.url);
    },
  );

  api.post(
    '/projects/:project_uuid/trash/:item_uuid/restore/',
    {
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Restore a deleted item whole, with everything its deletion took (member or above)',
        description:
          'Answers the item as it was listed. 409 when the place it goes back to is itself in the trash or gone, or ' +
          'when its name is now taken there.',
        params: trashItemParams,
        response: { 200: trashItemSchema, ...projectErrorResponses, 409: errorSchema },
      },
    },
    async (request) => restoreItem(app.ctx, projectScope(request).project, request.params.item_uuid),
  );

  api.delete(
    '/projects/:project_uuid/trash/',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: 'Empty the trash: remove every deleted item and its files now (owner or admin)',
        params: trashParams,
        response: { 200: emptyTrashResponse, ...projectErrorResponses },
      },
    },
    async (request) => emptyTrash(app.ctx, projectScope(request).project),
  );

  api.post(
    '/projects/:project_uuid/restore/',
    {
      config: { access: 'owner', deletedProject: true },
      schema: {
        tags,
        summary: 'Restore a deleted project with everything it had (owner only)',
        description:
          'Only for a project in the trash (`GET /projects/?deleted=true`); 409 when the owner has another project ' +
          'of that name now.',
        params: projectParams,
        response: { 200: projectSchema, ...projectErrorResponses, 409: errorSchema },
      },
    },
    async (request) => {
      const { user, project } = projectScope(request);
      return restoreProject(app.ctx, user, project);
    },
  );
}
