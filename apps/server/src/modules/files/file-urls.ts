import type { AppContext } from '../../context.js';

/** How long an `<img>` URL for a thumbnail, logo or avatar stays valid (rounded up to whole days). */
const FILE_URL_SECONDS = 7 * 24 * 60 * 60;

/**
 * A URL a browser can load without headers: the store's presigned URL on S3, else `/api/files/{token}`
 * whose signed token names the key. Null for a missing key.
 */
export async function fileUrl(context: AppContext, key: string | null | undefined): Promise<string | null> {
  if (!key) return null;
  const presigned = await context.storage.presignedUrl(key, FILE_URL_SECONDS);
  if (presigned) return presigned;
  return `${context.config.publicUrl}/api/files/${await context.tokens.signFile(key, FILE_URL_SECONDS)}`;
}
