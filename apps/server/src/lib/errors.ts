/** The spec's error body: a message, or field → messages. */
export type ErrorBody = { errors: string | Record<string, string[]> };

/** Thrown anywhere below a route; the error handler turns it into `{ errors }` with `status`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly errors: string | Record<string, string[]>,
    readonly headers: Record<string, string> = {},
    /** More fields beside `errors` (e.g. the current version on a 409), for clients that can act on them. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(typeof errors === 'string' ? errors : Object.values(errors).flat().join(' '));
  }
}

export const badRequest = (errors: string | Record<string, string[]>) => new HttpError(400, errors);
export const fieldError = (field: string, message: string) => new HttpError(400, { [field]: [message] });
export const unauthorized = (message = 'Authentication credentials were not provided.') => new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to perform this action.') =>
  new HttpError(403, message);
export const notFound = (message = 'Not found.') => new HttpError(404, message);
export const conflict = (errors: string | Record<string, string[]>, extra: Record<string, unknown> = {}) =>
  new HttpError(409, errors, {}, extra);
export const payloadTooLarge = (message: string) => new HttpError(413, message);
export const unsupportedMediaType = (message: string) => new HttpError(415, message);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new HttpError(429, `Too many attempts. Try again in ${retryAfterSeconds} seconds.`, {
    'retry-after': String(retryAfterSeconds),
  });

/** What a client reads when the server's disk (DATA_DIR) is full. */
export const DISK_FULL_MESSAGE =
  'The server is out of disk space, so the file was not stored. Try again later, or tell the administrator.';
export const insufficientStorage = () => new HttpError(507, DISK_FULL_MESSAGE);

/** True when a file system call failed because the disk or the quota is full (ENOSPC, EDQUOT), on the error or its cause. */
export function isDiskFull(error: unknown): boolean {
  for (let at = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; at && depth < 5; depth++) {
    if (at.code === 'ENOSPC' || at.code === 'EDQUOT') return true;
    at = at.cause as typeof at;
  }
  return false;
}
