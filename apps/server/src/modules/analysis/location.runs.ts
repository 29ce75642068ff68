/**
 * A location-tracking run in the job system (issue 22, ADR 027). The run's reference picture comes first, once, from
 * its own job (`analyses.location-reference`, with every decoding thread), which then queues the pieces. The pieces
 * (`analyses.track`) run side by side, each in a worker thread: a piece after the first tracks a warm-up of frames
 * before its own without keeping them, so its tracker is most likely in the very state a single pass would be in at
 * its first frame, and hashes the reference's frames inside its range (ADR 029). The piece that completes the set
 * runs the join (location.join.ts). A split run equals a single pass.
 *
 * Storage: the positions are one file, `track.f64` — x of every frame, then y (Float64, NaN = none) — kept in the
 * run's `series_key` with `sample_count` frames, so the run's life (trash, restore, the video's removal, the raw
 * `series/` download) treats it as any run's series; the summary and the exports read it back.
 */
import { z } from 'zod';
import { FILE_START } from '../../adapters/media/clean-start.js';
import type { AppContext } from '../../context.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import { definePieces, type PieceWork } from '../../jobs/pieces.js';
import { openMediaInput, track } from './analysis.media-input.js';
import { PermanentRunFailure } from './analysis.results.js';
import {
  type AnalysisRow,
  humanReason,
  loadRun,
  markFailed,
  markRunning,
  type RunSource,
  runPieceCommon,
} from './analysis.runs.js';
import { LOCATION_WARM_UP_FRAMES, type PieceStates } from './engine/location/reconcile.js';
import { finishLocationRun } from './location.join.js';
import {
  bytesOf,
  originalOf,
  pieceKey,
  runReference,
  type StoredStates,
  trackFromCleanStart,
} from './location.tracking.js';

async function processLocationPiece(
  context: AppContext,
  run: AnalysisRow,
  work: PieceWork<StoredStates>,
): Promise<{ frames: number; handoff: PieceStates }> {
  const source = run.source as RunSource;
  const { piece } = work;
  const start = source.segmentStarts?.[piece.index] ?? FILE_START;
  const warmUp = Math.min(LOCATION_WARM_UP_FRAMES, context.config.locationWarmUpFrames);
  const warmUpFrom = Math.max(work.readFrom, piece.startFrame - warmUp);
  if (start.frame > warmUpFrom) throw new Error(`piece ${piece.index} cannot start its decode at ${start.frame}`);
  const local = await openMediaInput(context, await originalOf(context, run));
  try {
    const { reference, frames } = await runReference(context, run, local.input, { signal: work.signal });
    const end = work.isLast ? Number.POSITIVE_INFINITY : piece.endFrame;
    const verifyFrames = frames.hashes ? frames.frames.filter((f) => f >= piece.startFrame && f < end) : [];
    const { x, y, handoff, entry, checked } = await trackFromCleanStart(
      context,
      run,
      local.input,
      reference,
      {
        startFrame: piece.startFrame,
        endFrame: work.isLast ? null : piece.endFrame,
        warmUpFrom,
        from: null,
        start,
        verifyFrames,
        signal: work.signal,
        onFrames: work.onFrames,
      },
      piece,
    );
    await context.storage.write(pieceKey(run, piece.index), Buffer.concat([bytesOf(x), bytesOf(y)]));
    return { frames: x.length, handoff: { entry, exit: handoff, checked } };
  } finally {
    await local.release();
  }
}

/**
 * A location-tracking run's pieces: side by side on any workers, each decoding from a proven clean start at least
 * LOCATION_WARM_UP_FRAMES before its first frame; the join reconciles them with a single pass.
 */
export const locationPieces = definePieces<'analysisUuid', AnalysisRow, StoredStates>({
  ...runPieceCommon,
  name: 'analyses.track',
  handOff: { mode: 'look-back', frames: LOCATION_WARM_UP_FRAMES },
  work: processLocationPiece,
  join: (context, run, pieces) => finishLocationRun(context, run, pieces),
});

export const analysisTrackJob = locationPieces.job;

/**
 * The run's first job: its reference, once, with every decoding thread (the pieces wait for it anyway), then the
 * pieces. A revoke while it works stops it; a failure no retry would change, or the last attempt, fails the run.
 */
export const locationReferenceJob: JobDefinition<{ analysisUuid: string }, AppContext> = {
  name: 'analyses.location-reference',
  heartbeatSeconds: 10,
  payload: z.object({ analysisUuid: z.string().uuid() }),
  retryLimit: 2,
  retryDelaySeconds: 10,
  expireInSeconds: 60 * 60,
  concurrency: (context) => context.config.analysisWorkers,
  async handle(context, { analysisUuid }, job) {
    const run = await loadRun(context, analysisUuid);
    if (!run || (run.status !== 'queued' && run.status !== 'running')) return;
    const controller = new AbortController();
    const untrack = track(analysisUuid, controller);
    try {
      await markRunning(context, analysisUuid);
      const local = await openMediaInput(context, await originalOf(context, run));
      try {
        await runReference(context, run, local.input, { signal: controller.signal, threads: 0 });
      } finally {
        await local.release();
      }
      await locationPieces.queue(context, analysisUuid);
    } catch (error) {
      const now = await loadRun(context, analysisUuid);
      // Revoked or failed elsewhere meanwhile: nothing left to record.
      if (now?.status !== 'queued' && now?.status !== 'running') return;
      if (error instanceof PermanentRunFailure || job.isFinalAttempt) {
        await markFailed(context, analysisUuid, humanReason(error));
        if (error instanceof PermanentRunFailure) return;
      }
      throw error;
    } finally {
      untrack();
    }
  },
};
