/**
 * The life of an analysis run in the job system:
 *
 * - a movement-detection run is cut into segments at creation; each segment is an `analyses.segment` job that
 *   any worker (this process, or `npm run worker` on other machines) takes; the job decodes and counts its
 *   frames in a worker thread and stores its values; the segment that completes the set merges them, runs
 *   event detection and the summary, and stores the series, its CSV and the events;
 * - an event-detection run is one `analyses.detect` job over the series of its source run;
 * - revoking sets the status: queued jobs are cancelled, running ones see the status within half a second
 *   (or at once in this process) and kill their ffmpeg and thread.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type CleanStart, DecodeErrorReport, FILE_START } from '../../adapters/media/clean-start.js';
import { lastLine } from '../../adapters/media/ffmpeg-media.js';
import { ProcessError } from '../../adapters/media/run-process.js';
import type { AppContext } from '../../context.js';
import { analyses, analysisSegments, videos } from '../../db/schema.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import { analysisKeys, jobWorkDir } from '../../lib/storage-keys.js';
import { abortAllLocalRuns, abortLocalRun, openMediaInput, track } from './analysis.media-input.js';
import { completeRun, PermanentRunFailure, readFloat64, readSeries } from './analysis.results.js';
import {
  type EventDetectionParameterValues,
  freezingOf,
  type MovementDetectionParameters,
} from './analysis.schemas.js';
import type { DecodeSource } from './engine/decode.js';
import { runTask, TaskCancelledError } from './engine/worker-client.js';

export type AnalysisRow = typeof analyses.$inferSelect;

/** What the run keeps about its video (from ffprobe at creation), so every worker decodes it the same way. */
export type RunSource = Omit<DecodeSource, 'path' | 'demuxer'> & {
  frameCount: number;
  durationS: number;
  originalKey: string;
  /** Where each segment's decode starts (proven clean starts, ADR 006); absent in runs made before them. */
  segmentStarts?: CleanStart[];
};

const segmentKey = (run: AnalysisRow, index: number) => analysisKeys(run).segment(index);

function humanReason(error: unknown): string {
  if (error instanceof PermanentRunFailure) return error.message;
  if (error instanceof DecodeErrorReport) return decodeFailure(error);
  if (error instanceof ProcessError) {
    const detail = lastLine(error.stderrTail);
    return `Decoding the video failed${detail ? `: ${detail}` : '.'}`;
  }
  return 'The analysis failed unexpectedly. Run it again; if it fails again, contact support.';
}

/** The run's error for a decode error ffmpeg reported: what it said and where, never a path. */
function decodeFailure(error: DecodeErrorReport, segment?: Pick<SegmentRow, 'startFrame' | 'endFrame'>): string {
  const where = segment ? ` in frames ${segment.startFrame}–${segment.endFrame - 1}` : '';
  const line = lastLine(error.lines[0] ?? '');
  return `ffmpeg reported a decode error${where} ("${line}"), so those frames' counts would be wrong. The video is damaged there or uses a feature ffmpeg cannot decode; convert it (e.g. to H.264 with regular keyframes) and upload it again.`;
}

async function markFailed(context: AppContext, analysisUuid: string, reason: string) {
  await context.db
    .update(analyses)
    .set({ status: 'failed', error: reason, finishedAt: new Date() })
    .where(and(eq(analyses.analysisUuid, analysisUuid), inArray(analyses.status, ['queued', 'running'])));
  abortLocalRun(analysisUuid);
}

async function loadRun(context: AppContext, analysisUuid: string): Promise<AnalysisRow | undefined> {
  const [run] = await context.db.select().from(analyses).where(eq(analyses.analysisUuid, analysisUuid)).limit(1);
  return run;
}

async function markRunning(context: AppContext, analysisUuid: string) {
  await context.db
    .update(analyses)
    .set({ status: 'running', startedAt: new Date() })
    .where(and(eq(analyses.analysisUuid, analysisUuid), eq(analyses.status, 'queued')));
}

/**
 * Records a segment's progress and the run's, and answers the run's status (so a segment learns of a revoke
 * or a failure elsewhere). Progress stays below 1 until the run has succeeded.
 */
async function reportProgress(context: AppContext, analysisUuid: string, index: number, framesDone: number) {
  await context.db
    .update(analysisSegments)
    .set({ framesDone })
    .where(and(eq(analysisSegments.analysisUuid, analysisUuid), eq(analysisSegments.index, index)));
  const [row] = await context.db
    .update(analyses)
    .set({
      progress: sql`least(0.99, coalesce((select sum(s.frames_done)::float8 / nullif(sum(s.end_frame - s.start_frame), 0)
        from analysis_segments s where s.analysis_uuid = ${analysisUuid}), 0))`,
    })
    .where(and(eq(analyses.analysisUuid, analysisUuid), eq(analyses.status, 'running')))
    .returning({ status: analyses.status });
  return row?.status ?? (await loadRun(context, analysisUuid))?.status ?? 'gone';
}

export const analysisSegmentJob: JobDefinition<{ analysisUuid: string; index: number }, AppContext> = {
  name: 'analyses.segment',
  heartbeatSeconds: 10,
  payload: z.object({ analysisUuid: z.string().uuid(), index: z.number().int().min(0) }),
  retryLimit: 2,
  retryDelaySeconds: 10,
  expireInSeconds: 6 * 60 * 60,
  concurrency: (context) => context.config.analysisWorkers,
  onStop: abortAllLocalRuns,
  async handle(context, { analysisUuid, index }, job) {
    const run = await loadRun(context, analysisUuid);
    if (!run || (run.status !== 'queued' && run.status !== 'running')) return;
    const [segment] = await context.db
      .select()
      .from(analysisSegments)
      .where(and(eq(analysisSegments.analysisUuid, analysisUuid), eq(analysisSegments.index, index)));
    if (!segment) return;
    try {
      if (!segment.done) await processSegment(context, run, segment);
      if (await completeSegment(context, run, segment.index)) await finishMovementRun(context, analysisUuid);
    } catch (error) {
      if (error instanceof TaskCancelledError) {
        // Revoked, failed elsewhere or deleted: done. Still running (this worker is shutting down): retry.
        if ((await loadRun(context, analysisUuid))?.status !== 'running') return;
        throw error;
      }
      if (error instanceof PermanentRunFailure || job.isFinalAttempt) {
        await markFailed(context, analysisUuid, humanReason(error));
        if (error instanceof PermanentRunFailure) return;
      }
      throw error;
    }
  },
};

type SegmentRow = typeof analysisSegments.$inferSelect;

async function processSegment(context: AppContext, run: AnalysisRow, segment: SegmentRow) {
  const source = run.source as RunSource;
  const parameters = run.parameters as MovementDetectionParameters;
  const [video] = await context.db
    .select({ originalKey: videos.originalKey, container: videos.container })
    .from(videos)
    .where(eq(videos.videoUuid, run.videoUuid));
  if (!video?.originalKey) return;
  await markRunning(context, run.analysisUuid);
  // Which process works on the segment now (a retry elsewhere overwrites it): kept with the stored values.
  await context.db
    .update(analysisSegments)
    .set({ worker: context.jobs.workerId, framesDone: 0 })
    .where(and(eq(analysisSegments.analysisUuid, run.analysisUuid), eq(analysisSegments.index, segment.index)));
  const segments = await context.db
    .select({ count: sql<number>`count(*)::int` })
    .from(analysisSegments)
    .where(eq(analysisSegments.analysisUuid, run.analysisUuid));
  const isLast = segment.index === (segments[0]?.count ?? 1) - 1;
  const controller = new AbortController();
  const untrack = track(run.analysisUuid, controller);
  const local = await openMediaInput(context, { originalKey: video.originalKey, container: video.container });
  let framesDone = 0;
  let reporting = false;
  const ticker = setInterval(() => {
    if (reporting) return;
    reporting = true;
    reportProgress(context, run.analysisUuid, segment.index, framesDone)
      .then((status) => {
        if (status !== 'running') controller.abort();
      })
      .catch((error: unknown) => context.logger.warn({ err: error }, 'analysis progress update failed'))
      .finally(() => {
        reporting = false;
      });
  }, 500);
  let values: Float64Array;
  const start = source.segmentStarts?.[segment.index] ?? FILE_START;
  const decode = (from: CleanStart) =>
    runTask(
      {
        kind: 'frames',
        ffmpeg: context.media.binaries.ffmpeg,
        source: { ...source, ...local.input },
        parameters,
        startFrame: segment.startFrame,
        endFrame: isLast ? null : segment.endFrame,
        start: from,
        // Segments decode side by side; more ffmpeg threads than cores only add switching.
        threads: context.config.analysisWorkers > 1 ? 1 : 0,
      },
      { signal: controller.signal, onProgress: (done) => (framesDone = done) },
    );
  try {
    try {
      ({ values } = await decode(start));
    } catch (error) {
      // ffmpeg reported a decode error from a proven start: decode again from the file's start (always clean).
      // The same error from there is the file's own: the run fails with it, no retry would change it.
      if (!(error instanceof DecodeErrorReport)) throw error;
      if (start.seekS === null) throw new PermanentRunFailure(decodeFailure(error, segment));
      context.logger.warn(
        { analysisUuid: run.analysisUuid, index: segment.index, lines: error.lines },
        'decode error from a proven clean start; decoding the segment again from the file start',
      );
      try {
        ({ values } = await decode(FILE_START));
      } catch (again) {
        if (again instanceof DecodeErrorReport) throw new PermanentRunFailure(decodeFailure(again, segment));
        throw again;
      }
    }
  } finally {
    clearInterval(ticker);
    untrack();
    await local.release();
  }
  const expected = segment.endFrame - segment.startFrame;
  if (!isLast && values.length !== expected) {
    throw new PermanentRunFailure(
      `The video ended at frame ${segment.startFrame + values.length}, before the ${source.frameCount} frames its header announces.`,
    );
  }
  await context.storage.write(
    segmentKey(run, segment.index),
    Buffer.from(values.buffer, values.byteOffset, values.byteLength),
  );
  await context.db
    .update(analysisSegments)
    .set({ frameCount: values.length, framesDone: values.length, worker: context.jobs.workerId })
    .where(and(eq(analysisSegments.analysisUuid, run.analysisUuid), eq(analysisSegments.index, segment.index)));
}

/** Marks a stored segment done; true for the one caller that completes the set (the run row is locked). */
async function completeSegment(context: AppContext, run: AnalysisRow, index: number): Promise<boolean> {
  return context.db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ status: analyses.status })
      .from(analyses)
      .where(eq(analyses.analysisUuid, run.analysisUuid))
      .for('update');
    if (locked?.status !== 'running') return false;
    const [segment] = await tx
      .select({ frameCount: analysisSegments.frameCount, done: analysisSegments.done })
      .from(analysisSegments)
      .where(and(eq(analysisSegments.analysisUuid, run.analysisUuid), eq(analysisSegments.index, index)));
    if (!segment || segment.frameCount === null) return false;
    if (!segment.done) {
      await tx
        .update(analysisSegments)
        .set({ done: true })
        .where(and(eq(analysisSegments.analysisUuid, run.analysisUuid), eq(analysisSegments.index, index)));
    }
    const [open] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(analysisSegments)
      .where(and(eq(analysisSegments.analysisUuid, run.analysisUuid), eq(analysisSegments.done, false)));
    return (open?.count ?? 0) === 0;
  });
}

async function withWorkDir<T>(context: AppContext, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = jobWorkDir(context.config.dataDir, 'analysis', randomUUID());
  await mkdir(dir, { recursive: true });
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Merges the segments into the run's series, detects events, and completes the run. */
async function finishMovementRun(context: AppContext, analysisUuid: string) {
  const run = await loadRun(context, analysisUuid);
  if (run?.status !== 'running') return;
  const source = run.source as RunSource;
  const parameters = run.parameters as MovementDetectionParameters;
  const segments = await context.db
    .select()
    .from(analysisSegments)
    .where(eq(analysisSegments.analysisUuid, analysisUuid))
    .orderBy(asc(analysisSegments.index));
  const total = segments.reduce((sum, s) => sum + (s.frameCount ?? 0), 0);
  const values = new Float64Array(total);
  let offset = 0;
  for (const segment of segments) {
    const part = await readFloat64(context, segmentKey(run, segment.index));
    values.set(part, offset);
    offset += part.length;
  }
  const stored = analysisKeys(run);
  const keys = { seriesKey: stored.series, timesKey: null, seriesCsvKey: stored.seriesCsv };
  await context.storage.write(keys.seriesKey, Buffer.from(values.buffer));
  await withWorkDir(context, async (dir) => {
    const csvPath = path.join(dir, 'series.csv');
    const detected = await runTask({
      kind: 'detect',
      series: { values, times: null, fps: source.fps },
      events: parameters,
      freezing:
        parameters.freeze_threshold === null
          ? null
          : {
              freeze_threshold: parameters.freeze_threshold,
              min_freeze_s: parameters.min_freeze_s,
              bin_s: parameters.bin_s,
            },
      csvPath,
    });
    await context.storage.importFile(keys.seriesCsvKey, csvPath, 'text/csv');
    await completeRun(context, run, { values, times: null, fps: source.fps }, detected, keys);
  });
  await context.storage.deletePrefix(stored.segmentsPrefix);
}

export const analysisDetectJob: JobDefinition<{ analysisUuid: string }, AppContext> = {
  name: 'analyses.detect',
  heartbeatSeconds: 10,
  payload: z.object({ analysisUuid: z.string().uuid() }),
  retryLimit: 2,
  retryDelaySeconds: 10,
  expireInSeconds: 60 * 60,
  async handle(context, { analysisUuid }, job) {
    const run = await loadRun(context, analysisUuid);
    if (!run || (run.status !== 'queued' && run.status !== 'running')) return;
    try {
      await markRunning(context, analysisUuid);
      const source = run.sourceAnalysisUuid ? await loadRun(context, run.sourceAnalysisUuid) : undefined;
      if (!source?.seriesKey || !source.seriesCsvKey) {
        throw new PermanentRunFailure('The run this detection reads has no time series any more.');
      }
      const fps = (run.source as RunSource).fps;
      const series = await readSeries(context, source, fps);
      const parameters = run.parameters as EventDetectionParameterValues;
      const detected = await runTask({
        kind: 'detect',
        series,
        events: parameters,
        // Runs made before event detection took freezing parameters have none: no summary, as before.
        freezing: freezingOf(parameters),
        csvPath: null,
      });
      // The series is the source's: shared, not copied (both live and die with the video).
      await completeRun(context, { ...run, startedAt: run.startedAt ?? new Date() }, series, detected, {
        seriesKey: source.seriesKey,
        timesKey: source.timesKey,
        seriesCsvKey: source.seriesCsvKey,
      });
    } catch (error) {
      if (error instanceof PermanentRunFailure || job.isFinalAttempt) {
        await markFailed(context, analysisUuid, humanReason(error));
        if (error instanceof PermanentRunFailure) return;
      }
      throw error;
    }
  },
};
