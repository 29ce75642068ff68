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
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type CleanStart, DecodeErrorReport, FILE_START } from '../../adapters/media/clean-start.js';
import { lastLine } from '../../adapters/media/ffmpeg-media.js';
import type { MediaInput } from '../../adapters/media/input-policy.js';
import { ProcessError } from '../../adapters/media/run-process.js';
import type { AppContext } from '../../context.js';
import { analyses, analysisSegments, videos } from '../../db/schema.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import { definePieces, type Piece, type PieceWork } from '../../jobs/pieces.js';
import { analysisKeys } from '../../lib/storage-keys.js';
import { abortLocalRun, openMediaInput, track } from './analysis.media-input.js';
import { completeRun, PermanentRunFailure, readFloat64, readSeries } from './analysis.results.js';
import {
  type EventDetectionParameterValues,
  freezingOf,
  type MovementDetectionParameters,
} from './analysis.schemas.js';
import type { DecodeSource } from './engine/decode.js';
import { MOVEMENT_LOOK_BACK } from './engine/plan.js';
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

export const segmentKey = (run: AnalysisRow, index: number) => analysisKeys(run).segment(index);

export function humanReason(error: unknown): string {
  if (error instanceof PermanentRunFailure) return error.message;
  if (error instanceof DecodeErrorReport) return decodeFailure(error);
  if (error instanceof ProcessError) {
    const detail = lastLine(error.stderrTail);
    return `Decoding the video failed${detail ? `: ${detail}` : '.'}`;
  }
  return 'The analysis failed unexpectedly. Run it again; if it fails again, contact support.';
}

/** The run's error for a decode error ffmpeg reported: what it said and where, never a path. */
export function decodeFailure(error: DecodeErrorReport, segment?: { startFrame: number; endFrame: number }): string {
  const where = segment ? ` in frames ${segment.startFrame}–${segment.endFrame - 1}` : '';
  const line = lastLine(error.lines[0] ?? '');
  return `ffmpeg reported a decode error${where} ("${line}"), so those frames' counts would be wrong. The video is damaged there or uses a feature ffmpeg cannot decode; convert it (e.g. to H.264 with regular keyframes) and upload it again.`;
}

export async function markFailed(context: AppContext, analysisUuid: string, reason: string) {
  await context.db
    .update(analyses)
    .set({ status: 'failed', error: reason, finishedAt: new Date() })
    .where(and(eq(analyses.analysisUuid, analysisUuid), inArray(analyses.status, ['queued', 'running'])));
  abortLocalRun(analysisUuid);
}

export async function loadRun(context: AppContext, analysisUuid: string): Promise<AnalysisRow | undefined> {
  const [run] = await context.db.select().from(analyses).where(eq(analyses.analysisUuid, analysisUuid)).limit(1);
  return run;
}

export async function markRunning(context: AppContext, analysisUuid: string) {
  await context.db
    .update(analyses)
    .set({ status: 'running', startedAt: new Date() })
    .where(and(eq(analyses.analysisUuid, analysisUuid), eq(analyses.status, 'queued')));
}

type SegmentRow = Piece<never>;

/** Decodes the segment's frames from `start` in a worker thread and counts changed pixels. */
function decodeSegment(
  context: AppContext,
  run: AnalysisRow,
  input: MediaInput,
  work: PieceWork<never>,
  start: CleanStart,
) {
  return runTask(
    {
      kind: 'frames',
      ffmpeg: context.media.binaries.ffmpeg,
      source: { ...(run.source as RunSource), ...input },
      parameters: run.parameters as MovementDetectionParameters,
      startFrame: work.piece.startFrame,
      endFrame: work.isLast ? null : work.piece.endFrame,
      start,
      // Segments decode side by side; more ffmpeg threads than cores only add switching.
      threads: context.config.analysisWorkers > 1 ? 1 : 0,
    },
    { signal: work.signal, onProgress: work.onFrames },
  );
}

async function processSegment(context: AppContext, run: AnalysisRow, work: PieceWork<never>) {
  const source = run.source as RunSource;
  const segment = work.piece;
  const [video] = await context.db
    .select({ originalKey: videos.originalKey, container: videos.container })
    .from(videos)
    .where(eq(videos.videoUuid, run.videoUuid));
  if (!video?.originalKey) throw new PermanentRunFailure('The video has no original file any more.');
  const start = source.segmentStarts?.[segment.index] ?? FILE_START;
  // The planned start gives the look-back frames (analysis.service.ts plans it from `readFrom`).
  if (start.frame > work.readFrom)
    throw new Error(`segment ${segment.index} cannot start its decode at ${start.frame}`);
  const local = await openMediaInput(context, { originalKey: video.originalKey, container: video.container });
  let values: Float64Array;
  try {
    try {
      ({ values } = await decodeSegment(context, run, local.input, work, start));
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
        ({ values } = await decodeSegment(context, run, local.input, work, FILE_START));
      } catch (again) {
        if (again instanceof DecodeErrorReport) throw new PermanentRunFailure(decodeFailure(again, segment));
        throw again;
      }
    }
  } finally {
    await local.release();
  }
  await context.storage.write(
    segmentKey(run, segment.index),
    Buffer.from(values.buffer, values.byteOffset, values.byteLength),
  );
  return { frames: values.length };
}

/** Merges the segments (in plan order) into the run's series, detects events, and completes the run. */
async function finishMovementRun(context: AppContext, planned: AnalysisRow, segments: SegmentRow[], dir: string) {
  const run = await loadRun(context, planned.analysisUuid);
  if (run?.status !== 'running') return;
  const source = run.source as RunSource;
  const parameters = run.parameters as MovementDetectionParameters;
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
  await context.storage.deletePrefix(stored.segmentsPrefix);
}

/**
 * A movement-detection run's segments: side by side on any worker (this process, or `npm run worker` on other
 * machines), each decoding from a proven clean start before its first frame; the segment that completes the set
 * merges them, runs event detection and the summary, and stores the series, its CSV and the events.
 */
/**
 * What every kind of run's pieces share: the run is the owner, its segments the pieces, the same job settings, the
 * same loading, start, failure rules and words. Each kind adds its name, hand-off, work and join.
 */
export const runPieceCommon = {
  key: 'analysisUuid',
  pieces: { table: analysisSegments, owner: analysisSegments.analysisUuid },
  owner: { table: analyses, key: analyses.analysisUuid, progress: analyses.progress, active: sql`status = 'running'` },
  // The last segment reads to the end of the stream, whatever the probe counted.
  openEnded: true,
  workDir: 'analysis',
  // Running segments learn of a revoke elsewhere within half a second.
  progressEveryMs: 500,
  job: {
    heartbeatSeconds: 10,
    retryLimit: 2,
    retryDelaySeconds: 10,
    expireInSeconds: 6 * 60 * 60,
    concurrency: (context: AppContext) => context.config.analysisWorkers,
  },
  async load(context: AppContext, analysisUuid: string) {
    const run = await loadRun(context, analysisUuid);
    return run && (run.status === 'queued' || run.status === 'running') ? run : undefined;
  },
  begin: (context: AppContext, run: AnalysisRow) => markRunning(context, run.analysisUuid),
  // This worker is shutting down (a revoke or a failure elsewhere ends the job before this is asked): retry.
  isInterruption: (error: unknown) => error instanceof TaskCancelledError,
  isPermanent: (error: unknown) => error instanceof PermanentRunFailure,
  reason: humanReason,
  countMismatch: (run: AnalysisRow, segment: { startFrame: number }, frames: number) =>
    `The video ended at frame ${segment.startFrame + frames}, before the ${(run.source as RunSource).frameCount} frames its header announces.`,
  fail: markFailed,
  track,
} as const;

export const segmentPieces = definePieces<'analysisUuid', AnalysisRow>({
  ...runPieceCommon,
  name: 'analyses.segment',
  handOff: { mode: 'look-back', frames: MOVEMENT_LOOK_BACK },
  work: processSegment,
  join: finishMovementRun,
});

export const analysisSegmentJob = segmentPieces.job;

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
