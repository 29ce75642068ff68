/**
 * What a location run's pieces and its join share (issue 22): the run's reference beside it (made from the video's
 * cache or computed: location.reference.ts), tracking a span of frames in a worker thread from a proven clean start,
 * and the positions' files.
 */
import { eq } from 'drizzle-orm';
import { type CleanStart, DecodeErrorReport, FILE_START } from '../../adapters/media/clean-start.js';
import type { MediaInput } from '../../adapters/media/input-policy.js';
import type { AppContext } from '../../context.js';
import { videos } from '../../db/schema.js';
import { analysisKeys } from '../../lib/storage-keys.js';
import { PermanentRunFailure, readFloat64 } from './analysis.results.js';
import { type AnalysisRow, decodeFailure, type RunSource } from './analysis.runs.js';
import type { PieceStates } from './engine/location/reconcile.js';
import type { TrackerHandoff } from './engine/location/tracker.js';
import { runTask } from './engine/worker-client.js';
import { locationReference, type ReferenceFrames, readBytes } from './location.reference.js';
import type { LocationParameters } from './location.schemas.js';

export const pieceKey = (run: AnalysisRow, index: number) => analysisKeys(run).segment(index);

/** Segments decode side by side elsewhere; more ffmpeg threads than cores only add switching. */
export const threadsFor = (context: AppContext) => (context.config.analysisWorkers > 1 ? 1 : 0);

/** What a piece keeps (older runs' pieces kept the exit alone). */
export type StoredStates = PieceStates | TrackerHandoff;
export const statesOf = (stored: StoredStates | null): PieceStates | null => {
  if (stored === null) return null;
  return 'exit' in stored && 'entry' in stored
    ? (stored as PieceStates)
    : { entry: stored as TrackerHandoff, exit: stored as TrackerHandoff };
};

/**
 * The run's reference: the copy beside the run when there is one (its reference job makes it first), else the
 * video's reference for the run's setting (location.reference.ts: read from the video's cache, or computed and
 * cached), then copied beside the run with its notes and frames, so the run keeps the picture it tracked on
 * whatever happens to the cache. `proven` replaces both with one decoded from proven clean starts (ADR 029).
 */
export async function runReference(
  context: AppContext,
  run: AnalysisRow,
  input: MediaInput,
  options: { signal?: AbortSignal; threads?: number; proven?: boolean } = {},
): Promise<{ reference: Float32Array; frames: ReferenceFrames }> {
  const keys = analysisKeys(run);
  if (!options.proven && (await context.storage.stat(keys.reference))) {
    const bytes = await readBytes(context, keys.reference);
    const reference = new Float32Array(bytes.length / 4);
    new Uint8Array(reference.buffer).set(bytes);
    // A run made before ADR 029 has no frames file: its reference came from proven starts.
    const frames = (await context.storage.stat(keys.referenceFrames))
      ? (JSON.parse((await readBytes(context, keys.referenceFrames)).toString('utf8')) as ReferenceFrames)
      : { frames: [], hashes: null };
    return { reference, frames };
  }
  const computed = await locationReference(
    context,
    run,
    run.source as RunSource,
    input,
    run.parameters as LocationParameters,
    { threads: threadsFor(context), ...options },
  ).catch((error: unknown) => {
    if (error instanceof DecodeErrorReport) throw new PermanentRunFailure(decodeFailure(error));
    throw error;
  });
  const frames: ReferenceFrames = { frames: computed.frames, hashes: computed.hashes };
  // The picture last: a reference stored without its notes and frames would be read as one that needed neither.
  await context.storage.write(keys.referenceNotes, Buffer.from(JSON.stringify(computed.notes)));
  await context.storage.write(keys.referenceFrames, Buffer.from(JSON.stringify(frames)));
  const { reference } = computed;
  await context.storage.write(
    keys.reference,
    Buffer.from(reference.buffer, reference.byteOffset, reference.byteLength),
  );
  return { reference, frames };
}

/** Which frames a tracking task covers, and from which state and decode start. */
export interface TrackSpan {
  startFrame: number;
  /** One past the last frame; null: to the end of the video. */
  endFrame: number | null;
  /** First frame shown to the tracker (≤ startFrame; startFrame: no warm-up). */
  warmUpFrom: number;
  from: TrackerHandoff | null;
  start: CleanStart;
  /** Frames of the span whose pictures are hashed for the reference's check. */
  verifyFrames?: number[];
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
      verifyFrames: span.verifyFrames,
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
export async function trackFromCleanStart(
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

export async function originalOf(context: AppContext, run: AnalysisRow) {
  const [video] = await context.db
    .select({ originalKey: videos.originalKey, container: videos.container })
    .from(videos)
    .where(eq(videos.videoUuid, run.videoUuid));
  if (!video?.originalKey) throw new PermanentRunFailure('The video has no original file any more.');
  return { originalKey: video.originalKey, container: video.container };
}

export const bytesOf = (values: Float64Array) => Buffer.from(values.buffer, values.byteOffset, values.byteLength);

/** A run's stored positions: x and y of every frame (NaN = none). */
export async function readTrack(context: AppContext, key: string): Promise<{ x: Float64Array; y: Float64Array }> {
  const both = await readFloat64(context, key);
  const frames = both.length / 2;
  return { x: both.slice(0, frames), y: both.slice(frames) };
}
