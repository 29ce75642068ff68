/** Pose sets of a video: import (the parsing runs in a worker thread), list, frames for the player, delete. */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { poseSets } from '../../db/schema.js';
import { isUuid } from '../../lib/access.js';
import { badRequest, notFound, payloadTooLarge, unsupportedMediaType } from '../../lib/errors.js';
import { jobWorkDir, poseSetKeys } from '../../lib/storage-keys.js';
import { deleteRowsAndFiles } from '../files/file-deletion.js';
import type { VideoRow } from '../videos/video.lookup.js';
import { MAX_CONFIG_BYTES } from './engine/dlc-config.js';
import { runPoseImport } from './engine/pose-worker-client.js';
import type { PoseFramesResponse, PoseSetResponse } from './pose.schemas.js';
import { CHANNELS, decodeWindow, frameWindowRange } from './pose-file.js';

/** Larger than an hour of 4 animals × 30 keypoints as DeepLabCut CSV (about 0.5 GB). */
export const MAX_POSE_BYTES = 1024 * 1024 * 1024;
export type PoseSetRow = typeof poseSets.$inferSelect;

export function toPoseSet(row: PoseSetRow): PoseSetResponse {
  return {
    pose_uuid: row.poseUuid,
    name: row.name,
    format: row.format as PoseSetResponse['format'],
    individuals: row.individuals,
    bodyparts: row.bodyparts,
    keypoints: row.keypoints.map(([i, b]) => ({ individual: row.individuals[i]!, bodypart: row.bodyparts[b]! })),
    edges: row.edges,
    frame_count: row.frameCount,
    has_likelihood: row.hasLikelihood,
    frame_offset: typeof row.source.frame_offset === 'number' ? row.source.frame_offset : 0,
    file_name: typeof row.source.file_name === 'string' ? row.source.file_name : null,
    created_at: row.createdAt.toISOString(),
  };
}

function fieldText(value: unknown): string {
  return typeof value === 'string' ? value : String(value ?? '');
}

/** `frame_offset`: a whole number of frames ≥ 0, or absent. */
function parseOffset(raw: string | undefined): number | null {
  if (raw === undefined || raw.trim() === '') return null;
  if (!/^\d{1,9}$/.test(raw.trim())) throw badRequest({ frame_offset: ['A whole number of frames, 0 or more.'] });
  return Number(raw.trim());
}

function parseName(raw: string | undefined, fileName: string): string {
  const name = (raw ?? '').trim() || fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '').trim() || 'Pose';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(name)) throw badRequest({ name: ['A name cannot hold control characters.'] });
  if (name.length > 200) throw badRequest({ name: ['A name has at most 200 characters.'] });
  return name;
}

/** A small multipart file part whole, or null when it is larger than `limit` bytes (the rest is drained). */
async function readLimited(file: AsyncIterable<Buffer>, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of file) {
    bytes += chunk.length;
    if (bytes <= limit) chunks.push(chunk);
  }
  return bytes > limit ? null : Buffer.concat(chunks);
}

/**
 * `POST …/videos/{v}/pose/`: the file (field `file`) and DeepLabCut's config.yaml (field `config`, optional) are
 * read in a worker; a file that does not fit leaves nothing behind.
 */
export async function importPose(context: AppContext, video: VideoRow, userId: number, request: FastifyRequest) {
  if (!request.isMultipart()) {
    throw unsupportedMediaType('Send the pose file as multipart/form-data in the field "file".');
  }
  const dir = jobWorkDir(context.config.dataDir, 'import', randomUUID());
  await mkdir(dir, { recursive: true });
  try {
    const upload = path.join(dir, 'upload');
    const fields: Record<string, string> = {};
    let fileName: string | undefined;
    let config: Buffer | 'too large' | null = null;
    for await (const part of request.parts({ limits: { fileSize: MAX_POSE_BYTES, files: 2 } })) {
      if (part.type === 'file') {
        if (part.fieldname === 'file' && fileName === undefined) {
          fileName = part.filename;
          await pipeline(part.file, createWriteStream(upload));
          if (part.file.truncated)
            throw payloadTooLarge(`The pose file is larger than ${MAX_POSE_BYTES / 1024 ** 3} GB.`);
        } else if (part.fieldname === 'config' && config === null) {
          config = (await readLimited(part.file, MAX_CONFIG_BYTES)) ?? 'too large';
        } else part.file.resume();
      } else if (part.fieldname === 'name' || part.fieldname === 'frame_offset') {
        fields[part.fieldname] = fieldText(part.value);
      }
    }
    if (fileName === undefined) throw badRequest({ file: ['Send the pose file in the field "file".'] });
    if (config === 'too large') {
      throw badRequest({
        config: [`config.yaml is larger than ${MAX_CONFIG_BYTES / 1024} KB: DeepLabCut's own are a few kilobytes.`],
      });
    }
    const frameOffset = parseOffset(fields.frame_offset);
    const name = parseName(fields.name, fileName);
    if (!video.frameCount) {
      throw badRequest({ file: ['The video has no known frame count yet (still processing, or failed).'] });
    }
    const outPath = path.join(dir, 'points.f32');
    const result = await runPoseImport({
      path: upload,
      outPath,
      videoFrames: video.frameCount,
      frameOffset,
      config: config === null ? null : config.toString('utf8'),
    });
    if (!result.ok) throw badRequest({ [result.field]: [result.message] });
    const { meta } = result;
    const poseUuid = randomUUID();
    const keys = poseSetKeys({ projectUuid: video.projectUuid, videoUuid: video.videoUuid, poseUuid });
    await context.storage.importFile(keys.points, outPath, 'application/octet-stream');
    try {
      const [row] = await context.db
        .insert(poseSets)
        .values({
          poseUuid,
          projectUuid: video.projectUuid,
          videoUuid: video.videoUuid,
          name,
          format: meta.format,
          individuals: meta.individuals,
          bodyparts: meta.bodyparts,
          keypoints: meta.keypoints,
          edges: meta.edges,
          frameCount: meta.frameCount,
          hasLikelihood: meta.hasLikelihood,
          source: {
            file_name: fileName,
            scorer: meta.scorer,
            file_frames: meta.fileFrames,
            labelled_frames: meta.labelledFrames,
            frame_offset: frameOffset ?? 0,
          },
          storageKey: keys.points,
          sizeBytes: meta.sizeBytes,
          createdById: userId,
        })
        .returning();
      return toPoseSet(row!);
    } catch (error) {
      await context.storage.deletePrefix(keys.prefix);
      throw error;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function listPoseSets(context: AppContext, video: VideoRow) {
  const rows = await context.db
    .select()
    .from(poseSets)
    .where(eq(poseSets.videoUuid, video.videoUuid))
    .orderBy(asc(poseSets.createdAt), asc(poseSets.poseUuid));
  return { results: rows.map(toPoseSet) };
}

export async function findPoseSet(context: AppContext, video: VideoRow, poseUuid: string): Promise<PoseSetRow> {
  if (!isUuid(poseUuid)) throw notFound();
  const [row] = await context.db
    .select()
    .from(poseSets)
    .where(and(eq(poseSets.poseUuid, poseUuid), eq(poseSets.videoUuid, video.videoUuid)));
  if (!row) throw notFound();
  return row;
}

export const MAX_FRAMES_PER_REQUEST = 1000;

/** `GET …/pose/{pose}/frames/?start=&count=`: one range read of the stored file, whatever the window. */
export async function poseFrames(
  context: AppContext,
  video: VideoRow,
  poseUuid: string,
  query: { start: number; count: number },
): Promise<PoseFramesResponse> {
  const row = await findPoseSet(context, video, poseUuid);
  if (query.start >= row.frameCount) {
    throw badRequest({ start: [`The set has frames 0–${row.frameCount - 1}.`] });
  }
  const count = Math.min(query.count, row.frameCount - query.start);
  const keypoints = row.keypoints.length;
  const range = frameWindowRange(row.frameCount, keypoints, query.start, count);
  const chunks: Buffer[] = [];
  for await (const chunk of await context.storage.read(row.storageKey, { start: range.start, end: range.end })) {
    chunks.push(chunk as Buffer);
  }
  const at = decodeWindow(new Uint8Array(Buffer.concat(chunks)), row.frameCount, keypoints, range.firstBlock);
  const value = (v: number) => (Number.isNaN(v) ? null : v);
  const frames: PoseFramesResponse['frames'] = [];
  for (let frame = query.start; frame < query.start + count; frame++) {
    const individuals: Record<string, Record<string, [number | null, number | null, number | null] | null>> = {};
    row.keypoints.forEach(([i, b], k) => {
      const x = at(frame, k, 0);
      const y = at(frame, k, 1);
      const individual = row.individuals[i]!;
      if (!individuals[individual]) individuals[individual] = {};
      const parts = individuals[individual];
      parts[row.bodyparts[b]!] =
        Number.isNaN(x) || Number.isNaN(y)
          ? null
          : [x, y, row.hasLikelihood ? value(at(frame, k, CHANNELS - 1)) : null];
    });
    frames.push({ frame, individuals });
  }
  return { frames };
}

/** `DELETE …/pose/{pose}/`: the row and its folder go together (file-deletion.ts retries what fails). */
export async function deletePoseSet(context: AppContext, video: VideoRow, poseUuid: string): Promise<void> {
  const row = await findPoseSet(context, video, poseUuid);
  await deleteRowsAndFiles(context, [poseSetKeys(row).prefix], async (tx) => {
    await tx.delete(poseSets).where(eq(poseSets.poseUuid, row.poseUuid));
  });
}
