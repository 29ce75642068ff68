/**
 * A run's media input (the original on disk, or a presigned URL on S3) and the in-process registry of running
 * segments, so that a revoke or a shutdown here stops them at once.
 */
import type { AppContext } from '../../context.js';

/**
 * The input ffmpeg reads: on S3 a presigned URL (ffmpeg seeks with range requests, so a segment reads only its
 * part instead of downloading the whole video to every worker), on disk the file itself.
 */
export async function openMediaInput(
  context: AppContext,
  key: string,
): Promise<{ path: string; release(): Promise<void> }> {
  const url = await context.storage.presignedUrl(key, 12 * 60 * 60);
  if (url) return { path: url, release: async () => {} };
  return context.storage.localFile(key);
}

/** Runs `work` with the media input of `key` open, and releases it. */
export async function withMediaInput<T>(
  context: AppContext,
  key: string,
  work: (input: string) => Promise<T>,
): Promise<T> {
  const input = await openMediaInput(context, key);
  try {
    return await work(input.path);
  } finally {
    await input.release();
  }
}

/** In-process cancellation: a revoke here stops this process's segments at once, without waiting for a poll. */
const localRuns = new Map<string, Set<AbortController>>();

export function abortLocalRun(analysisUuid: string): void {
  for (const controller of localRuns.get(analysisUuid) ?? []) controller.abort();
}

/**
 * Stops every analysis segment of this process (shutting down): their jobs fail and are retried — by another
 * worker, or by this server when it is back — instead of holding the shutdown for minutes.
 */
export function abortAllLocalRuns(): void {
  for (const uuid of localRuns.keys()) abortLocalRun(uuid);
}

export function track(analysisUuid: string, controller: AbortController): () => void {
  let set = localRuns.get(analysisUuid);
  if (!set) {
    set = new Set();
    localRuns.set(analysisUuid, set);
  }
  set.add(controller);
  return () => {
    set.delete(controller);
    if (set.size === 0) localRuns.delete(analysisUuid);
  };
}
