/**
 * Pure planning for a movement-detection run: which ROI applies to a frame, which frames are bypassed, the
 * crop ffmpeg decodes, and how a video is cut into segments that workers process side by side.
 */
import { type CleanStart, FILE_START } from '../../../adapters/media/clean-start.js';
import type { Rect } from './intensity.js';

/** A rectangle that becomes the active ROI from `start_s` on (until the next one starts). */
export interface TimedRoi extends Rect {
  start_s: number;
}

/** Frame `n` is shown at n / fps; the tolerance (in frames) keeps 0.1 s × 30 fps at frame 3 despite floating point. */
const TIME_EPSILON = 1e-6;

export function frameTime(frame: number, fps: number): number {
  return frame / fps;
}

/** The first frame shown at or after `seconds`. */
export function firstFrameAtOrAfter(seconds: number, fps: number): number {
  return Math.max(0, Math.ceil(seconds * fps - TIME_EPSILON));
}

/**
 * For each frame of [startFrame, endFrame), the index into `rois` of the active ROI (the last one whose start
 * is at or before the frame's time), as a function that must be called with increasing frames.
 * No ROIs means the whole picture, reported as -1.
 */
export function roiCursor(rois: readonly TimedRoi[], fps: number): (frame: number) => number {
  // Frame at which each ROI takes over; rois are sorted by start_s (validated).
  const starts = rois.map((roi) => firstFrameAtOrAfter(roi.start_s, fps));
  let active = rois.length === 0 ? -1 : 0;
  return (frame) => {
    if (active === -1) return -1;
    // Frames are visited in order, so the pointer only moves forward (restarts are new cursors).
    while (active + 1 < starts.length && starts[active + 1]! <= frame) active++;
    return active;
  };
}

/**
 * Whether a frame lies in a bypass range [start, end) (half-open: a frame at exactly `end` is analysed again).
 * Ranges are sorted and non-overlapping (validated); frames must be asked in increasing order.
 */
export function bypassCursor(ranges: readonly (readonly [number, number])[], fps: number): (frame: number) => boolean {
  const bounds = ranges.map(
    ([start, end]) => [firstFrameAtOrAfter(start, fps), firstFrameAtOrAfter(end, fps)] as const,
  );
  let next = 0;
  return (frame) => {
    while (next < bounds.length && bounds[next]![1] <= frame) next++;
    const range = bounds[next];
    return range !== undefined && range[0] <= frame && frame < range[1];
  };
}

/**
 * The part of the picture to decode: the bounding box of all ROIs grown by one pixel (the blur reads one
 * pixel beyond an ROI) and clipped to the picture; the whole picture without ROIs.
 */
export function decodeCrop(rois: readonly Rect[], width: number, height: number): Rect {
  if (rois.length === 0) return { x: 0, y: 0, width, height };
  let left = width;
  let top = height;
  let right = 0;
  let bottom = 0;
  for (const roi of rois) {
    left = Math.min(left, roi.x);
    top = Math.min(top, roi.y);
    right = Math.max(right, roi.x + roi.width);
    bottom = Math.max(bottom, roi.y + roi.height);
  }
  left = Math.max(0, left - 1);
  top = Math.max(0, top - 1);
  right = Math.min(width, right + 1);
  bottom = Math.min(height, bottom + 1);
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** An ROI in the coordinates of the decoded crop. */
export function roiInCrop(roi: Rect | undefined, crop: Rect): Rect {
  if (!roi) return { x: 0, y: 0, width: crop.width, height: crop.height };
  return { x: roi.x - crop.x, y: roi.y - crop.y, width: roi.width, height: roi.height };
}

/** The frames before its first that a movement piece reads: a frame difference needs the frame before. */
export const MOVEMENT_LOOK_BACK = 1;

export interface Segment {
  index: number;
  /** First frame whose value the segment produces. */
  startFrame: number;
  /** One past its last frame; the last segment runs to the end of the stream whatever the probe said. */
  endFrame: number;
}

export interface SegmentPlanOptions {
  /** Workers expected to share the run: the number of segments is a multiple of it when the video allows. */
  parallelism: number;
  /** Longest segment, in frames (bounds the work lost when one segment is retried). */
  maxSegmentFrames: number;
  /** Shortest segment worth a seek and a process, in frames. */
  minSegmentFrames: number;
}

/**
 * Cuts [0, frameCount) into near-equal segments: at least `parallelism` of them (so every worker gets work),
 * rounded up to a multiple of it, none longer than `maxSegmentFrames`. When these conflict with
 * `minSegmentFrames` (a short video, or a maximum near the minimum) the minimum wins: fewer, longer segments,
 * since a segment shorter than that costs more in seeking and start-up than it gains in parallelism.
 */
export function planSegments(frameCount: number, options: SegmentPlanOptions): Segment[] {
  const parallelism = Math.max(1, Math.floor(options.parallelism));
  let count = Math.max(parallelism, Math.ceil(frameCount / Math.max(1, options.maxSegmentFrames)));
  // Round up to a multiple of the parallelism so the last wave keeps every worker busy.
  count = Math.ceil(count / parallelism) * parallelism;
  count = Math.max(1, Math.min(count, Math.floor(frameCount / Math.max(1, options.minSegmentFrames))));
  const segments: Segment[] = [];
  for (let index = 0; index < count; index++) {
    segments.push({
      index,
      startFrame: Math.floor((index * frameCount) / count),
      endFrame: Math.floor(((index + 1) * frameCount) / count),
    });
  }
  return segments;
}

/**
 * Moves each cut onto a keyframe near it: segment i then starts `lookBack` frames after a keyframe, so its decode can
 * start at that keyframe and drop nothing before the frames it reads (a cut between keyframes decodes the stretch from
 * the keyframe before it twice: up to a keyframe gap, ~250 frames for x264's default). A cut moves to the nearest
 * keyframe, and only by up to a quarter of the shorter segment beside it, so the segments stay near-equal and in order.
 * `keyframes` are frame numbers, increasing. Whether a keyframe is a clean start is still proven (withCleanStarts).
 */
export function cutsAtKeyframes(
  segments: readonly Segment[],
  keyframes: readonly number[],
  lookBack: number,
): Segment[] {
  const out = segments.map((segment) => ({ ...segment }));
  for (let i = 1; i < out.length; i++) {
    const cut = out[i]!.startFrame;
    const lead = cut - lookBack;
    const keyframe = nearest(keyframes, lead);
    if (keyframe === undefined) continue;
    const moved = keyframe + lookBack;
    const room = Math.floor(Math.min(cut - out[i - 1]!.startFrame, out[i]!.endFrame - cut) / 4);
    if (moved === cut || Math.abs(moved - cut) > room) continue;
    out[i - 1]!.endFrame = moved;
    out[i]!.startFrame = moved;
  }
  return out;
}

/** The value of a sorted list nearest to `target` (the earlier one on a tie); undefined for an empty list. */
function nearest(sorted: readonly number[], target: number): number | undefined {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < target) low = middle + 1;
    else high = middle;
  }
  const after = sorted[low];
  const before = sorted[low - 1];
  if (before === undefined) return after;
  if (after === undefined) return before;
  return target - before <= after - target ? before : after;
}

export interface StartedSegment extends Segment {
  /** Where its decode starts (the file's start for the first segment). */
  start: CleanStart;
}

/**
 * Gives each segment the clean start its decode needs (frame startFrame − 1 on), from `starts[i]` for segment
 * i ≥ 1. A segment whose boundary has no proven start, or only one so far back that its decode would drop more
 * than `maxLeadFrames` frames before its own, joins the segment before it: fewer segments, never a decode from a
 * point not proven clean. The joined segments cover [0, frameCount) as before.
 */
export function withCleanStarts(
  segments: readonly Segment[],
  starts: readonly (CleanStart | null | undefined)[],
  maxLeadFrames: number,
): StartedSegment[] {
  const out: StartedSegment[] = [];
  for (const [i, segment] of segments.entries()) {
    const start = i === 0 ? FILE_START : starts[i];
    const usable =
      start && start.frame <= segment.startFrame - 1 && segment.startFrame - 1 - start.frame <= maxLeadFrames;
    const previous = out.at(-1);
    if (i > 0 && !usable && previous) {
      previous.endFrame = segment.endFrame;
      continue;
    }
    out.push({ ...segment, index: out.length, start: start ?? FILE_START });
  }
  return out;
}

/**
 * The most frames a segment's decode may drop before its own (from its clean start to its first frame): a
 * segment's length or 10 s of video, whichever is more — so a cut costs at most about twice its segment.
 */
export function maxLeadFrames(fps: number, segmentFrames: number): number {
  return Math.max(Math.round(10 * fps), segmentFrames);
}
