import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { badRequest, fieldError, payloadTooLarge, unsupportedMediaType } from '../../lib/errors.js';
import { uploadFieldsSchema, VIDEO_EXTENSIONS } from './video.schemas.js';

export interface ReceivedUpload {
  /** The whole file in DATA_DIR/tmp/uploads; the caller moves it into storage or removes it. */
  localPath: string;
  originalFilename: string;
  extension: string;
  fields: Record<string, string>;
}

const GIB = 1024 ** 3;

export function formatBytes(bytes: number): string {
  if (bytes >= GIB) return `${+(bytes / GIB).toFixed(2)} GiB`;
  if (bytes >= 1024 ** 2) return `${+(bytes / 1024 ** 2).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

export const tooLarge = (maxBytes: number) =>
  payloadTooLarge(`The video is larger than the upload limit of ${formatBytes(maxBytes)}.`);

/** The lower-case extension of an upload's file name, or 415 when it is not a video type we take. */
export function videoExtension(filename: string): string {
  const extension = path.extname(filename).toLowerCase();
  if (!(VIDEO_EXTENSIONS as readonly string[]).includes(extension)) {
    throw unsupportedMediaType(
      `"${filename}" is not a supported video file. Upload one of: ${VIDEO_EXTENSIONS.join(' ')}.`,
    );
  }
  return extension;
}

/** A file name safe to store and show: no folders, no control characters, at most 255 characters. */
export function cleanFilename(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return cleaned.slice(-255) || 'video';
}

/**
 * Streams the multipart field `file` to a temp file (never holding it in memory) and collects the text
 * fields, in whatever order they come. Over MAX_UPLOAD_BYTES → 413 and the temp file is removed.
 */
export async function receiveMultipartVideo(
  request: FastifyRequest,
  tmpDir: string,
  maxBytes: number,
): Promise<ReceivedUpload> {
  if (!request.isMultipart()) {
    throw unsupportedMediaType('Send the video as multipart/form-data with the file in the field "file".');
  }
  // Refuse an obviously too large body before reading it (the multipart envelope adds a little).
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes + 1024 * 1024) throw tooLarge(maxBytes);

  await mkdir(tmpDir, { recursive: true });
  const fields: Record<string, string> = {};
  let received: Omit<ReceivedUpload, 'fields'> | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1 } })) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file') {
        part.file.resume();
        continue;
      }
      const originalFilename = cleanFilename(part.filename || 'video');
      const extension = videoExtension(originalFilename);
      const localPath = path.join(tmpDir, `upload-${randomUUID()}${extension}`);
      received = { localPath, originalFilename, extension };
      await pipeline(part.file, createWriteStream(localPath));
      if (part.file.truncated) throw tooLarge(maxBytes);
    }
  } catch (error) {
    if (received) await rm(received.localPath, { force: true });
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(maxBytes);
    if ((error as { code?: string }).code === 'FST_FILES_LIMIT') {
      throw badRequest({ file: ['Upload one video at a time.'] });
    }
    throw error;
  }
  if (!received) throw fieldError('file', 'No file was submitted.');
  return { ...received, fields };
}

/** Validates the text fields sent with the file; on an error the received file is removed. */
export async function parseUploadFields(upload: ReceivedUpload) {
  const parsed = uploadFieldsSchema.safeParse(upload.fields);
  if (parsed.success) return parsed.data;
  await rm(upload.localPath, { force: true });
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'non_field_errors');
    errors[field] ??= [];
    errors[field].push(issue.message);
  }
  throw badRequest(errors);
}
