import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.js';

const contentTypes: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.bin': 'application/octet-stream',
};

export default async function fileRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/files/:token',
    {
      schema: {
        tags: ['files'],
        summary: 'A stored file (thumbnail, logo, avatar) by the signed token of its URL',
        security: [],
        params: z.object({ token: z.string() }),
      },
    },
    async (request, reply) => {
      const claims = await app.ctx.tokens.verify(request.params.token, 'file');
      if (!claims?.res) throw notFound();
      const info = await app.ctx.storage.stat(claims.res);
      if (!info) throw notFound();
      const stream = await app.ctx.storage.read(claims.res);
      return reply
        .header('content-type', contentTypes[path.extname(claims.res).toLowerCase()] ?? 'application/octet-stream')
        .header('content-length', info.size)
        .header('cache-control', 'private, max-age=86400')
        .send(stream);
    },
  );
}
