import type { AppContext } from '../../context.js';
import type { UserRow } from '../../lib/authenticate.js';

/** Who a file URL is made for: it works for this user only, and only while they may read the file. */
export type FileViewer = Pick<UserRow, 'id' | 'passwordChangedAt'>;

/**
 * Image URLs (thumbnails, logos, avatars) stay the same through a 12-hour window, so the browser's cache keeps
 * working, and expire 24 hours after the window began: a URL is never valid more than 24 hours after it was made,
 * and one handed out has at least 12 hours left.
 */
export const IMAGE_URL_WINDOW_SECONDS = 12 * 60 * 60;
export const IMAGE_URL_SECONDS = 24 * 60 * 60;
/** Data downloads (a run's series CSV) are fetched right after they are asked for. */
export const DOWNLOAD_URL_SECONDS = 5 * 60;

const filesUrl = (context: AppContext, token: string) => `${context.config.publicUrl}/api/files/${token}`;

/**
 * An `<img>` URL for one stored file, as `/api/files/{token}` (on S3 too: the app checks membership on every request
 * and streams the file from the bucket). Null for a missing key. The token's issue time is the start of the window —
 * or the viewer's last password change when that came later, so that a URL made right after a reset works and one
 * made before it does not.
 */
export async function fileUrl(
  context: AppContext,
  viewer: FileViewer,
  key: string | null | undefined,
): Promise<string | null> {
  if (!key) return null;
  const windowMs = IMAGE_URL_WINDOW_SECONDS * 1000;
  const windowStart = Math.floor(Date.now() / windowMs) * windowMs;
  const issuedAtMs = Math.max(windowStart, viewer.passwordChangedAt?.getTime() ?? 0);
  const expiresAt = windowStart / 1000 + IMAGE_URL_SECONDS;
  return filesUrl(context, await context.tokens.signFile(viewer.id, key, { issuedAtMs, expiresAt }));
}

/** A download URL for one stored file, valid `DOWNLOAD_URL_SECONDS` for this user, and when it expires. */
export async function downloadUrl(
  context: AppContext,
  userId: number,
  key: string,
): Promise<{ url: string; expires_at: string }> {
  const issuedAtMs = Date.now();
  const expiresAt = Math.floor(issuedAtMs / 1000) + DOWNLOAD_URL_SECONDS;
  const token = await context.tokens.signFile(userId, key, { issuedAtMs, expiresAt });
  return { url: filesUrl(context, token), expires_at: new Date(expiresAt * 1000).toISOString() };
}
