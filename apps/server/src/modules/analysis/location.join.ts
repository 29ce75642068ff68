/**
 * The join of a location run (ADR 028, ADR 029): the piece that completes the set checks the reference's frames
 * against the pieces' own decode and the pieces' states against a single pass, tracks again what must be, joins the
 * positions, computes the summary and the jumps in a worker thread, and completes the run.
 */
import { and, eq } from 'drizzle-orm';
import { FILE_START } from '../../adapters/media/clean-start.js';
import type { AppContext } from '../../context.js';
import { analyses } from '../../db/schema.js';
import type { Piece } from '../../jobs/pieces.js';
import { analysisKeys } from '../../lib/storage-keys.js';
import { openMediaInput, track } from './analysis.media-input.js';
import { type AnalysisRow, loadRun, type RunSource } from './analysis.runs.js';
import { findJumps, type JumpThreshold, jumpThreshold } from './engine/location/jumps.js';
import { type PieceStates, reconcilePieces, referenceMatches } from './engine/location/reconcile.js';
import type { LocationSummary } from './engine/location/summary.js';
import type { TrackerHandoff } from './engine/location/tracker.js';
import { runTask } from './engine/worker-client.js';
import { type ReferenceFrames, readBytes } from './location.reference.js';
import type { LocationParameters } from './location.schemas.js';
import {
  bytesOf,
  originalOf,
  pieceKey,
  readTrack,
  runReference,
  type StoredStates,
  statesOf,
  trackFromCleanStart,
} from './location.tracking.js';

/**
 * Makes the joined pieces a single pass's. When the pieces' own decodes of the reference's frames gave other
 * pictures than the fast decode it was made from (ADR 029), the reference is made again from proven clean starts
 * and every piece tracked again in plan order. Otherwise every piece that had not caught up with the piece before
 * during its warm-up is tracked again from the state that piece really ended in (engine/location/reconcile.ts).
 * Positions are stored anew; answers the last piece's exit.
 */
async function reconcileRun(
  context: AppContext,
  run: AnalysisRow,
  pieces: Piece<StoredStates>[],
): Promise<TrackerHandoff | null> {
  const states = pieces.map((piece) => statesOf(piece.handoff));
  if (states.some((state) => state === null)) throw new Error('a finished location piece has no tracker state');
  const source = run.source as RunSource;
  let local: Awaited<ReturnType<typeof openMediaInput>> | null = null;
  const controller = new AbortController();
  const untrack = track(run.analysisUuid, controller);
  const input = async () => {
    local ??= await openMediaInput(context, await originalOf(context, run));
    return local.input;
  };
  const retrack = async (index: number, from: TrackerHandoff | null) => {
    const piece = pieces[index] as Piece<StoredStates>;
    const { reference } = await runReference(context, run, await input(), { signal: controller.signal });
    const again = await trackFromCleanStart(
      context,
      run,
      await input(),
      reference,
      {
        startFrame: piece.startFrame,
        endFrame: index === pieces.length - 1 ? null : piece.endFrame,
        warmUpFrom: piece.startFrame,
        from,
        start: source.segmentStarts?.[index] ?? FILE_START,
        signal: controller.signal,
      },
      piece,
    );
    if (again.x.length !== piece.frameCount) {
      throw new Error(`piece ${index} gave ${again.x.length} frames tracked again, ${piece.frameCount} before`);
    }
    await context.storage.write(pieceKey(run, index), Buffer.concat([bytesOf(again.x), bytesOf(again.y)]));
    return again.handoff;
  };
  try {
    if (!(await referenceChecked(context, run, states as PieceStates[]))) {
      context.logger.warn(
        { analysisUuid: run.analysisUuid },
        "the reference's fast decode differs from the run's own decode of its frames; making it from proven clean starts and tracking the run again",
      );
      await runReference(context, run, await input(), { signal: controller.signal, proven: true });
      let exit: TrackerHandoff | null = null;
      for (let index = 0; index < pieces.length; index++) exit = await retrack(index, exit);
      return exit;
    }
    const { exit, retracked } = await reconcilePieces(states as PieceStates[], retrack);
    if (retracked.length > 0) {
      context.logger.info(
        { analysisUuid: run.analysisUuid, pieces: retracked },
        'location pieces tracked again from the state before them (their warm-up had not caught up)',
      );
    }
    return exit;
  } finally {
    untrack();
    await (local as Awaited<ReturnType<typeof openMediaInput>> | null)?.release();
  }
}

/** Whether the run's reference needs no check, or its frames' hashes equal the pieces' own (ADR 029). */
async function referenceChecked(context: AppContext, run: AnalysisRow, states: PieceStates[]): Promise<boolean> {
  const key = analysisKeys(run).referenceFrames;
  if (!(await context.storage.stat(key))) return true;
  const frames = JSON.parse((await readBytes(context, key)).toString('utf8')) as ReferenceFrames;
  return referenceMatches(frames, states);
}

/** Joins the pieces' positions in plan order, computes the summary and completes the run. */
export async function finishLocationRun(context: AppContext, planned: AnalysisRow, pieces: Piece<StoredStates>[]) {
  const run = await loadRun(context, planned.analysisUuid);
  if (run?.status !== 'running') return;
  const lastExit = await reconcileRun(context, run, pieces);
  const source = run.source as RunSource;
  const parameters = run.parameters as LocationParameters;
  const total = pieces.reduce((sum, piece) => sum + (piece.frameCount ?? 0), 0);
  const x = new Float64Array(total);
  const y = new Float64Array(total);
  let offset = 0;
  for (const piece of pieces) {
    const part = await readTrack(context, pieceKey(run, piece.index));
    x.set(part.x, offset);
    y.set(part.y, offset);
    offset += part.x.length;
  }
  const keys = analysisKeys(run);
  await context.storage.write(keys.track, Buffer.concat([bytesOf(x), bytesOf(y)]));
  const location = await runTask({
    kind: 'location-summary',
    input: {
      x,
      y,
      fps: source.fps,
      width: source.width,
      height: source.height,
      zones: parameters.zones,
      scale: parameters.scale,
      binS: parameters.bin_s,
      bypassRanges: parameters.bypass_ranges,
    },
  });
  const notes = JSON.parse((await readBytes(context, keys.referenceNotes)).toString('utf8')) as string[];
  const threshold = runJumpThreshold(run, lastExit);
  const jumps = {
    ...threshold,
    count: findJumps(x, y, source.fps, threshold.threshold_px, parameters.bypass_ranges).length,
  };
  await completeLocationRun(context, run, { ...location, jumps, notes }, keys.track);
  await context.storage.deletePrefix(keys.segmentsPrefix);
}

/**
 * The threshold of a run's jumps (ADR 026): its `jump_px`, else the tracker's body length from the animal's
 * running mean area the last piece handed over (`body_core` keeps one; `eztrack` none), else a share of the picture.
 */
export function runJumpThreshold(run: AnalysisRow, lastHandoff: TrackerHandoff | null): JumpThreshold {
  const source = run.source as RunSource;
  const area = lastHandoff?.area;
  return jumpThreshold({
    jumpPx: (run.parameters as LocationParameters).jump_px ?? null,
    trackerArea: typeof area === 'number' && Number.isFinite(area) ? area : null,
    width: source.width,
    height: source.height,
  });
}

/** Stores the summary and the positions' key and marks the run succeeded — unless it was revoked meanwhile. */
export async function completeLocationRun(
  context: AppContext,
  run: AnalysisRow,
  location: LocationSummary & { notes: string[]; jumps: JumpThreshold & { count: number }; pose?: object },
  trackKey: string,
) {
  const now = new Date();
  const startedAt = run.startedAt ?? run.createdAt;
  const elapsedS = Math.max(0.001, (now.getTime() - startedAt.getTime()) / 1000);
  const fps = (run.source as RunSource).fps;
  const summary = {
    samples: location.frames,
    valid_samples: location.frames_tracked,
    duration_s: location.frames / fps,
    events: 0,
    event_rate_per_min: null,
    threshold: null,
    noise_top: null,
    freezing: null,
    frames_per_second: location.frames / elapsedS,
    location,
  };
  await context.db
    .update(analyses)
    .set({
      status: 'succeeded',
      progress: 1,
      error: null,
      finishedAt: now,
      summary,
      seriesKey: trackKey,
      timesKey: null,
      seriesCsvKey: null,
      sampleCount: location.frames,
    })
    .where(and(eq(analyses.analysisUuid, run.analysisUuid), eq(analyses.status, 'running')));
}
