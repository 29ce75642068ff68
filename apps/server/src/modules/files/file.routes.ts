import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachmentDisposition } from '../../lib/download-names.js';
import { notFound } from '../../lib/errors.js';
import { openFile } from './file.service.js';

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
        summary: 'A stored file (thumbnail, logo, avatar, series CSV) by the signed token of its URL',
        description:
          'The token names a user and a storage key; on every request the user must still exist, not have changed ' +
          "their password since, and be a member of the file's project (avatars: the user or someone sharing a " +
          'project with them), else 404. Image URLs live at most 24 h, download URLs 5 minutes.',
        security: [],
        params: z.object({ token: z.string() }),
      },
    },
    async (request, reply) => {
      const claims = await app.ctx.tokens.verify(request.params.token, 'file');
      if (!claims) throw notFound();
      const file = await openFile(app.ctx, claims);
      const extension = path.extname(file.key).toLowerCase();
      // Data files are downloads, named after what they hold; images are shown inline.
      if (file.downloadName) reply.header('content-disposition', attachmentDisposition(file.downloadName));
      // Cached no longer than the URL lives (a URL is checked again on every request that reaches the server).
      const maxAge = Math.max(0, Math.min(claims.exp - Math.floor(Date.now() / 1000), 86400));
      return reply
        .header('content-type', contentTypes[extension] ?? 'application/octet-stream')
        .header('content-length', file.size)
        .header('cache-control', `private, max-age=${maxAge}`)
        .send(file.stream);
    },
  );
}
