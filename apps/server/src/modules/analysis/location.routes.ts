/** Location tracking's own reads beside a run (issue 22): its jumps. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { projectErrorResponses } from '../../lib/openapi.js';
import { pageSchema } from '../../lib/pagination.js';
import { videoScope } from '../../lib/project-scope.js';
import { analysisParams } from './analysis.schemas.js';
import { jumpSchema, jumpsQuery, listJumps } from './location.jumps.js';

const tags = ['analysis'];
const base = '/projects/:project_uuid/subjects/:subject_uuid/videos/:video_uuid/analysis';

export default async function locationRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  api.get(
    `${base}/:analysis_uuid/jumps/`,
    {
      onRequest: app.authenticate,
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "A location-tracking run's jumps: frames where the position moved more than a body length",
        description:
          "Each frame whose position lies farther than the run's `summary.location.jumps.threshold_px` from the previous tracked frame's (frames without a position skipped; a bypassed range starts again), where the tracking is most likely wrong. Pagination with page and page_size; `ordering`: frame (default) or distance_px, `-` reverses.",
        params: analysisParams,
        querystring: jumpsQuery,
        response: { 200: pageSchema(jumpSchema), ...projectErrorResponses },
      },
    },
    async (request) =>
      listJumps(ctx, videoScope(request).video, request.params.analysis_uuid, request.query, request.url),
  );
}
