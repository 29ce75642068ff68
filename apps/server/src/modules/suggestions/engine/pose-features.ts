/**
 * What a pose set says about an event (issue 25): whether a body part moved when the series crossed the threshold —
 * a twitch moves a paw, a lighting flicker or a shadow moves nothing. Speeds are in body lengths per second (the
 * diagonal of the box around the animal's points), so videos of different zoom and resolution share units.
 */
import { AFTER_S, BEFORE_S } from './event-features.js';

export const POSE_FEATURE_NAMES = ['pose_peak_speed', 'pose_speed_change'] as const;

/** One animal's cleaned keypoint tracks (NaN where a point is missing), one value per video frame. */
export interface PoseTracks {
  fps: number;
  x: Float64Array[];
  y: Float64Array[];
}

/** Speeds below this (body lengths per second) count as still: it keeps the log ratio of two still spans near 0. */
export const STILL_SPEED = 0.01;

const median = (values: number[]) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * Per event time, POSE_FEATURE_NAMES:
 * - `pose_peak_speed`: the highest speed of any body part from the event's frame to AFTER_S later (frame-to-frame
 *   distance × fps), in body lengths per second;
 * - `pose_speed_change`: log10 of the parts' mean speed in that span over their mean speed in the BEFORE_S before,
 *   each plus STILL_SPEED.
 * The body length is the median, over the frames of both spans, of the diagonal of the box around the points present.
 * An event with no two consecutive present points gets zeros.
 */
export function poseFeatures(tracks: PoseTracks, times: readonly number[]): number[][] {
  const { fps, x, y } = tracks;
  const frames = x[0]?.length ?? 0;
  const speed = (k: number, f: number) =>
    f < 1 || f >= frames ? Number.NaN : Math.hypot(x[k]![f]! - x[k]![f - 1]!, y[k]![f]! - y[k]![f - 1]!) * fps;
  return times.map((time) => {
    const at = Math.round(time * fps);
    const first = Math.max(0, at - Math.round(BEFORE_S * fps));
    const last = Math.min(frames - 1, at + Math.round(AFTER_S * fps));
    const sizes: number[] = [];
    for (let f = first; f <= last; f++) {
      let minX = Number.POSITIVE_INFINITY;
      let minY = Number.POSITIVE_INFINITY;
      let maxX = Number.NEGATIVE_INFINITY;
      let maxY = Number.NEGATIVE_INFINITY;
      for (let k = 0; k < x.length; k++) {
        const px = x[k]![f]!;
        const py = y[k]![f]!;
        if (Number.isNaN(px) || Number.isNaN(py)) continue;
        minX = Math.min(minX, px);
        maxX = Math.max(maxX, px);
        minY = Math.min(minY, py);
        maxY = Math.max(maxY, py);
      }
      if (maxX >= minX) sizes.push(Math.hypot(maxX - minX, maxY - minY));
    }
    const body = median(sizes);
    if (!(body > 0)) return [0, 0];
    let peak = 0;
    let sumAfter = 0;
    let countAfter = 0;
    let sumBefore = 0;
    let countBefore = 0;
    for (let k = 0; k < x.length; k++) {
      for (let f = first + 1; f <= last; f++) {
        const s = speed(k, f) / body;
        if (Number.isNaN(s)) continue;
        if (f > at) {
          peak = Math.max(peak, s);
          sumAfter += s;
          countAfter++;
        } else {
          sumBefore += s;
          countBefore++;
        }
      }
    }
    if (countAfter === 0) return [0, 0];
    const before = countBefore > 0 ? sumBefore / countBefore : 0;
    return [peak, Math.log10((sumAfter / countAfter + STILL_SPEED) / (before + STILL_SPEED))];
  });
}
