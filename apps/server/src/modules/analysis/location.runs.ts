/**
 * A location-tracking run in the job system (issue 22): chained pieces over frame ranges (`analyses.track`, the
 * pieces module's `chained` hand-off), each in a worker thread, piece i + 1 starting from the tracker state piece
 * i saved — so a split run equals a single pass. The reference picture is computed once per video and reference
 * setting (location.reference.ts; a preview may have made it), copied beside the run by the first piece that needs
 * it; every piece reads that one. The piece that completes the set
 * joins the positions in plan order, computes the summary in a worker thread and completes the run.
 *
 * Storage: the positions are one file, `track.f64` — x of every frame, then y (Float64, NaN = none) — kept in the
 * run's `series_key` with `sample_count` frames, so the run's life (trash, restore, the video's removal, the raw
 * `series/` download) treats it as any run's series; the summary and the exports read it back.
 */
import { and, eq } from 'drizzle-orm';
import { type CleanStart, DecodeErrorReport, FILE_START } from '../../adapters/media/clean-start.js';
import type { MediaInput } from '../../adapters/media/input-policy.js';
import type { AppContext } from '../../context.js';
import { analyses, videos } from '../../db/schema.js';
import { definePieces, type Piece, type PieceWork } from '../../jobs/pieces.js';
import { analysisKeys } from '../../lib/storage-keys.js';
import { openMediaInput } from './analysis.media-input.js';
import { PermanentRunFailure, readFloat64 } from './analysis.results.js';
import { type AnalysisRow, decodeFailure, loadRun, type RunSource, runPieceCommon } from './analysis.runs.js';
import type { LocationSummary } from './engine/location/summary.js';
import type { TrackerHandoff } from './engine/location/tracker.js';
import { runTask } from './engine/worker-client.js';
import { locationReference, readBytes } from './location.reference.js';
import type { LocationParameters } from './location.schemas.js';

const pieceKey = (run: AnalysisRow, index: number) => analysisKeys(run).segment(index);

/** Segments decode side by side elsewhere; more ffmpeg threads than cores only add switching. */
const threadsFor = (context: AppContext) => (context.config.analysisWorkers > 1 ? 1 : 0);

/**
 * The run's reference: stored beside the run by the first piece that needed it, else the video's reference for
 * the run's setting (location.reference.ts: read from the video's cache, or computed and cached) — stored beside the
 * run with its notes, so the run keeps the picture it tracked on whatever happens to the cache.
 */
export async function runReference(
  context: AppContext,
  run: AnalysisRow,
  input: MediaInput,
  signal?: AbortSignal,
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

function trackPiece(
  context: AppContext,
  run: AnalysisRow,
  input: MediaInput,
  work: PieceWork<TrackerHandoff>,
  reference: Float32Array,
  start: CleanStart,
) {
  const source = run.source as RunSource;
  const parameters = run.parameters as LocationParameters;
  return runTask(
    {
      kind: 'location',
      ffmpeg: context.media.binaries.ffmpeg,
      source: { ...source, ...input },
      startFrame: work.piece.startFrame,
      endFrame: work.isLast ? null : work.piece.endFrame,
      start,
      bypass_ranges: parameters.bypass_ranges,
      threads: threadsFor(context),
      tracker: {
        parameters,
        width: source.width,
        height: source.height,
        reference,
        exclusions: parameters.exclusions.map((region) => region.points),
        handoff: work.previous,
      },
    },
    { signal: work.signal, onProgress: work.onFrames },
  );
}

async function processLocationPiece(context: AppContext, run: AnalysisRow, work: PieceWork<TrackerHandoff>) {
  const source = run.source as RunSource;
  const { piece } = work;
  const [video] = await context.db
    .select({ originalKey: videos.originalKey, container: videos.container })
    .from(videos)
    .where(eq(videos.videoUuid, run.videoUuid));
  if (!video?.originalKey) throw new PermanentRunFailure('The video has no original file any more.');
  const start = source.segmentStarts?.[piece.index] ?? FILE_START;
  if (start.frame > piece.startFrame) throw new Error(`piece ${piece.index} cannot start its decode at ${start.frame}`);
  const local = await openMediaInput(context, { originalKey: video.originalKey, container: video.container });
  let result: Awaited<ReturnType<typeof trackPiece>>;
  try {
    const reference = await runReference(context, run, local.input, work.signal);
    try {
      result = await trackPiece(context, run, local.input, work, reference, start);
    } catch (error) {
      // As a movement segment: a decode error from a proven start is retried from the file's start once.
      if (!(error instanceof DecodeErrorReport)) throw error;
      if (start.seekS === null) throw new PermanentRunFailure(decodeFailure(error, piece));
      context.logger.warn(
        { analysisUuid: run.analysisUuid, index: piece.index, lines: error.lines },
        'decode error from a proven clean start; tracking the piece again from the file start',
      );
      try {
        result = await trackPiece(context, run, local.input, work, reference, FILE_START);
      } catch (again) {
        if (again instanceof DecodeErrorReport) throw new PermanentRunFailure(decodeFailure(again, piece));
        throw again;
      }
    }
  } finally {
    await local.release();
  }
  const { x, y, handoff } = result;
  await context.storage.write(pieceKey(run, piece.index), Buffer.concat([bytesOf(x), bytesOf(y)]));
  return { frames: x.length, handoff };
}

const bytesOf = (values: Float64Array) => Buffer.from(values.buffer, values.byteOffset, values.byteLength);

/** A run's stored positions: x and y of every frame (NaN = none). */
export async function readTrack(context: AppContext, key: string): Promise<{ x: Float64Array; y: Float64Array }> {
  const both = await readFloat64(context, key);
  const frames = both.length / 2;
  return { x: both.slice(0, frames), y: both.slice(frames) };
}

/** Joins the pieces' positions in plan order, computes the summary and completes the run. */
async function finishLocationRun(context: AppContext, planned: AnalysisRow, pieces: Piece<TrackerHandoff>[]) {
  const run = await loadRun(context, planned.analysisUuid);
  if (run?.status !== 'running') return;
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
  await completeLocationRun(context, run, { ...location, notes }, keys.track);
  await context.storage.deletePrefix(keys.segmentsPrefix);
}

/** Stores the summary and the positions' key and marks the run succeeded — unless it was revoked meanwhile. */
async function completeLocationRun(
  context: AppContext,
  run: AnalysisRow,
  location: LocationSummary & { notes: string[] },
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
 * A location-tracking run's pieces: one after the other on any worker, each decoding from a proven clean start at
 * or before its first frame and tracking from the state the piece before handed over.
 */
export const locationPieces = definePieces<'analysisUuid', AnalysisRow, TrackerHandoff>({
  ...runPieceCommon,
  name: 'analyses.track',
  handOff: { mode: 'chained' },
  work: processLocationPiece,
  join: (context, run, pieces) => finishLocationRun(context, run, pieces),
});

export const analysisTrackJob = locationPieces.job;
