import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { noContent, projectErrorResponses } from '../../lib/openapi.js';
import { pageSchema } from '../../lib/pagination.js';
import { projectScope } from '../../lib/project-scope.js';
import {
  createProtocolBody,
  protocolDetailSchema,
  protocolListParams,
  protocolListQuery,
  protocolParams,
  protocolSchema,
  protocolVersionQuery,
  updateProtocolBody,
} from './protocol.schemas.js';
import * as service from './protocol.service.js';

const tags = ['protocols'];
const base = '/projects/:project_uuid/protocols';

export default async function protocolRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onRequest', app.authenticate);

  api.get(
    `${base}/`,
    {
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "The project's protocols at their current versions",
        description: '`search` filters by name, `kind` by kind; `ordering` name (default), created_at or updated_at.',
        params: protocolListParams,
        querystring: protocolListQuery,
        response: { 200: pageSchema(protocolSchema), ...projectErrorResponses },
      },
    },
    async (request) =>
      service.listProtocols(app.ctx, projectScope(request).project.projectUuid, request.query, request.url),
  );

  api.post(
    `${base}/`,
    {
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Save analysis settings as a protocol (version 1)',
        description:
          'Body `{name, kind, parameters}`. Parameters are checked as a run of the kind checks them, except what needs a video, which is checked when a run is made from the protocol. Names are unique in the project, ignoring case.',
        params: protocolListParams,
        body: createProtocolBody,
        response: { 201: protocolDetailSchema, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { project, user } = projectScope(request);
      return reply.status(201).send(await service.createProtocol(app.ctx, project.projectUuid, user.id, request.body));
    },
  );

  api.get(
    `${base}/:protocol_uuid/`,
    {
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: 'A protocol at its current version, or at `version`, with its list of versions',
        params: protocolParams,
        querystring: protocolVersionQuery,
        response: { 200: protocolDetailSchema, ...projectErrorResponses },
      },
    },
    async (request) =>
      service.getProtocol(
        app.ctx,
        projectScope(request).project.projectUuid,
        request.params.protocol_uuid,
        request.query.version,
      ),
  );

  api.patch(
    `${base}/:protocol_uuid/`,
    {
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Edit a protocol: a new version with the new name and/or parameters',
        description:
          'Earlier versions are kept and readable with `?version=N`; runs keep the version they used. Parameters are given whole. A change that changes nothing makes no version.',
        params: protocolParams,
        body: updateProtocolBody,
        response: { 200: protocolDetailSchema, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { project, user } = projectScope(request);
      return service.updateProtocol(app.ctx, project.projectUuid, request.params.protocol_uuid, user.id, request.body);
    },
  );

  api.delete(
    `${base}/:protocol_uuid/`,
    {
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Delete a protocol; the runs made from it keep it recorded',
        params: protocolParams,
        response: { 204: noContent, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      await service.deleteProtocol(app.ctx, projectScope(request).project.projectUuid, request.params.protocol_uuid);
      return reply.status(204).send(null);
    },
  );
}
