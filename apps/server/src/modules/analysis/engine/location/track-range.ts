/**
 * Location tracking over a range of frames, and the decode of the reference's frames. Both read full-range gray
 * frames of the whole picture from the media adapter (limited-range luma mapped as movement detection maps it),
 * each decode from a clean start (ADR 006). Runs wherever it is called — the job system calls it inside a worker
 * thread (analysis.worker.ts).
 */
import { type CleanStart, FILE_START } from '../../../../adapters/media/clean-start.js';
import { readGrayFrames } from '../../../../adapters/media/gray-frames.js';
import { type DecodeSource, needsRangeMapping } from '../decode.js';
import { instantiateKernel, KERNEL_PAD } from '../kernel.js';
import { bypassCursor } from '../plan.js';
import type { FrameTracker, TrackerHandoff } from './tracker.js';

export interface TrackRangeTask {
  ffmpeg: string;
  source: DecodeSource;
  /** First frame whose position is wanted. */
  startFrame: number;
  /** One past the last frame wanted; null = to the end of the video. */
  endFrame: number | null;
  /** A clean start at or before startFrame (and warmUpFrom); frames before startFrame give no position. */
  start?: CleanStart;
  /**
   * Frames [warmUpFrom, startFrame) are shown to the tracker but give no position: a piece that runs beside the
   * one before it catches up with the tracker's state there (`entry` says whether it did). None: no warm-up.
   */
  warmUpFrom?: number;
  /** Frames in these [start, end) seconds get no position and are not shown to the tracker. */
  bypass_ranges: [number, number][];
  /** ffmpeg decoding threads (0 = ffmpeg's choice). */
  threads?: number;
}

export interface TrackRangeHooks {
  signal?: AbortSignal;
  onProgress?: (framesDone: number) => void;
  progressIntervalMs?: number;
  onSpawn?: (pid: number) => void;
  /** Each frame after it was tracked (the buffer is reused for the next frame: copy what you keep). */
  onTracked?: (frame: Uint8Array, frameNumber: number) => void;
}

export interface TrackRangeResult {
  /** x[i], y[i]: frame startFrame + i's position, NaN for none. */
  x: Float64Array;
  y: Float64Array;
  /** What the next frame (the next piece) starts from. */
  handoff: TrackerHandoff;
  /** The tracker's state just before startFrame: the given hand-off, or where the warm-up brought it. */
  entry: TrackerHandoff;
}

/** Makes the tracker that continues from `handoff` (null: the video's first frame). */
export type TrackerFactory = (handoff: TrackerHandoff | null) => FrameTracker;

/**
 * Reads a decode of the whole picture into one reused buffer and hands each frame on in full range: frames land in
 * the buffer raw (the media adapter writes them there), so limited-range luma is mapped in place first, as
 * movement detection maps it — by the kernel's SIMD `map_limited` (kernel.wat), the buffer living in the kernel's
 * memory: a byte-at-a-time table lookup in JavaScript cost more than the tracking itself.
 */
function fullRangeReader(source: DecodeSource, onFrame: (frame: Uint8Array, index: number) => void) {
  const size = source.width * source.height;
  if (!needsRangeMapping(source)) {
    const frame = new Uint8Array(size);
    return { frame, onFrame: (index: number) => onFrame(frame, index) };
  }
  const { kernel, memory } = instantiateKernel(size + KERNEL_PAD);
  const frame = new Uint8Array(memory.buffer, 0, size);
  return {
    frame,
    onFrame: (index: number) => {
      kernel.map_limited(0, size);
      onFrame(frame, index);
    },
  };
}

function wholePicture(source: DecodeSource) {
  return { x: 0, y: 0, width: source.width, height: source.height };
}

/**
 * Positions of frames [startFrame, endFrame), the tracker continuing from `handoff` (the piece before's). A
 * bypassed frame is a frame without a position, so the tracker forgets its previous position there (TrackerHandoff):
 * it is made again from its state with `previous: null` at the first bypassed frame of a range — a window never
 * continues from where the animal was before a bypass. A decode error ffmpeg reports fails the range
 * (DecodeErrorReport).
 */
export async function trackFrameRange(
  task: TrackRangeTask,
  makeTracker: TrackerFactory,
  handoff: TrackerHandoff | null,
  hooks: TrackRangeHooks = {},
): Promise<TrackRangeResult> {
  let tracker = makeTracker(handoff);
  let entry: TrackerHandoff | null = null;
  const { source } = task;
  const start = task.start ?? FILE_START;
  const firstShown = Math.min(task.warmUpFrom ?? task.startFrame, task.startFrame);
  if (start.frame > firstShown) {
    throw new Error(`a decode start at frame ${start.frame} cannot give frame ${firstShown}`);
  }
  const frameLimit = task.endFrame === null ? null : task.endFrame - start.frame;
  const bypassed = bypassCursor(task.bypass_ranges, source.fps);
  let x = new Float64Array(Math.max(1, frameLimit ?? 1024));
  let y = new Float64Array(x.length);
  let produced = 0;
  /** A warm-up frame: tracked as any frame (a bypass forgets the position), its position dropped. */
  const showBypassAware = (current: FrameTracker, frame: Uint8Array, frameNumber: number) => {
    if (bypassed(frameNumber)) {
      return current.handoff().previous !== null ? makeTracker({ ...current.handoff(), previous: null }) : current;
    }
    current.track(frame);
    return current;
  };
  const onFrame = (frame: Uint8Array, decodedIndex: number) => {
    const frameNumber = start.frame + decodedIndex;
    if (frameNumber < firstShown) return;
    if (frameNumber < task.startFrame) {
      tracker = showBypassAware(tracker, frame, frameNumber);
      return;
    }
    entry ??= tracker.handoff();
    if (produced === x.length) {
      const grownX = new Float64Array(x.length * 2);
      const grownY = new Float64Array(x.length * 2);
      grownX.set(x);
      grownY.set(y);
      x = grownX;
      y = grownY;
    }
    const skip = bypassed(frameNumber);
    if (skip && tracker.handoff().previous !== null) tracker = makeTracker({ ...tracker.handoff(), previous: null });
    const position = skip ? null : tracker.track(frame);
    x[produced] = position ? position.x : Number.NaN;
    y[produced] = position ? position.y : Number.NaN;
    produced++;
    hooks.onTracked?.(frame, frameNumber);
  };
  let lastProgress = Date.now();
  const interval = hooks.progressIntervalMs ?? 250;
  const reader = fullRangeReader(source, (frame, decodedIndex) => {
    onFrame(frame, decodedIndex);
    const now = Date.now();
    if (hooks.onProgress && now - lastProgress >= interval) {
      lastProgress = now;
      hooks.onProgress(produced);
    }
  });
  await readGrayFrames(
    task.ffmpeg,
    source,
    { start, frames: frameLimit, crop: wholePicture(source), threads: task.threads },
    { ...reader, signal: hooks.signal, onSpawn: hooks.onSpawn },
  );
  hooks.onProgress?.(produced);
  return {
    x: x.slice(0, produced),
    y: y.slice(0, produced),
    handoff: tracker.handoff(),
    entry: entry ?? tracker.handoff(),
  };
}

/** Frames to decode from one clean start: `frames` increasing, each at or after `start.frame`. */
export interface FramePick {
  start: CleanStart;
  frames: number[];
}

/**
 * Groups wanted frames by the clean start each decodes from (`starts[i]` for `frames[i]`, FILE_START when
 * none): one decode per start, from it to its group's last frame. Frames must be increasing.
 */
export function framePicks(frames: readonly number[], starts: readonly (CleanStart | null | undefined)[]): FramePick[] {
  const picks: FramePick[] = [];
  frames.forEach((frame, i) => {
    const start = starts[i] ?? FILE_START;
    if (start.frame > frame) throw new Error(`a decode start at frame ${start.frame} cannot give frame ${frame}`);
    const last = picks.at(-1);
    // A later frame from the same start continues that decode instead of seeking again.
    if (last && last.start.frame === start.frame && last.start.seekS === start.seekS) last.frames.push(frame);
    else picks.push({ start, frames: [frame] });
  });
  return picks;
}

/**
 * The full-range gray pictures of the picked frames (a repeated frame index answers the same picture again), in
 * the order the picks list them. Each pick is one decode from its start; up to `concurrency` run at once (each is
 * mostly ffmpeg's own start-up when a pick is a frame or two after its keyframe), and the first failure stops the
 * others.
 */
export async function decodeFramesAt(
  ffmpeg: string,
  source: DecodeSource,
  picks: readonly FramePick[],
  hooks: Pick<TrackRangeHooks, 'signal' | 'onSpawn' | 'onProgress'> & { threads?: number; concurrency?: number } = {},
): Promise<Uint8Array[]> {
  const results: Uint8Array[][] = new Array(picks.length);
  const failed = new AbortController();
  const signal = hooks.signal ? AbortSignal.any([hooks.signal, failed.signal]) : failed.signal;
  let nextPick = 0;
  let done = 0;
  const decodePick = async (pick: FramePick): Promise<Uint8Array[]> => {
    const out: Uint8Array[] = [];
    const wanted = pick.frames;
    const last = wanted.at(-1)!;
    let next = 0;
    const reader = fullRangeReader(source, (frame, decodedIndex) => {
      const frameNumber = pick.start.frame + decodedIndex;
      while (next < wanted.length && wanted[next] === frameNumber) {
        out.push(frame.slice());
        next++;
      }
    });
    await readGrayFrames(
      ffmpeg,
      source,
      { start: pick.start, frames: last - pick.start.frame + 1, crop: wholePicture(source), threads: hooks.threads },
      { ...reader, signal, onSpawn: hooks.onSpawn },
    );
    if (next < wanted.length) throw new Error(`the video ended before frame ${wanted[next]}`);
    return out;
  };
  const lane = async () => {
    while (nextPick < picks.length) {
      const index = nextPick++;
      results[index] = await decodePick(picks[index] as FramePick);
      done += results[index].length;
      hooks.onProgress?.(done);
    }
  };
  let firstError: unknown = null;
  const lanes = Array.from({ length: Math.max(1, Math.min(hooks.concurrency ?? 1, picks.length)) }, () =>
    lane().catch((error: unknown) => {
      // The first lane's own error is the reason, not a sibling's "cancelled" after the abort.
      if (!failed.signal.aborted) firstError = error;
      failed.abort();
      throw error;
    }),
  );
  const settled = await Promise.allSettled(lanes);
  if (settled.some((result) => result.status === 'rejected')) throw firstError;
  return results.flat();
}

/** The decoder took a different number of keyframes than the packet index flags: the pictures cannot be placed. */
export class KeyframesMiscounted extends Error {
  override readonly name = 'KeyframesMiscounted';
}

/**
 * The full-range gray pictures of `wanted` (increasing, each one of `keyframes`: every frame the packet index flags
 * as a keyframe, in display order) from one pass that decodes keyframes only. Throws KeyframesMiscounted when the
 * decoder output another number of pictures than `keyframes` holds, and DecodeErrorReport on any decode error.
 */
export async function decodeKeyframes(
  ffmpeg: string,
  source: DecodeSource,
  keyframes: readonly number[],
  wanted: readonly number[],
  hooks: Pick<TrackRangeHooks, 'signal' | 'onSpawn'> & { threads?: number } = {},
): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  let next = 0;
  let decoded = 0;
  const reader = fullRangeReader(source, (frame, decodedIndex) => {
    decoded = decodedIndex + 1;
    if (next < wanted.length && keyframes[decodedIndex] === wanted[next]) {
      out.push(frame.slice());
      next++;
    }
  });
  await readGrayFrames(
    ffmpeg,
    source,
    { start: FILE_START, frames: null, crop: wholePicture(source), threads: hooks.threads, keyframesOnly: true },
    { ...reader, signal: hooks.signal, onSpawn: hooks.onSpawn },
  );
  if (decoded !== keyframes.length || next !== wanted.length) {
    throw new KeyframesMiscounted(`the decoder gave ${decoded} keyframes, the packet index flags ${keyframes.length}`);
  }
  return out;
}
