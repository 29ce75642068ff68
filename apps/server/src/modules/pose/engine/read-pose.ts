/**
 * Reads a pose file by what it holds, never by its name: HDF5's signature → DeepLabCut's table or SLEAP's analysis
 * file; text → DeepLabCut's CSV (first cell `scorer`) or SLEAP's CSV (a `frame_idx` column and `<node>.x` columns).
 * Then lays it over the video and writes the stored file. Runs in the pose worker thread.
 */

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { encodeBlocks, storedSize } from '../pose-file.js';
import { skeletonFromConfig } from './dlc-config.js';
import { looksLikeDlcCsv, parseDlcCsv } from './dlc-csv.js';
import { isHdf5, readPoseH5 } from './h5.js';
import { fileError, type ParsedPose, PoseFileError, placeOnVideo, textLines } from './pose-data.js';
import type { PoseImportResult, PoseImportTask } from './pose-tasks.js';
import { looksLikeSleapCsv, parseSleapCsv } from './sleap-csv.js';

async function head(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export async function parsePoseFile(path: string, videoFrames: number | null): Promise<ParsedPose> {
  const start = await head(path);
  if (start.length === 0) throw fileError('The file is empty.');
  if (isHdf5(start)) return readPoseH5(path, videoFrames);
  // A text file has no NUL bytes in its first few kilobytes; anything else is not one of the formats.
  if (start.includes(0)) {
    throw fileError('Not a pose file: neither HDF5 (DeepLabCut .h5, SLEAP analysis .h5) nor CSV text.');
  }
  const text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
  const lines = textLines(text);
  const first = lines[0] ?? '';
  if (looksLikeDlcCsv(first)) return parseDlcCsv(lines);
  if (looksLikeSleapCsv(first)) return parseSleapCsv(lines);
  throw fileError(
    'Not a pose file: a CSV whose first row is neither DeepLabCut\'s header ("scorer", …) nor SLEAP\'s ("track", "frame_idx", "<node>.x", …).',
  );
}

/** A DeepLabCut file's edges from the config.yaml sent with it; SLEAP's files bring their own skeleton. */
function configEdges(config: string, parsed: ParsedPose): [string, string][] {
  if (!parsed.format.startsWith('dlc')) {
    throw new PoseFileError(
      'config',
      'This is a SLEAP file, whose skeleton comes with it: a config.yaml gives a DeepLabCut file its skeleton.',
    );
  }
  return skeletonFromConfig(config, parsed.bodyparts);
}

export async function importPoseFile(task: PoseImportTask): Promise<PoseImportResult> {
  try {
    const parsed = await parsePoseFile(task.path, task.frameOffset === null ? task.videoFrames : null);
    const columns = placeOnVideo(parsed, task.videoFrames, task.frameOffset);
    // After the file's own checks, so a file that does not fit is named first.
    const edges = task.config === null ? parsed.edges : configEdges(task.config, parsed);
    const out = createWriteStream(task.outPath);
    for (const block of encodeBlocks(columns)) {
      if (!out.write(block)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    return {
      ok: true,
      meta: {
        format: parsed.format,
        scorer: parsed.scorer,
        individuals: parsed.individuals,
        bodyparts: parsed.bodyparts,
        keypoints: parsed.keypoints,
        edges,
        hasLikelihood: parsed.hasLikelihood,
        fileFrames: parsed.rowFrames === null ? parsed.rows : null,
        labelledFrames: parsed.rowFrames === null ? null : parsed.rows,
        frameCount: columns.frameCount,
        sizeBytes: storedSize(columns.frameCount, columns.keypointCount),
      },
    };
  } catch (error) {
    if (error instanceof PoseFileError) return { ok: false, field: error.field, message: error.message };
    throw error;
  }
}
