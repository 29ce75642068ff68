/**
 * Movement detection over a range of frames: ffmpeg decodes gray frames into the counter's buffer (a socket read
 * straight into it, gray-frames.ts), `IntensityCounter` counts
 * changed pixels per frame. Runs wherever it is called — the job system calls it inside a worker thread.
 */
import { type CleanStart, FILE_START } from '../../../adapters/media/clean-start.js';
import { readGrayFrames } from '../../../adapters/media/gray-frames.js';
import { type DecodeSource, needsRangeMapping } from './decode.js';
import { IntensityCounter, type IntensityParameters, type Rect } from './intensity.js';
import { bypassCursor, decodeCrop, roiCursor, roiInCrop, type TimedRoi } from './plan.js';

export interface MovementParameters extends IntensityParameters {
  rois: TimedRoi[];
  bypass_ranges: [number, number][];
}

export interface FrameRangeTask {
  ffmpeg: string;
  source: DecodeSource;
  parameters: MovementParameters;
  /** First frame whose value is wanted. */
  startFrame: number;
  /**
   * Where decoding starts: a clean start at or before frame startFrame − 1 (clean-start.ts); frames before
   * startFrame are decoded and dropped. Absent: the file's start.
   */
  start?: CleanStart;
  /** One past the last frame wanted; null = to the end of the video. */
  endFrame: number | null;
  /** Decode the whole picture instead of the ROIs' bounding box (the preview draws on it). */
  wholePicture?: boolean;
  /** ffmpeg decoding threads per process (0 = ffmpeg's choice). */
  threads?: number;
}

export interface FrameRangeHooks {
  signal?: AbortSignal;
  /** Frames finished so far; called at most every `progressIntervalMs`. */
  onProgress?: (framesDone: number) => void;
  progressIntervalMs?: number;
  /** The ffmpeg process id, so a supervisor can kill it even if this thread is stuck. */
  onSpawn?: (pid: number) => void;
  /** Called for the last frame with the crop's pixels and the changed mask (preview pictures). */
  keepLastFrame?: boolean;
}

export interface FrameRangeResult {
  /** values[i] is frame startFrame + i: changed pixels, or NaN in a bypass range. */
  values: Float64Array;
  crop: Rect;
  /** The last frame (crop pixels, full range) and its changed mask, when asked for. */
  lastFrame?: { pixels: Uint8Array; mask: { roi: Rect; mask: Uint8Array } | null };
}

/**
 * Values for frames [startFrame, endFrame). A range starting after frame 0 decodes from a clean start at or
 * before the frame before it, so its first value compares with the real previous frame: cut a video anywhere and
 * the values are the same. A decode error ffmpeg reports (any stderr line the start's proof did not see) fails
 * the range with DecodeErrorReport: its pictures are not trusted.
 */
export async function analyseFrameRange(task: FrameRangeTask, hooks: FrameRangeHooks = {}): Promise<FrameRangeResult> {
  const { source, parameters } = task;
  const crop = task.wholePicture
    ? { x: 0, y: 0, width: source.width, height: source.height }
    : decodeCrop(parameters.rois, source.width, source.height);
  const cropRois = parameters.rois.map((roi) => roiInCrop(roi, crop));
  const wholeCrop = roiInCrop(undefined, crop);
  const start = task.start ?? FILE_START;
  const decodeFrom = start.frame;
  if (decodeFrom > Math.max(0, task.startFrame - 1)) {
    throw new Error(`a decode start at frame ${decodeFrom} cannot give frame ${task.startFrame - 1}`);
  }
  const frameLimit = task.endFrame === null ? null : task.endFrame - decodeFrom;
  const window = { start, frames: frameLimit, crop, threads: task.threads };

  const counter = new IntensityCounter(crop.width, crop.height, parameters, needsRangeMapping(source));
  const activeRoi = roiCursor(parameters.rois, source.fps);
  const bypassed = bypassCursor(parameters.bypass_ranges, source.fps);
  let values = new Float64Array(Math.max(1, frameLimit ?? 1024));
  let produced = 0;
  let lastPixels: Uint8Array | undefined;

  let lastProgress = Date.now();
  const interval = hooks.progressIntervalMs ?? 250;
  // Frames land straight in the counter's buffer; it maps limited-range luma itself.
  const onFrame = (decodedIndex: number) => {
    const frameNumber = decodeFrom + decodedIndex;
    const isLead = frameNumber < task.startFrame;
    const skip = isLead || bypassed(frameNumber);
    const roiIndex = activeRoi(frameNumber);
    const roi = roiIndex === -1 ? wholeCrop : cropRois[roiIndex]!;
    // The window may end early (a probe that overcounted frames), so every frame is kept until the last.
    const keep = hooks.keepLastFrame === true;
    const count = counter.push(counter.frame, skip ? null : roi, keep);
    // After push the counter's frame holds full-range pixels.
    if (keep) lastPixels = counter.frame.slice();
    if (isLead) return;
    if (produced === values.length) {
      const grown = new Float64Array(values.length * 2);
      grown.set(values);
      values = grown;
    }
    values[produced++] = skip ? Number.NaN : count;
    const now = Date.now();
    if (hooks.onProgress && now - lastProgress >= interval) {
      lastProgress = now;
      hooks.onProgress(produced);
    }
  };
  await readGrayFrames(task.ffmpeg, source, window, {
    frame: counter.frame,
    onFrame,
    signal: hooks.signal,
    onSpawn: hooks.onSpawn,
  });
  hooks.onProgress?.(produced);
  const result: FrameRangeResult = { values: values.slice(0, produced), crop };
  if (hooks.keepLastFrame && lastPixels) result.lastFrame = { pixels: lastPixels, mask: counter.lastMask() };
  return result;
}
