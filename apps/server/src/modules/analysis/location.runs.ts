/**
 * A location-tracking run in the job system (issue 22, ADR 027). The run's reference picture comes first, once, from
 * its own job (`analyses.location-reference`, with every decoding thread), which then queues the pieces. The pieces
 * (`analyses.track`) run side by side, each in a worker thread: a piece after the first tracks a warm-up of frames
 * before its own without keeping them, so its tracker is most likely in the very state a single pass would be in at
 * its first frame; the piece that completes the set checks that for every piece in plan order
 * (engine/location/reconcile.ts), tracks again from the true state any piece that had not caught up, joins the
 * positions, computes the summary in a worker thread and completes the run. A split run equals a single pass.
 *
 * Storage: the positions are one file, `track.f64` — x of every frame, then y (Float64, NaN = none) — kept in the
 * run's `series_key` with `sample_count` frames, so the run's life (trash, restore, the video's removal, the raw
 * `series/` download) treats it as any run's series; the summary and the exports read it back.
 */
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { type CleanStart, DecodeErrorReport, FILE_START } from '../../adapters/media/clean-start.js';
import type { MediaInput } from '../../adapters/media/input-policy.js';
import type { AppContext } from '../../context.js';
import { analyses, videos } from '../../db/schema.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import { definePieces, type Piece, type PieceWork } from '../../jobs/pieces.js';
import { analysisKeys } from '../../lib/storage-keys.js';
import { openMediaInput, track } from './analysis.media-input.js';
import { PermanentRunFailure, readFloat64 } from './analysis.results.js';
import {
  type AnalysisRow,
  decodeFailure,
  humanReason,
  loadRun,
  markFailed,
  markRunning,
  type RunSource,
  runPieceCommon,
} from './analysis.runs.js';
import { findJumps, type JumpThreshold, jumpThreshold } from './engine/location/jumps.js';
import { type PieceStates, reconcilePieces } from './engine/location/reconcile.js';
import type { LocationSummary } from './engine/location/summary.js';
import type { TrackerHandoff } from './engine/location/tracker.js';
import { runTask } from './engine/worker-client.js';
import { locationReference, readBytes } from './location.reference.js';
import type { LocationParameters } from './location.schemas.js';

const pieceKey = (run: AnalysisRow, index: number) => analysisKeys(run).segment(index);

/** Segments decode side by side elsewhere; more ffmpeg threads than cores only add switching. */
const threadsFor = (context: AppContext) => (context.config.analysisWorkers > 1 ? 1 : 0);

/**
 * The most frames a piece tracks before its first to catch up with a single pass's tracker state (ADR 027):
 * `body_core`'s running means meet a single pass's to the bit after about 350 frames (306–334 measured on generated
 * scenes: a difference shrinks by 0.9 a frame until rounding merges it), `eztrack`'s state within 1–4 frames. The
 * pieces' clean starts are proven this far before their first frame; `config.locationWarmUpFrames` may use fewer.
 */
export const LOCATION_WARM_UP_FRAMES = 600;

/** What a piece keeps (older runs' pieces kept the exit alone). */
type StoredStates = PieceStates | TrackerHandoff;
const statesOf = (stored: StoredStates | null): PieceStates | null => {
  if (stored === null) return null;
  return 'exit' in stored && 'entry' in stored
    ? (stored as PieceStates)
    : { entry: stored as TrackerHandoff, exit: stored as TrackerHandoff };
};

/**
 * The run's reference: the copy beside the run when there is one (its reference job makes it first), else the
 * video's reference for the run's setting (location.reference.ts: read from the video's cache, or computed and
 * cached), then copied beside the run with its notes, so the run keeps the picture it tracked on whatever happens
 * to the cache.
 */
export async function runReference(
  context: AppContext,
  run: AnalysisRow,
  input: MediaInput,
  signal?: AbortSignal,
  threads = threadsFor(context),
): Promise<Float32Array> {
  const keys = analysisKeys(run);
  if (await context.storage.stat(keys.reference)) {
    const bytes = await readBytes(context, keys.reference);
    const reference = new Float32Array(bytes.length / 4);
    new Uint8Array(reference.buffer).set(bytes);
    return reference;
  }
  const { reference, notes } = await locationReference(
    context,
    run,
    run.source as RunSource,
    input,
    run.parameters as LocationParameters,
    signal,
    threads,
  ).catch((error: unknown) => {
    if (error instanceof DecodeErrorReport) throw new PermanentRunFailure(decodeFailure(error));
    throw error;
  });
  // The notes first: a reference stored without them would be read as one that needed none.
  await context.storage.write(keys.referenceNotes, Buffer.from(JSON.stringify(notes)));
  await context.storage.write(
    keys.reference,
    Buffer.from(reference.buffer, reference.byteOffset, reference.byteLength),
  );
  return reference;
}

/** Which frames a tracking task covers, and from which state and decode start. */
interface TrackSpan {
  startFrame: number;
  /** One past the last frame; null: to the end of the video. */
  endFrame: number | null;
  /** First frame shown to the tracker (≤ startFrame; startFrame: no warm-up). */
  warmUpFrom: number;
  from: TrackerHandoff | null;
  start: CleanStart;
  signal?: AbortSignal;
  onFrames?: (frames: number) => void;
}

function trackSpan(context: AppContext, run: AnalysisRow, input: MediaInput, reference: Float32Array, span: TrackSpan) {
  const source = run.source as RunSource;
  const parameters = run.parameters as LocationParameters;
  return runTask(
    {
      kind: 'location',
      ffmpeg: context.media.binaries.ffmpeg,
      source: { ...source, ...input },
      startFrame: span.startFrame,
      endFrame: span.endFrame,
      warmUpFrom: span.warmUpFrom,
      start: span.start,
      bypass_ranges: parameters.bypass_ranges,
      threads: threadsFor(context),
      tracker: {
        parameters,
        width: source.width,
        height: source.height,
        reference,
        exclusions: parameters.exclusions.map((region) => region.points),
        handoff: span.from,
      },
    },
    { signal: span.signal, onProgress: span.onFrames },
  );
}

/**
 * Tracks a span from its piece's proven clean start; a decode error there (as in a movement segment) tracks it
 * again from the file's start once.
 */
async function trackFromCleanStart(
  context: AppContext,
  run: AnalysisRow,
  input: MediaInput,
  reference: Float32Array,
  span: TrackSpan,
  piece: { index: number; startFrame: number; endFrame: number },
) {
  try {
    return await trackSpan(context, run, input, reference, span);
  } catch (error) {
    if (!(error instanceof DecodeErrorReport)) throw error;
    if (span.start.seekS === null) throw new PermanentRunFailure(decodeFailure(error, piece));
    context.logger.warn(
      { analysisUuid: run.analysisUuid, index: piece.index, lines: error.lines },
      'decode error from a proven clean start; tracking the piece again from the file start',
    );
    try {
      return await trackSpan(context, run, input, reference, { ...span, start: FILE_START });
    } catch (again) {
      if (again instanceof DecodeErrorReport) throw new PermanentRunFailure(decodeFailure(again, piece));
      throw again;
    }
  }
}

async function originalOf(context: AppContext, run: AnalysisRow) {
  const [video] = await context.db
    .select({ originalKey: videos.originalKey, container: videos.container })
    .from(videos)
    .where(eq(videos.videoUuid, run.videoUuid));
  if (!video?.originalKey) throw new PermanentRunFailure('The video has no original file any more.');
  return { originalKey: video.originalKey, container: video.container };
}

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
    const reference = await runReference(context, run, local.input, work.signal);
    const { x, y, handoff, entry } = await trackFromCleanStart(
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
        signal: work.signal,
        onFrames: work.onFrames,
      },
      piece,
    );
    await context.storage.write(pieceKey(run, piece.index), Buffer.concat([bytesOf(x), bytesOf(y)]));
    return { frames: x.length, handoff: { entry, exit: handoff } };
  } finally {
    await local.release();
  }
}

/**
 * Tracks again, from the state `from` the piece before really ended in, every piece that had not caught up with it
 * during its warm-up (engine/location/reconcile.ts), storing their positions anew. Answers the last piece's exit.
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
  try {
    const { exit, retracked } = await reconcilePieces(states as PieceStates[], async (index, from) => {
      const piece = pieces[index] as Piece<StoredStates>;
      local ??= await openMediaInput(context, await originalOf(context, run));
      const reference = await runReference(context, run, local.input, controller.signal);
      const again = await trackFromCleanStart(
        context,
        run,
        local.input,
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
    });
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

const bytesOf = (values: Float64Array) => Buffer.from(values.buffer, values.byteOffset, values.byteLength);

/** A run's stored positions: x and y of every frame (NaN = none). */
export async function readTrack(context: AppContext, key: string): Promise<{ x: Float64Array; y: Float64Array }> {
  const both = await readFloat64(context, key);
  const frames = both.length / 2;
  return { x: both.slice(0, frames), y: both.slice(frames) };
}

/** Joins the pieces' positions in plan order, computes the summary and completes the run. */
async function finishLocationRun(context: AppContext, planned: AnalysisRow, pieces: Piece<StoredStates>[]) {
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
async function completeLocationRun(
  context: AppContext,
  run: AnalysisRow,
  location: LocationSummary & { notes: string[]; jumps: JumpThreshold & { count: number } },
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
        await runReference(context, run, local.input, controller.signal, 0);
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
