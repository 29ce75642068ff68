import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.js';
import { storedFileIsLive } from '../trash/trash.service.js';

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

/** `.../analyses/{uuid}/series.csv` → `series-{uuid}.csv`. */
function downloadName(key: string): string {
  const parts = key.split('/');
  const file = parts.at(-1) ?? 'download.csv';
  const owner = parts.at(-2);
  return owner ? `${path.basename(file, '.csv')}-${owner}.csv` : file;
}

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
      // A file of something in the trash is not served (it comes back with a restore).
      if (!(await storedFileIsLive(app.ctx, claims.res))) throw notFound();
      const info = await app.ctx.storage.stat(claims.res);
      if (!info) throw notFound();
      const stream = await app.ctx.storage.read(claims.res);
      const extension = path.extname(claims.res).toLowerCase();
      // Data files are downloads, named after the run they belong to; images are shown inline.
      if (extension === '.csv')
        reply.header('content-disposition', `attachment; filename="${downloadName(claims.res)}"`);
      return reply
        .header('content-type', contentTypes[extension] ?? 'application/octet-stream')
        .header('content-length', info.size)
        .header('cache-control', 'private, max-age=86400')
        .send(stream);
    },
  );
}
