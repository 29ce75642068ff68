import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachmentDisposition } from '../../lib/download-names.js';
import { errorSchema, projectErrorResponses } from '../../lib/openapi.js';
import { pageSchema, toPage } from '../../lib/pagination.js';
import { projectScope } from '../../lib/project-scope.js';
import { sendTables } from '../../lib/table-reply.js';
import { checkBatch, createBatch } from './batch.create.js';
import { batchFigure } from './batch.figure.js';
import { batchResults, protocolResults, type Results, resultsPage, resultTables } from './batch.results.js';
import {
  batchCheckResponse,
  batchDetailSchema,
  batchListParams,
  batchListQuery,
  batchParams,
  batchSchema,
  createBatchBody,
  figureQuery,
  protocolResultsParams,
  resultsQuery,
  resultsResponse,
  statisticsQuery,
  statisticsResponse,
} from './batch.schemas.js';
import * as service from './batch.service.js';
import { groupStatistics, statisticsTables } from './batch.statistics.js';

const tags = ['batches'];
const figureResponse = z.any().meta({ description: 'The figure (PNG or SVG)', type: 'string', format: 'binary' });
const resultsDescription =
  "One row per run (each video's newest run in each batch, when it succeeded): batch_uuid, subject, subject_uuid, group, subject_<metadata key>…, video, video_uuid, recorded_at, analysis_uuid, protocol_version, reviewed (event kinds), then one column per outcome measure of the kind. `layout=long`: a row per run × measure with measure, value, unit. `format=json` (default) answers a page (`page`, `page_size` ≤ 1000) with each column's role and unit; `format=csv|xlsx` answers the whole table as a file (the xlsx adds a sheet defining every column). ADR 035.";
const base = '/projects/:project_uuid/batches';

export default async function batchRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.addHook('onRequest', app.authenticate);

  api.get(
    `${base}/`,
    {
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "The project's batches, newest first, with their progress",
        description: '`protocol_uuid` keeps the batches of one protocol.',
        params: batchListParams,
        querystring: batchListQuery,
        response: { 200: pageSchema(batchSchema), ...projectErrorResponses },
      },
    },
    async (request) =>
      service.listBatches(app.ctx, projectScope(request).project.projectUuid, request.query, request.url),
  );

  api.post(
    `${base}/`,
    {
      config: { access: 'member', work: 'process' },
      schema: {
        tags,
        summary: 'Apply a protocol to many videos at once: one run per video, queued for every worker',
        description:
          "Body `{protocol_uuid, protocol_version?, video_uuids? | subject_uuids? | group?, overrides?}`: a hand-picked list, the ready videos of chosen subjects or of a subject group, or (none given) every ready video of the project. `overrides` is keyed by video uuid: `{parameters?, geometry?: {dx, dy, scale, origin}}`. Every video's run is checked as `POST …/analysis/` checks it before anything is made: errors are keyed `videos.<video_uuid>.<field>` and nothing is created. ADR 035.",
        params: batchListParams,
        body: createBatchBody,
        response: { 201: batchDetailSchema, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { project, user } = projectScope(request);
      const batchUuid = await createBatch(app.ctx, project.projectUuid, user.id, request.body);
      return reply.status(201).send(await service.getBatch(app.ctx, project.projectUuid, batchUuid));
    },
  );

  api.post(
    `${base}/check/`,
    {
      config: { access: 'member', work: 'process' },
      schema: {
        tags,
        summary: 'Check a batch request without starting it: the parameters each video’s run would use',
        description:
          'The same body and the same 400s as `POST …/batches/`; nothing is made. Each video’s parameters are the protocol’s with its adjustments applied and every default filled in, so a page can draw them on the video’s frame before the batch starts.',
        params: batchListParams,
        body: createBatchBody,
        response: { 200: batchCheckResponse, ...projectErrorResponses },
      },
    },
    async (request) => {
      const { project, user } = projectScope(request);
      return checkBatch(app.ctx, project.projectUuid, user.id, request.body);
    },
  );

  api.get(
    `${base}/:batch_uuid/`,
    {
      config: { access: 'viewer' },
      schema: {
        tags,
        summary:
          'A batch: each video’s newest run with its status, progress, failure and adjustments; overall progress and time left',
        params: batchParams,
        response: { 200: batchDetailSchema, ...projectErrorResponses },
      },
    },
    async (request) => service.getBatch(app.ctx, projectScope(request).project.projectUuid, request.params.batch_uuid),
  );

  api.post(
    `${base}/:batch_uuid/retry/`,
    {
      config: { access: 'member', work: 'process' },
      schema: {
        tags,
        summary: 'Run again every video whose newest run failed or was stopped (new runs; the old ones stay)',
        params: batchParams,
        response: { 200: batchDetailSchema, ...projectErrorResponses, 409: errorSchema },
      },
    },
    async (request) => {
      const { project, user } = projectScope(request);
      return service.retryBatch(app.ctx, project.projectUuid, request.params.batch_uuid, user.id);
    },
  );

  api.post(
    `${base}/:batch_uuid/stop/`,
    {
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Stop a batch: revoke every run that has not finished',
        params: batchParams,
        response: { 200: batchDetailSchema, ...projectErrorResponses, 409: errorSchema },
      },
    },
    async (request) => service.stopBatch(app.ctx, projectScope(request).project.projectUuid, request.params.batch_uuid),
  );

  /** The table as a JSON page, or as a CSV / XLSX download. */
  const sendResults = (
    reply: FastifyReply,
    requestUrl: string,
    answer: { results: Results; nameParts: string[] },
    query: z.output<typeof resultsQuery>,
  ) => {
    if (query.format === 'json') {
      return resultsPage(answer.results, query, (total, rows) =>
        toPage(requestUrl, app.ctx.config.publicUrl, query, total, rows),
      );
    }
    return sendTables(reply, resultTables(answer.results, query.layout, query.format), query.format, [
      ...answer.nameParts,
      query.layout,
    ]);
  };

  api.get(
    `${base}/:batch_uuid/results/`,
    {
      config: { access: 'viewer' },
      schema: {
        tags,
        summary:
          "A batch's results table: a row per run, a column per outcome measure (JSON, CSV or XLSX; wide or long)",
        description: resultsDescription,
        params: batchParams,
        querystring: resultsQuery,
        response: { 200: resultsResponse, ...projectErrorResponses },
      },
    },
    async (request, reply) =>
      sendResults(
        reply,
        request.url,
        await batchResults(app.ctx, projectScope(request).project, request.params.batch_uuid),
        request.query,
      ),
  );

  api.get(
    '/projects/:project_uuid/protocols/:protocol_uuid/results/',
    {
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "A protocol's results across all its batches (JSON, CSV or XLSX; wide or long)",
        description: resultsDescription,
        params: protocolResultsParams,
        querystring: resultsQuery,
        response: { 200: resultsResponse, ...projectErrorResponses },
      },
    },
    async (request, reply) =>
      sendResults(
        reply,
        request.url,
        await protocolResults(app.ctx, projectScope(request).project, request.params.protocol_uuid),
        request.query,
      ),
  );

  api.get(
    `${base}/:batch_uuid/statistics/`,
    {
      config: { access: 'viewer' },
      schema: {
        tags,
        summary:
          "Group statistics of a batch's results: per measure and subject group n, mean, SD, SEM, median, IQR, and the tests",
        description:
          "Two groups: Welch's t (t, df, p), Mann–Whitney U (exact below 50 values per group without ties, else the normal approximation with continuity and tie corrections, as R's wilcox.test) and Hedges' g (exact J); three or more: Welch's one-way ANOVA (F, df1, df2, p) and Kruskal–Wallis (H, df, p, tie-corrected). Runs of subjects without a group are left out. `format=csv` answers `table=descriptives|tests`; `format=xlsx` both sheets. ADR 035.",
        params: batchParams,
        querystring: statisticsQuery,
        response: { 200: statisticsResponse, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { project } = projectScope(request);
      const { results, nameParts } = await batchResults(app.ctx, project, request.params.batch_uuid);
      const statistics = groupStatistics(results);
      const { format, table } = request.query;
      if (format === 'json') return statistics;
      const tables = statisticsTables(statistics);
      return sendTables(reply, format === 'xlsx' ? [tables.descriptives, tables.tests] : [tables[table]], format, [
        ...nameParts.slice(0, -1),
        format === 'xlsx' ? 'statistics' : table,
      ]);
    },
  );

  api.get(
    `${base}/:batch_uuid/statistics/figure/`,
    {
      config: { access: 'viewer' },
      schema: {
        tags,
        summary: "A plot of one measure by group: each run's point, the group's box and mean ± SEM (PNG or SVG)",
        description:
          'Points jittered deterministically; the box is the type-7 quartiles with whiskers to the most extreme value within 1.5 × IQR; the diamond and bar are the mean ± SEM. The PNG has no words; the SVG carries the axis, the group names and n. ADR 035.',
        params: batchParams,
        querystring: figureQuery,
        response: { 200: figureResponse, ...projectErrorResponses },
      },
    },
    async (request, reply) => {
      const { project } = projectScope(request);
      const { results, nameParts } = await batchResults(app.ctx, project, request.params.batch_uuid);
      const figure = await batchFigure(results, request.query.measure, request.query.format, {
        title: project.name,
        fileParts: nameParts.slice(0, -1),
      });
      return reply
        .header('content-type', figure.contentType)
        .header('content-disposition', attachmentDisposition(figure.fileName))
        .header('cache-control', 'no-store')
        .send(figure.bytes);
    },
  );
}
