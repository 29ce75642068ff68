import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../lib/authenticate.js';
import { readImageUpload } from '../../lib/image-upload.js';
import { errorSchema, noContent, projectErrorResponses } from '../../lib/openapi.js';
import { pageSchema } from '../../lib/pagination.js';
import { projectScope } from '../../lib/project-scope.js';
import { deleteProjectQuery } from '../trash/trash.schemas.js';
import * as trash from '../trash/trash.service.js';
import {
  createProjectBody,
  patchProjectBody,
  projectListQuery,
  projectParams,
  projectSchema,
  updateProjectBody,
} from './project.schemas.js';
import * as service from './project.service.js';

const tags = ['projects'];

export default async function projectRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onRequest', app.authenticate);

  api.get(
    '/projects/',
    {
      schema: {
        tags,
        summary: "The caller's projects",
        description:
          'Search matches the name; ordering: name, created_at, updated_at (prefix - to reverse). `deleted=true`: ' +
          'the projects the caller owns that are in the trash instead (each with `trash`).',
        querystring: projectListQuery,
        response: { 200: pageSchema(projectSchema), 400: errorSchema, 401: errorSchema },
      },
    },
    async (request) => service.listProjects(app.ctx, currentUser(request).id, request.query, request.url),
  );

  api.post(
    '/projects/',
    {
      schema: {
        tags,
        summary: 'Create a project; the caller becomes its owner',
        body: createProjectBody,
        response: { 201: projectSchema, 400: errorSchema, 401: errorSchema },
      },
    },
    async (request, reply) => {
      const project = await service.createProject(app.ctx, currentUser(request).id, request.body);
      return reply.status(201).send(project);
    },
  );

  api.get(
    '/projects/:project_uuid/',
    {
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: 'One project',
        params: projectParams,
        response: { 200: projectSchema, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { user, project } = projectScope(request);
      return service.getProject(app.ctx, user.id, project.projectUuid);
    },
  );

  api.put(
    '/projects/:project_uuid/',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: 'Replace name and metadata (owner or admin)',
        params: projectParams,
        body: updateProjectBody,
        response: { 200: projectSchema, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { user, project } = projectScope(request);
      return service.updateProject(app.ctx, user.id, project, request.body);
    },
  );

  api.patch(
    '/projects/:project_uuid/',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: 'Change some fields (owner or admin); metadata fields are merged',
        params: projectParams,
        body: patchProjectBody,
        response: { 200: projectSchema, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { user, project } = projectScope(request);
      return service.updateProject(app.ctx, user.id, project, request.body);
    },
  );

  api.delete(
    '/projects/:project_uuid/',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        summary: 'Move the project to the trash with everything in it (owner only; its name typed in confirm_name)',
        description:
          "Answers 400 unless `confirm_name` is the project's name. The project is then invisible (404) to everyone; " +
          'its owner finds it under `GET /projects/?deleted=true` and restores it with `POST /projects/{p}/restore/` ' +
          'until TRASH_DAYS have passed.',
        params: projectParams,
        querystring: deleteProjectQuery,
        response: { 204: noContent, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { user, project } = projectScope(request);
      await trash.trashProject(app.ctx, user.id, project, request.query.confirm_name);
      return reply.status(204).send(null);
    },
  );

  api.post(
    '/projects/:project_uuid/upload_logo/',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: 'Upload the project logo (multipart, field "logo"; PNG, JPEG, GIF or WebP up to 5 MB)',
        params: projectParams,
        consumes: ['multipart/form-data'],
        response: { 200: projectSchema, ...projectErrorResponses, 413: errorSchema, 415: errorSchema },
      },
    },
    async (request) => {
      const { user, project } = projectScope(request);
      const image = await readImageUpload(request, 'logo');
      return service.replaceLogo(app.ctx, user.id, project, image);
    },
  );
}
