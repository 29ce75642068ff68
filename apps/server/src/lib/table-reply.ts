import type { FastifyReply } from 'fastify';
import { csvStream, type ExportFormat, exportFormats, type Table, xlsxStream } from './table-export.js';

/**
 * Answers tables as a download: CSV (the first table) or XLSX (one sheet per table), named `name.csv|xlsx`, never
 * cached.
 */
export function sendTables(reply: FastifyReply, tables: Table[], format: ExportFormat, name: string) {
  const { contentType, extension } = exportFormats[format];
  const first = tables[0];
  if (!first) throw new Error('nothing to export');
  return reply
    .header('content-type', contentType)
    .header('content-disposition', `attachment; filename="${name}.${extension}"`)
    .header('cache-control', 'no-store')
    .send(format === 'csv' ? csvStream(first) : xlsxStream(tables));
}
