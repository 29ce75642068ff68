/**
 * A pose set as files: DeepLabCut's CSV (its header rows, one row per video frame; importing it again gives the same
 * set) and a tidy CSV (`frame,time_s,individual,bodypart,x,y,likelihood`, one row per point present). Numbers are the
 * stored Float32 values in their shortest exact text; times as every export writes them (lib/export-numbers.ts).
 */
import { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { downloadFileName } from '../../lib/download-names.js';
import { exportSeconds, formatExportNumber } from '../../lib/export-numbers.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { SINGLE } from './engine/pose-data.js';
import { findPoseSet, type PoseSetRow } from './pose.service.js';
import { decodeAll, float32Text, type PoseColumns } from './pose-file.js';

/**
 * Frames written per chunk of the stream (a few milliseconds of formatting for 2 × 13 keypoints); the event loop gets
 * a turn between chunks, so an hour's export never holds other requests for long.
 */
const FRAMES_PER_CHUNK = 250;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function columnsOf(context: AppContext, row: PoseSetRow): Promise<PoseColumns> {
  const chunks: Buffer[] = [];
  for await (const chunk of await context.storage.read(row.storageKey)) chunks.push(chunk as Buffer);
  return decodeAll(new Uint8Array(Buffer.concat(chunks)), row.frameCount, row.keypoints.length);
}

/** A CSV cell: quoted when it holds a comma, a quote or a line break. */
const cell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

function dlcHeader(row: PoseSetRow): string {
  const scorer = typeof row.source.scorer === 'string' && row.source.scorer ? row.source.scorer : 'imported';
  const multi = row.individuals.length > 1 || row.individuals[0] !== SINGLE;
  const coords = row.hasLikelihood ? ['x', 'y', 'likelihood'] : ['x', 'y'];
  const columns = row.keypoints.flatMap(([i, b]) =>
    coords.map((coord) => [row.individuals[i]!, row.bodyparts[b]!, coord]),
  );
  const line = (first: string, cells: string[]) => `${[first, ...cells].map(cell).join(',')}\n`;
  return (
    line(
      'scorer',
      columns.map(() => scorer),
    ) +
    (multi
      ? line(
          'individuals',
          columns.map((c) => c[0]!),
        )
      : '') +
    line(
      'bodyparts',
      columns.map((c) => c[1]!),
    ) +
    line(
      'coords',
      columns.map((c) => c[2]!),
    )
  );
}

export async function exportDlcCsv(context: AppContext, row: PoseSetRow): Promise<Readable> {
  const { values } = await columnsOf(context, row);
  const channels = row.hasLikelihood ? 3 : 2;
  const series = row.keypoints.flatMap((_, k) => Array.from({ length: channels }, (_, c) => values[k * 3 + c]!));
  async function* lines() {
    yield dlcHeader(row);
    for (let start = 0; start < row.frameCount; start += FRAMES_PER_CHUNK) {
      let text = '';
      for (let frame = start; frame < Math.min(row.frameCount, start + FRAMES_PER_CHUNK); frame++) {
        text += String(frame);
        for (const column of series) text += `,${float32Text(column[frame]!)}`;
        text += '\n';
      }
      yield text;
      await nextTurn();
    }
  }
  return Readable.from(lines());
}

export async function exportTidyCsv(context: AppContext, row: PoseSetRow, fps: number | null): Promise<Readable> {
  const { values } = await columnsOf(context, row);
  const names = row.keypoints.map(([i, b]) => `${cell(row.individuals[i]!)},${cell(row.bodyparts[b]!)}`);
  async function* lines() {
    yield 'frame,time_s,individual,bodypart,x,y,likelihood\n';
    for (let start = 0; start < row.frameCount; start += FRAMES_PER_CHUNK) {
      let text = '';
      for (let frame = start; frame < Math.min(row.frameCount, start + FRAMES_PER_CHUNK); frame++) {
        const time = fps ? formatExportNumber(exportSeconds(frame / fps)) : '';
        for (let k = 0; k < names.length; k++) {
          const x = values[k * 3]![frame]!;
          const y = values[k * 3 + 1]![frame]!;
          if (Number.isNaN(x) && Number.isNaN(y)) continue;
          text += `${frame},${time},${names[k]},${float32Text(x)},${float32Text(y)},${float32Text(values[k * 3 + 2]![frame]!)}\n`;
        }
      }
      yield text;
      await nextTurn();
    }
  }
  return Readable.from(lines());
}

/** A video's pose set as a file to download: its body and its name (subject, video, set, kind). */
export async function exportPoseSet(
  context: AppContext,
  scope: { video: VideoRow; subject: { name: string } },
  poseUuid: string,
  format: 'dlc' | 'tidy',
): Promise<{ body: Readable; name: string }> {
  const row = await findPoseSet(context, scope.video, poseUuid);
  const tidy = format === 'tidy';
  const body = tidy ? await exportTidyCsv(context, row, scope.video.fps) : await exportDlcCsv(context, row);
  const name = downloadFileName(
    [scope.subject.name, scope.video.name, row.name, tidy ? 'pose-tidy' : 'pose-dlc'],
    'csv',
  );
  return { body, name };
}
