import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pingDatabase } from '../../db/client.js';
import { APP_VERSION } from '../../version.js';

const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), ok: z.boolean() }),
  storage: z.enum(['local', 's3']),
  mail: z.enum(['outbox', 'smtp']),
});

const clientConfigSchema = z.object({
  support_email: z.string(),
  docs_url: z.string(),
  billing_enabled: z.boolean(),
  max_upload_bytes: z.number(),
  trash_days: z
    .number()
    .describe('Days a deleted object stays in the trash before it is removed for good (TRASH_DAYS)'),
});

export default async function healthRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/config/',
    {
      schema: {
        tags: ['health'],
        summary:
          'Public settings the web app shows: support address, docs link, upload limit, billing on/off, trash days',
        security: [],
        response: { 200: clientConfigSchema },
      },
    },
    async () => ({
      support_email: app.ctx.config.supportEmail,
      docs_url: app.ctx.config.docsUrl,
      // On when STRIPE_SECRET_KEY is set: new projects choose a plan and start as drafts.
      billing_enabled: app.ctx.billing !== null,
      max_upload_bytes: app.ctx.config.maxUploadBytes,
      trash_days: app.ctx.config.trashDays,
    }),
  );

  app.withTypeProvider<ZodTypeProvider>().get(
    '/health/',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and readiness: answers 200 when the database answers, 503 otherwise',
        security: [],
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      const { ctx } = app;
      const ok = await pingDatabase(ctx.db).then(
        () => true,
        () => false,
      );
      return reply.status(ok ? 200 : 503).send({
        status: ok ? 'ok' : 'degraded',
        version: APP_VERSION,
        database: { kind: ctx.database.kind, ok },
        storage: ctx.storage.kind,
        mail: ctx.mailer.kind,
      });
    },
  );
}
