/**
 * A run's media input (the original as a local file, opened with its recorded demuxer) and the in-process
 * registry of running segments, so that a revoke or a shutdown here stops them at once.
 */
import { type MediaInput, storedInput } from '../../adapters/media/input-policy.js';
import type { AppContext } from '../../context.js';

interface SharedCopy {
  local: Promise<{ path: string; release(): Promise<void> }>;
  users: number;
}
/** Local copies of stored originals in use by this process, shared by the segments and previews that read them. */
const sharedCopies = new Map<string, SharedCopy>();

/**
 * The input ffmpeg reads: always a local file (ffmpeg opens local files only — input-policy.ts), with the demuxer
 * the upload's probe recorded. On disk that is the stored file itself; on S3 one download per process while any
 * segment or preview of this process reads it (several segments of one run share it).
 */
export async function openMediaInput(
  context: AppContext,
  video: { originalKey: string; container: string | null },
): Promise<{ input: MediaInput; release(): Promise<void> }> {
  const key = video.originalKey;
  let shared = sharedCopies.get(key);
  if (!shared) {
    shared = { local: context.storage.localFile(key), users: 0 };
    sharedCopies.set(key, shared);
  }
  shared.users++;
  const entry = shared;
  const release = async () => {
    entry.users--;
    if (entry.users > 0) return;
    if (sharedCopies.get(key) === entry) sharedCopies.delete(key);
    await (await entry.local).release();
  };
  try {
    const local = await entry.local;
    return { input: storedInput(local.path, video.container), release };
  } catch (error) {
    entry.users--;
    if (sharedCopies.get(key) === entry) sharedCopies.delete(key);
    throw error;
  }
}

/** Runs `work` with the video's original open, and releases it. */
export async function withMediaInput<T>(
  context: AppContext,
  video: { originalKey: string; container: string | null },
  work: (input: MediaInput) => Promise<T>,
): Promise<T> {
  const opened = await openMediaInput(context, video);
  try {
    return await work(opened.input);
  } finally {
    await opened.release();
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
