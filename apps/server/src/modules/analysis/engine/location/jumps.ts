/**
 * Jumps of a location-tracking run (issue 22, ADR 026): the frames where the position moved more than a body
 * length since the previous tracked frame — where the tracking is most likely wrong, listed so a user can check them.
 *
 * - The previous tracked frame is the last frame before with a position; frames without one between them are
 *   skipped (re-finding the animal far away after losing it is exactly what to check), but a bypassed frame
 *   between them ends the comparison: the animal may move anywhere while it is being handled.
 * - A jump is a step strictly longer than the threshold.
 * - The threshold (`jumpThreshold`): the run's `jump_px` when set; else the tracker's own body length at the end of
 *   the run (`body_core`'s running mean area → 2 √area, as its `reach` counts body lengths); else a fifth of the
 *   picture's smaller side (a mouse of ~100 px in a 640 × 480 open field; `eztrack` measures no body).
 */
import { bypassCursor } from '../plan.js';
import { bodyLength } from './body-tracker.js';

export type JumpBasis = 'parameter' | 'tracker' | 'frame';

export interface JumpThreshold {
  threshold_px: number;
  basis: JumpBasis;
}

export interface Jump {
  /** The frame whose position jumped. */
  frame: number;
  /** The tracked frame it is compared with (frame − 1 unless frames without a position lie between). */
  from_frame: number;
  time_s: number;
  distance_px: number;
}

/** The share of the picture's smaller side taken for a body length when nothing better is known. */
export const FRAME_BODY_SHARE = 1 / 5;

export function jumpThreshold(input: {
  jumpPx: number | null;
  /** The tracker's running mean area of the animal in pixels at the run's end; null when it keeps none. */
  trackerArea: number | null;
  width: number;
  height: number;
}): JumpThreshold {
  if (input.jumpPx !== null) return { threshold_px: input.jumpPx, basis: 'parameter' };
  if (input.trackerArea !== null && input.trackerArea > 0) {
    return { threshold_px: bodyLength(input.trackerArea), basis: 'tracker' };
  }
  return { threshold_px: Math.min(input.width, input.height) * FRAME_BODY_SHARE, basis: 'frame' };
}

/** Every jump of the track, in frame order. x[f], y[f] is frame f's position (NaN: none). */
export function findJumps(
  x: Float64Array,
  y: Float64Array,
  fps: number,
  thresholdPx: number,
  bypassRanges: readonly (readonly [number, number])[],
): Jump[] {
  const bypassed = bypassCursor(bypassRanges, fps);
  const jumps: Jump[] = [];
  let previous = -1;
  for (let f = 0; f < x.length; f++) {
    if (bypassed(f)) {
      previous = -1;
      continue;
    }
    const px = x[f]!;
    const py = y[f]!;
    if (Number.isNaN(px) || Number.isNaN(py)) continue;
    if (previous !== -1) {
      const distance = Math.hypot(px - x[previous]!, py - y[previous]!);
      if (distance > thresholdPx)
        jumps.push({ frame: f, from_frame: previous, time_s: f / fps, distance_px: distance });
    }
    previous = f;
  }
  return jumps;
}
