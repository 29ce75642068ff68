/**
 * A locked project (its subscription ended) refuses every change with 403 and this message until it is renewed.
 * Edits refused for that reason are not wrong: the browser keeps them, says why they wait, and sends them once the
 * project is active again.
 */
import { ApiError } from './api-client';

export const LOCKED_MESSAGE = 'This project is locked: renew its subscription to make changes.';

/** The server refused because the project is locked (and for no other reason). */
export function isProjectLocked(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 403) return false;
  return (error.body as { errors?: unknown } | null)?.errors === LOCKED_MESSAGE;
}

/**
 * Waits between tries while the project is locked: 15 s, 30 s, 1 min, 2 min, then every 5 min. The page also tries
 * again when it gets the focus back (e.g. after renewing in another tab) and on "Retry now".
 */
export const LOCKED_RETRY_DELAYS_MS = [15_000, 30_000, 60_000, 120_000, 300_000];
