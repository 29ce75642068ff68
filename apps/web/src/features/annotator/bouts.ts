/**
 * A track's bouts: a sorted list of non-overlapping [start, end] ranges in seconds (the spec's time-range rules).
 * Pure list operations — search, add with merging, tolerant re-application of a change, diff — used by the marking
 * logic, the timeline and the save queue. Touching bouts ([1, 2] and [2, 3]) are two bouts; overlapping ones merge.
 */

export type Range = [start: number, end: number];

/** What an edit did to one track: the ranges it took out and the ones it put in (the unit the server PATCHes). */
export interface RangeChange {
  remove: Range[];
  add: Range[];
}

export const sameRange = (a: readonly [number, number], b: readonly [number, number]) => a[0] === b[0] && a[1] === b[1];

/** Index of the first range ending after `time` (ranges.length when none): where the visible part of a list starts. */
export function firstEndingAfter(ranges: readonly Range[], time: number): number {
  let low = 0;
  let high = ranges.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (ranges[mid]![1] <= time) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Index of the first range starting at or after `time`. */
export function firstStartingAtOrAfter(ranges: readonly Range[], time: number): number {
  let low = 0;
  let high = ranges.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (ranges[mid]![0] < time) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The bout holding `time` (start ≤ time < end), or -1. */
export function rangeIndexAt(ranges: readonly Range[], time: number): number {
  const index = firstEndingAfter(ranges, time);
  const range = ranges[index];
  return range && range[0] <= time ? index : -1;
}

/** [from, to) indexes of the ranges that show in the window [start, end]. */
export function visibleSlice(ranges: readonly Range[], start: number, end: number): [number, number] {
  // Starts and ends are both sorted (no overlaps), so two binary searches bound the window.
  const from = firstEndingAfter(ranges, start);
  return [from, Math.max(from, firstStartingAtOrAfter(ranges, end))];
}

const overlaps = (a: readonly [number, number], b: readonly [number, number]) => a[0] < b[1] && b[0] < a[1];

/**
 * Adds `range`, merging it with every bout it overlaps (touching is not overlapping). Answers the new list, the
 * change that made it, and how many existing bouts were merged in.
 */
export function addWithMerge(
  ranges: readonly Range[],
  range: Range,
): { ranges: Range[]; change: RangeChange; merged: number } {
  // The first bout ending after the new one starts (one ending exactly there only touches it).
  const from = firstEndingAfter(ranges, range[0]);
  let to = from;
  let start = range[0];
  let end = range[1];
  while (to < ranges.length && overlaps(ranges[to]!, [start, end])) {
    start = Math.min(start, ranges[to]![0]);
    end = Math.max(end, ranges[to]![1]);
    to++;
  }
  const removed = ranges.slice(from, to);
  const added: Range = [start, end];
  const next = [...ranges.slice(0, from), added, ...ranges.slice(to)];
  return { ranges: next, change: { remove: removed.map((r) => [r[0], r[1]]), add: [added] }, merged: removed.length };
}

/** Removes the bout equal to `range`, if there. */
export function removeRange(ranges: readonly Range[], range: readonly [number, number]): Range[] {
  const index = firstStartingAtOrAfter(ranges, range[0]);
  const found = ranges[index];
  if (!found || !sameRange(found, range)) return ranges.slice();
  return [...ranges.slice(0, index), ...ranges.slice(index + 1)];
}

/**
 * Applies a change to a list that may have moved on since the change was made (someone else saved in between, or
 * an undo after a merge): removes what is still there, adds with merging. Applied to the list it was made on, it
 * gives exactly the list the edit produced.
 */
export function applyChange(ranges: readonly Range[], change: RangeChange): Range[] {
  let next = ranges.slice();
  for (const range of change.remove) next = removeRange(next, range);
  for (const range of change.add) next = addWithMerge(next, range).ranges;
  return next;
}

export const invertChange = (change: RangeChange): RangeChange => ({ remove: change.add, add: change.remove });

/** The change that turns `before` into `after` (both sorted): what the server must remove and add. */
export function diffRanges(before: readonly Range[], after: readonly Range[]): RangeChange {
  const remove: Range[] = [];
  const add: Range[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    const a = before[i];
    const b = after[j];
    if (a && b && sameRange(a, b)) {
      i++;
      j++;
    } else if (a && (!b || a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]))) {
      remove.push([a[0], a[1]]);
      i++;
    } else if (b) {
      add.push([b[0], b[1]]);
      j++;
    }
  }
  return { remove, add };
}

export const isEmptyChange = (change: RangeChange) => change.add.length === 0 && change.remove.length === 0;

export const totalDuration = (ranges: readonly Range[]) => ranges.reduce((sum, [start, end]) => sum + end - start, 0);
