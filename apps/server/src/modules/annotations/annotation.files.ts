/**
 * Annotation files: a track's ranges to and from the spec's time-range CSV, and every track of a video as BORIS's
 * aggregated-events table, so bouts move between this app, BORIS and a lab's own scripts.
 */
import { asc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { annotationConfigs, type subjects } from '../../db/schema.js';
import { badRequest, payloadTooLarge, unsupportedMediaType } from '../../lib/errors.js';
import { defuseFormula } from '../../lib/table-export.js';
import { formatTimeRangeCsv, parseTimeRangeCsv, TIME_RANGE_MESSAGES } from '../../lib/time-ranges.js';
import { formatTime } from '../analysis/engine/series-csv.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { snapToFrames } from './annotation.ranges.js';
import { importRanges, type RangesResponse, trackForExport } from './annotation.service.js';

/** Far more than 100,000 ranges at full precision need; the file is read whole and parsed at once. */
export const MAX_ANNOTATION_CSV_BYTES = 4 * 1024 * 1024;

/**
 * Reads the multipart body (field `file`, optional field `version`) and replaces the track's ranges with the file's.
 * Every broken rule answers `{"errors": {"file": ["<the spec's message>"]}}` and changes nothing.
 */
export async function importTrackCsv(
  context: AppContext,
  video: VideoRow,
  uuid: string,
  request: FastifyRequest,
): Promise<RangesResponse> {
  if (!request.isMultipart()) throw unsupportedMediaType('Send the CSV as multipart/form-data in the field "file".');
  let fileName: string | undefined;
  let content: Buffer | undefined;
  let version: number | undefined;
  for await (const part of request.parts({ limits: { fileSize: MAX_ANNOTATION_CSV_BYTES, files: 1 } })) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') {
        part.file.resume();
        continue;
      }
      fileName = part.filename;
      try {
        content = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE' || part.file.truncated) {
          throw payloadTooLarge(`The CSV is larger than ${MAX_ANNOTATION_CSV_BYTES / 1024 / 1024} MB.`);
        }
        throw badRequest({ file: [TIME_RANGE_MESSAGES.readFailed] });
      }
    } else if (part.fieldname === 'version') {
      const value = String(part.value);
      if (!/^\d+$/.test(value)) throw badRequest({ version: ['version must be a whole number.'] });
      version = Number(value);
    }
  }
  if (fileName === undefined || content === undefined) throw badRequest({ file: [TIME_RANGE_MESSAGES.noFile] });
  if (!fileName.toLowerCase().endsWith('.csv')) throw badRequest({ file: [TIME_RANGE_MESSAGES.notCsv] });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    throw badRequest({ file: [TIME_RANGE_MESSAGES.unreadable] });
  }
  const parsed = parseTimeRangeCsv(text);
  if (!parsed.ok) throw badRequest({ file: [parsed.error] });
  return importRanges(context, video, uuid, snapToFrames(parsed.ranges, video.fps), version, 'file');
}

export async function exportTrackCsv(context: AppContext, video: VideoRow, uuid: string) {
  const track = await trackForExport(context, video, uuid);
  return { name: track.name, csv: formatTimeRangeCsv(track.ranges) };
}

/** BORIS's aggregated-events columns, in its order. */
export const BORIS_COLUMNS = [
  'Observation id',
  'Observation date',
  'Description',
  'Media file',
  'Total length',
  'FPS',
  'Subject',
  'Behavior',
  'Behavioral category',
  'Modifiers',
  'Behavior type',
  'Start (s)',
  'Stop (s)',
  'Duration (s)',
  'Comment start',
  'Comment stop',
] as const;

/** A TSV cell: no tab or line break inside; text a spreadsheet would run as a formula is defused. */
export function tsvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? formatTime(value) : '';
  // Defused before tabs and line breaks become spaces, so a cell that started with one keeps its apostrophe too.
  return defuseFormula(value).replace(/[\t\r\n]+/g, ' ');
}

/** "2026-11-23 14:05:00" (UTC), as BORIS writes observation dates. */
const borisDate = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

/**
 * Every bout of the video's tracks as one state event each (BORIS "STATE" behaviours), ordered by start time: the
 * observation is the video, the subject is the subject, the behaviour is the track.
 */
export async function borisAggregatedEvents(
  context: AppContext,
  video: VideoRow,
  subject: typeof subjects.$inferSelect,
): Promise<string> {
  const tracks = await context.db
    .select({ name: annotationConfigs.name, ranges: annotationConfigs.ranges })
    .from(annotationConfigs)
    .where(eq(annotationConfigs.videoUuid, video.videoUuid))
    .orderBy(asc(annotationConfigs.order), asc(annotationConfigs.createdAt));
  const bouts = tracks
    .flatMap((track, order) => track.ranges.map(([start, end]) => ({ behavior: track.name, order, start, end })))
    .sort((a, b) => a.start - b.start || a.order - b.order);
  const observation = [
    video.name,
    borisDate(video.recordedAt ?? video.createdAt),
    '',
    video.originalFilename,
    video.durationS,
    video.fps,
    subject.name,
  ];
  const lines = [BORIS_COLUMNS.join('\t')];
  for (const bout of bouts) {
    const cells = [...observation, bout.behavior, '', '', 'STATE', bout.start, bout.end, bout.end - bout.start, '', ''];
    lines.push(cells.map(tsvCell).join('\t'));
  }
  return `${lines.join('\r\n')}\r\n`;
}
