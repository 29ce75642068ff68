/**
 * Pure rules for a track's bouts: where a list may end, a partial change (remove these, add those) applied to the
 * current list, and the figures kept beside it. No I/O, so every rule is unit-tested without a database.
 */
import { TIME_RANGE_MESSAGES, type TimeRange } from '../../lib/time-ranges.js';

/** The latest time a bout may end: the video's length, or the end of its last frame when that is later. */
export function videoEnd(video: { durationS: number | null; fps: number | null; frameCount: number | null }) {
  const lastFrameEnd = video.fps && video.frameCount ? video.frameCount / video.fps : undefined;
  if (video.durationS === null) return lastFrameEnd;
  return lastFrameEnd === undefined ? video.durationS : Math.max(video.durationS, lastFrameEnd);
}

export function rangeFigures(ranges: readonly TimeRange[]) {
  let total = 0;
  for (const [start, end] of ranges) total += end - start;
  return { rangeCount: ranges.length, totalDurationS: total };
}

const pair = ([start, end]: readonly [number, number]) => `[${start}, ${end}]`;

/** How close to a frame's start a time read from a file must be to mean that frame (exports print microseconds). */
export const FRAME_SNAP_S = 1e-6;

/**
 * Times read from a file, with every value within a microsecond of a frame's start put exactly on it: a bout drawn on
 * frames and exported to the microsecond (0.233333 for frame 7 at 30 fps) comes back on frame 7, not a hair before
 * it, where a frame-based reading would land on frame 6. Other values are kept as written.
 */
export function snapToFrames(ranges: readonly TimeRange[], fps: number | null): TimeRange[] {
  if (!fps || fps <= 0) return ranges.map(([start, end]) => [start, end]);
  const snap = (seconds: number) => {
    const frame = Math.round(seconds * fps);
    return Math.abs(frame / fps - seconds) <= FRAME_SNAP_S ? frame / fps : seconds;
  };
  return ranges.map(([start, end]) => [snap(start), snap(end)]);
}

export type PatchResult = { ok: true; ranges: TimeRange[] } | { ok: false; errors: Record<string, string[]> };

/**
 * Removes `remove` (each must be one of the current ranges, exactly) and adds `add` (each must lie within the video
 * and overlap nothing that remains, nor another added range; touching is fine). All or nothing.
 */
export function applyRangePatch(
  current: readonly TimeRange[],
  change: { add?: readonly TimeRange[]; remove?: readonly TimeRange[] },
  maxEnd: number | undefined,
): PatchResult {
  const errors: Record<string, string[]> = {};
  const problem = (field: 'add' | 'remove', message: string) => {
    errors[field] ??= [];
    errors[field].push(message);
  };

  const kept = current.slice();
  for (const [index, range] of (change.remove ?? []).entries()) {
    const at = kept.findIndex(([start, end]) => start === range[0] && end === range[1]);
    if (at === -1) problem('remove', `Row ${index + 1}: ${pair(range)} is not a range of this track.`);
    else kept.splice(at, 1);
  }

  const added = (change.add ?? []).map((range, index) => ({ range, row: index + 1 }));
  for (const { range, row } of added) {
    if (maxEnd !== undefined && range[1] > maxEnd) problem('add', TIME_RANGE_MESSAGES.afterEnd(row, range[1], maxEnd));
  }
  // Sweep the kept and added ranges in start order; an added one that starts before the furthest end so far overlaps.
  const all = [
    ...kept.map((range) => ({ range, row: 0 })),
    ...added.filter(({ range }) => maxEnd === undefined || range[1] <= maxEnd),
  ].sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1]);
  let furthest: { range: TimeRange; row: number } | null = null;
  for (const item of all) {
    if (furthest && item.range[0] < furthest.range[1]) {
      const [newcomer, other] = item.row > 0 ? [item, furthest] : [furthest, item];
      problem('add', `Row ${newcomer.row}: ${pair(newcomer.range)} overlaps ${pair(other.range)}.`);
    }
    if (!furthest || item.range[1] > furthest.range[1]) furthest = item;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, ranges: all.map(({ range }) => [range[0], range[1]]) };
}
