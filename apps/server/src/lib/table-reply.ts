import type { FastifyReply } from 'fastify';
import { attachmentDisposition, downloadFileName } from './download-names.js';
import { csvStream, type ExportFormat, exportFormats, type Table, xlsxStream } from './table-export.js';

/**
 * Answers tables as a download: CSV (the first table) or XLSX (one sheet per table), named after what they hold
 * (`nameParts`, e.g. subject, video, run, table: lib/download-names.ts), never cached.
 */
export function sendTables(
  reply: FastifyReply,
  tables: Table[],
  format: ExportFormat,
  nameParts: (string | null | undefined)[],
) {
  const { contentType, extension } = exportFormats[format];
  const first = tables[0];
  if (!first) throw new Error('nothing to export');
  return reply
    .header('content-type', contentType)
    .header('content-disposition', attachmentDisposition(downloadFileName(nameParts, extension)))
    .header('cache-control', 'no-store')
    .send(format === 'csv' ? csvStream(first) : xlsxStream(tables));
}
