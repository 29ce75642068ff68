import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { badRequest, payloadTooLarge, unsupportedMediaType } from './errors.js';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const signatures: { ext: string; test(b: Buffer): boolean }[] = [
  { ext: '.png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { ext: '.jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { ext: '.gif', test: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  {
    ext: '.webp',
    test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

/**
 * Reads one small image from a multipart field (logo, avatar). The type is decided by the file's bytes,
 * not its name; anything else is 415. Images are small, so holding one in memory is fine.
 */
export async function readImageUpload(
  request: FastifyRequest,
  field: string,
): Promise<{ data: Buffer; ext: string; name: string }> {
  if (!request.isMultipart())
    throw unsupportedMediaType(`Send the image as multipart/form-data in the field "${field}".`);
  let found: { data: Buffer; ext: string; name: string } | undefined;
  for await (const part of request.parts({ limits: { fileSize: MAX_IMAGE_BYTES, files: 1 } })) {
    if (part.type !== 'file') continue;
    if (part.fieldname !== field) {
      part.file.resume();
      continue;
    }
    let data: Buffer;
    try {
      data = await part.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw payloadTooLarge(`The image is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`);
      }
      throw error;
    }
    if (data.length === 0) throw badRequest({ [field]: ['The submitted file is empty.'] });
    const kind = signatures.find((s) => s.test(data));
    if (!kind) throw unsupportedMediaType('Upload a PNG, JPEG, GIF or WebP image.');
    found = { data, ext: kind.ext, name: `${randomUUID()}${kind.ext}` };
  }
  if (!found) throw badRequest({ [field]: ['No file was submitted.'] });
  return found;
}
