import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, projectErrorResponses } from '../../lib/openapi.js';
import { videoScope } from '../../lib/project-scope.js';
import { eventsResponse, updateEventsBody, updateEventsResponse } from '../analysis/analysis.events.schemas.js';
import { analysisParams } from '../analysis/analysis.schemas.js';
import * as consensus from './scorer.consensus.js';
import { resolveBody, scorersResponse } from './scorer.schemas.js';
import * as service from './scorer.service.js';

const tags = ['scorers'];
const base = '/projects/:project_uuid/subjects/:subject_uuid/videos/:video_uuid/analysis/:analysis_uuid';

/** Blind second scoring of a run and the consensus's resolution of differences (ADR 014). */
export default async function scorerRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  api.get(
    `${base}/scorers/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "The run's blind scorers and the consensus's reviewers (who scored it before you)",
        params: analysisParams,
        response: { 200: scorersResponse, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { user, video } = videoScope(request);
      return service.listScorers(ctx, video, user.id, request.params.analysis_uuid);
    },
  );

  api.post(
    `${base}/scorers/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Start scoring the run blind, on your own (the consensus and other scorings stay hidden from it)',
        params: analysisParams,
        response: { 200: scorersResponse, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { user, video } = videoScope(request);
      return service.startScoring(ctx, video, user.id, request.params.analysis_uuid);
    },
  );

  api.get(
    `${base}/my-scoring/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Your blind scoring of the run: its detected events as detected, with only your decisions',
        params: analysisParams,
        response: { 200: eventsResponse, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { user, video } = videoScope(request);
      return service.myScoring(ctx, video, user.id, request.params.analysis_uuid);
    },
  );

  api.post(
    `${base}/my-scoring/update-events/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Change your blind scoring atomically, as update-events/ changes the consensus',
        description:
          "The body and answer of `update-events/` (`analysis_uuid` is the path's). `version` is your scoring's. A detected event cannot be deleted from a scoring: discard it.",
        params: analysisParams,
        body: updateEventsBody,
        response: {
          200: updateEventsResponse,
          ...projectErrorResponses,
          409: errorSchema.extend({ version: z.int().meta({ description: 'The current version of your scoring' }) }),
        },
      },
    },
    async (request) => {
      const { user, video } = videoScope(request);
      return service.updateMyScoring(ctx, video, user.id, request.params.analysis_uuid, request.body);
    },
  );

  api.post(
    `${base}/consensus/resolve/`,
    {
      onRequest: app.authenticate,
      config: { access: 'member' },
      schema: {
        tags,
        summary:
          "Settle a difference: the consensus's event takes a scorer's scoring of it, or stays; who settled it is kept",
        params: analysisParams,
        body: resolveBody,
        response: { 200: eventsResponse, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { user, video } = videoScope(request);
      return consensus.resolveDifference(ctx, video, user.id, request.params.analysis_uuid, request.body);
    },
  );
}
