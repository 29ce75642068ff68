import { and, eq, inArray, isNotNull, lt, or } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { analyses, videos } from '../db/schema.js';

export const LOST_RUN_MESSAGE =
  'The run stopped: its jobs are no longer queued (lost by the job queue or removed). Run it again.';
export const LOST_VIDEO_MESSAGE =
  'Processing stopped: its job is no longer queued (lost by the job queue or removed). Upload the video again.';
export const LOST_COPY_MESSAGE =
  'The playable copy stopped: its jobs are no longer queued (lost by the job queue or removed). The original still plays where the browser can, and analyses use it.';

/**
 * A video is `processing` from the moment its upload is checked, while the original is still being copied into
 * storage (minutes for a big file on S3); its job is sent once the original is stored. Until then only this long
 * a silence counts as lost (the web process died while storing it).
 */
export const STORING_ORIGINAL_HOURS = 6;

/** What one look remembers for the next: the runs and videos that had no job to finish them. */
export interface WatchdogMemory {
  runs: Set<string>;
  videos: Set<string>;
  /** Videos whose playback copy is being made (their piece jobs, ADR 004). */
  copies: Set<string>;
}

export function emptyWatchdogMemory(): WatchdogMemory {
  return { runs: new Set(), videos: new Set(), copies: new Set() };
}

/**
 * One look for work nothing will ever finish: a run still queued or running, a video still processing, or a
 * playback copy still being made, with no job left that names it (waiting, waiting to retry or running) — for a video, once its original is stored (see
 * STORING_ORIGINAL_HOURS) — its jobs were deleted, expired, failed for good in
 * a process that died before recording it, or never sent. Seen so on two looks in a row (so a run whose job is
 * being sent, or a job that has just ended and is writing its result, is left alone), it fails with a message the
 * user sees. Returns what it failed and what to remember for the next look.
 */
export async function watchdogSweep(
  context: AppContext,
  memory: WatchdogMemory,
): Promise<{ memory: WatchdogMemory; failedRuns: string[]; failedVideos: string[]; failedCopies: string[] }> {
  const [liveRuns, liveVideos] = [
    await context.jobs.liveJobKeys('analysisUuid'),
    await context.jobs.liveJobKeys('videoUuid'),
  ];
  // Read after the jobs: a run created since has its jobs listed next time.
  const openRuns = await context.db
    .select({ uuid: analyses.analysisUuid })
    .from(analyses)
    .where(inArray(analyses.status, ['queued', 'running']));
  const storingSince = new Date(Date.now() - STORING_ORIGINAL_HOURS * 3600_000);
  const processing = await context.db
    .select({ uuid: videos.videoUuid })
    .from(videos)
    .where(and(eq(videos.status, 'processing'), or(isNotNull(videos.originalKey), lt(videos.updatedAt, storingSince))));
  const copying = await context.db
    .select({ uuid: videos.videoUuid })
    .from(videos)
    .where(and(eq(videos.status, 'ready'), eq(videos.playbackState, 'making')));
  const orphanRuns = openRuns.map((r) => r.uuid).filter((uuid) => !liveRuns.has(uuid));
  const orphanVideos = processing.map((v) => v.uuid).filter((uuid) => !liveVideos.has(uuid));
  const orphanCopies = copying.map((v) => v.uuid).filter((uuid) => !liveVideos.has(uuid));
  const failedRuns: string[] = [];
  const failedVideos: string[] = [];
  const failedCopies: string[] = [];
  for (const uuid of orphanRuns.filter((u) => memory.runs.has(u))) {
    const rows = await context.db
      .update(analyses)
      .set({ status: 'failed', error: LOST_RUN_MESSAGE, finishedAt: new Date() })
      .where(and(eq(analyses.analysisUuid, uuid), inArray(analyses.status, ['queued', 'running'])))
      .returning({ uuid: analyses.analysisUuid });
    if (rows.length > 0) failedRuns.push(uuid);
  }
  for (const uuid of orphanVideos.filter((u) => memory.videos.has(u))) {
    const rows = await context.db
      .update(videos)
      .set({ status: 'failed', error: LOST_VIDEO_MESSAGE, updatedAt: new Date() })
      .where(and(eq(videos.videoUuid, uuid), eq(videos.status, 'processing')))
      .returning({ uuid: videos.videoUuid });
    if (rows.length > 0) failedVideos.push(uuid);
  }
  // A copy is only for playback: the video stays ready and analysable, the copy says why it stopped.
  for (const uuid of orphanCopies.filter((u) => memory.copies.has(u))) {
    const rows = await context.db
      .update(videos)
      .set({ playbackState: 'failed', playbackError: LOST_COPY_MESSAGE, updatedAt: new Date() })
      .where(and(eq(videos.videoUuid, uuid), eq(videos.playbackState, 'making')))
      .returning({ uuid: videos.videoUuid });
    if (rows.length > 0) failedCopies.push(uuid);
  }
  if (failedRuns.length > 0 || failedVideos.length > 0 || failedCopies.length > 0) {
    context.logger.warn(
      { runs: failedRuns, videos: failedVideos, copies: failedCopies },
      'watchdog failed work whose jobs are gone',
    );
  }
  return {
    memory: {
      runs: new Set(orphanRuns.filter((u) => !memory.runs.has(u))),
      videos: new Set(orphanVideos.filter((u) => !memory.videos.has(u))),
      copies: new Set(orphanCopies.filter((u) => !memory.copies.has(u))),
    },
    failedRuns,
    failedVideos,
    failedCopies,
  };
}

/**
 * Runs `watchdogSweep` every `config.jobWatchdogSeconds` in a worker process (the embedded server, or
 * `npm run worker`): nothing stays queued, running or processing forever. Work orphaned at time t fails by
 * t + 2 × jobWatchdogSeconds.
 */
export function startJobWatchdog(context: AppContext): { stop(): void } {
  let memory = emptyWatchdogMemory();
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    watchdogSweep(context, memory)
      .then((result) => {
        memory = result.memory;
      })
      .catch((error: unknown) => context.logger.warn({ err: error }, 'job watchdog sweep failed'))
      .finally(() => {
        running = false;
      });
  }, context.config.jobWatchdogSeconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
