/**
 * The Annotator's editing rules, independent of the player and the screen: a track's hot key starts a bout at the
 * current frame and the same key ends it; a drag draws one; an edge moves; the selected bout is deleted; undo and
 * redo. Every time is a frame boundary. A bout that would overlap another of its track merges with it, and the
 * outcome says so. Each edit answers the change to save (remove these ranges, add those).
 */

import { countOf } from '@/lib/format';
import {
  addWithMerge,
  applyChange,
  diffRanges,
  invertChange,
  isEmptyChange,
  type Range,
  type RangeChange,
  removeRange,
  sameRange,
} from './bouts';

export interface Edit {
  track: string;
  change: RangeChange;
}

export interface Selection {
  track: string;
  range: Range;
}

export interface MarkingState {
  /** Each track's bouts, sorted. */
  ranges: Readonly<Record<string, Range[]>>;
  /** Tracks whose key started a bout that has not ended yet: the frame it started on. */
  open: Readonly<Record<string, number>>;
  selected: Selection | null;
  undo: readonly Edit[];
  redo: readonly Edit[];
}

/** What the rules need of the video: its frame rate and the latest time a bout may end. */
export interface VideoFrames {
  fps: number;
  /** Seconds: the end of the last frame (or the container's duration when later). */
  end: number;
}

export interface Outcome {
  state: MarkingState;
  /** The change to save, when the edit changed a track. */
  edit?: Edit;
  /** Something to tell the user (a merge, nothing to undo…). */
  message?: string;
}

const UNDO_LIMIT = 500;

export function createMarking(ranges: Record<string, Range[]> = {}): MarkingState {
  return { ranges, open: {}, selected: null, undo: [], redo: [] };
}

/** Frames a and b (either order) as a bout: from the earlier frame's start to the later one's; at least one frame. */
export function boutFromFrames(a: number, b: number, video: VideoFrames): Range {
  const first = Math.max(0, Math.min(a, b));
  const last = Math.max(a, b);
  const endFrame = last === first ? first + 1 : last;
  const lastFrame = Math.max(1, Math.round(video.end * video.fps));
  return [first / video.fps, Math.min(endFrame, lastFrame) / video.fps];
}

/** Two times (either order) as a bout, each snapped to the nearest frame boundary; at least one frame. */
export function boutFromTimes(a: number, b: number, video: VideoFrames): Range {
  const frameA = Math.round(Math.min(Math.max(a, 0), video.end) * video.fps);
  const frameB = Math.round(Math.min(Math.max(b, 0), video.end) * video.fps);
  if (frameA === frameB) {
    const lastFrame = Math.max(1, Math.round(video.end * video.fps));
    const first = Math.min(frameA, lastFrame - 1);
    return [first / video.fps, (first + 1) / video.fps];
  }
  return [Math.min(frameA, frameB) / video.fps, Math.max(frameA, frameB) / video.fps];
}

function mergeMessage(merged: number, trackName: string): string | undefined {
  if (merged === 0) return undefined;
  return merged === 1
    ? `The bout overlapped another bout of "${trackName}" and was merged with it.`
    : `The bout overlapped ${countOf(merged, 'bout')} of "${trackName}" and was merged with them.`;
}

/** Records an edit: the track's new list, the change on the undo stack (redo cleared), the new bout selected. */
function commit(state: MarkingState, track: string, next: Range[], change: RangeChange, select: Range | null) {
  const edit = { track, change };
  const undo = [...state.undo, edit];
  if (undo.length > UNDO_LIMIT) undo.shift();
  return {
    state: {
      ...state,
      ranges: { ...state.ranges, [track]: next },
      selected: select ? { track, range: select } : null,
      undo,
      redo: [],
    },
    edit,
  };
}

/** Adds a bout to a track, merging it with the bouts it overlaps. */
export function addBout(state: MarkingState, track: string, bout: Range, trackName: string): Outcome {
  const current = state.ranges[track] ?? [];
  const result = addWithMerge(current, bout);
  const added = result.change.add[0]!;
  if (result.merged === 1 && sameRange(result.change.remove[0]!, added)) {
    // Entirely inside an existing bout: nothing changes.
    return { state: { ...state, selected: { track, range: added } } };
  }
  return {
    ...commit(state, track, result.ranges, result.change, added),
    message: mergeMessage(result.merged, trackName),
  };
}

/** A track's hot key: starts a bout at `frame`, or ends the open one there. */
export function pressTrackKey(
  state: MarkingState,
  track: string,
  frame: number,
  video: VideoFrames,
  trackName: string,
): Outcome {
  const started = state.open[track];
  if (started === undefined) return { state: { ...state, open: { ...state.open, [track]: frame } } };
  const { [track]: _, ...open } = state.open;
  return addBout({ ...state, open }, track, boutFromFrames(started, frame, video), trackName);
}

/** Forgets bouts started by a key and not ended (Escape). */
export const cancelOpen = (state: MarkingState): MarkingState => ({ ...state, open: {} });

/** A bout drawn by dragging from `from` to `to` (seconds, snapped to frames). */
export function drawBout(
  state: MarkingState,
  track: string,
  from: number,
  to: number,
  video: VideoFrames,
  trackName: string,
): Outcome {
  return addBout(state, track, boutFromTimes(from, to, video), trackName);
}

/**
 * Where an edge being dragged lands: snapped to a frame, inside the video, and at least one frame from the other
 * edge. Shown while dragging (the video seeks to it), committed on release by `moveEdge`.
 */
export function edgeTarget(bout: Range, edge: 'start' | 'end', time: number, video: VideoFrames): Range {
  // Frame numbers, divided by fps only at the end: n / fps is the one spelling of a frame's time everywhere.
  const target = Math.round(Math.min(Math.max(time, 0), video.end) * video.fps);
  if (edge === 'start') {
    const endFrame = Math.round(bout[1] * video.fps);
    return [Math.min(target, endFrame - 1) / video.fps, bout[1]];
  }
  const startFrame = Math.round(bout[0] * video.fps);
  return [bout[0], Math.max(target, startFrame + 1) / video.fps];
}

/** Moves one edge of a bout; the moved bout merges with any it now overlaps. */
export function moveEdge(
  state: MarkingState,
  track: string,
  bout: Range,
  edge: 'start' | 'end',
  time: number,
  video: VideoFrames,
  trackName: string,
): Outcome {
  const current = state.ranges[track] ?? [];
  const target = edgeTarget(bout, edge, time, video);
  if (sameRange(target, bout)) return { state };
  const without = removeRange(current, bout);
  if (without.length === current.length) return { state, message: 'That bout is no longer there.' };
  const result = addWithMerge(without, target);
  const change = { remove: [bout, ...result.change.remove], add: result.change.add };
  return {
    ...commit(state, track, result.ranges, change, result.change.add[0]!),
    message: mergeMessage(result.merged, trackName),
  };
}

export const select = (state: MarkingState, selection: Selection | null): MarkingState => ({
  ...state,
  selected: selection,
});

/** Delete/Backspace: removes the selected bout. */
export function deleteSelected(state: MarkingState): Outcome {
  const selection = state.selected;
  if (!selection) return { state };
  const current = state.ranges[selection.track] ?? [];
  const next = removeRange(current, selection.range);
  if (next.length === current.length) return { state: { ...state, selected: null } };
  return commit(state, selection.track, next, { remove: [selection.range], add: [] }, null);
}

/** Applies `change` to the track as it is now; answers the edit actually made (possibly less, possibly nothing). */
function replay(state: MarkingState, track: string, change: RangeChange) {
  const current = state.ranges[track] ?? [];
  const next = applyChange(current, change);
  return { next, made: diffRanges(current, next) };
}

export function undo(state: MarkingState): Outcome {
  const last = state.undo.at(-1);
  if (!last) return { state, message: 'Nothing to undo.' };
  const { next, made } = replay(state, last.track, invertChange(last.change));
  const nextState: MarkingState = {
    ...state,
    ranges: { ...state.ranges, [last.track]: next },
    selected: null,
    undo: state.undo.slice(0, -1),
    redo: [...state.redo, last],
  };
  return isEmptyChange(made) ? { state: nextState } : { state: nextState, edit: { track: last.track, change: made } };
}

export function redo(state: MarkingState): Outcome {
  const last = state.redo.at(-1);
  if (!last) return { state, message: 'Nothing to redo.' };
  const { next, made } = replay(state, last.track, last.change);
  const nextState: MarkingState = {
    ...state,
    ranges: { ...state.ranges, [last.track]: next },
    selected: null,
    undo: [...state.undo, last],
    redo: state.redo.slice(0, -1),
  };
  return isEmptyChange(made) ? { state: nextState } : { state: nextState, edit: { track: last.track, change: made } };
}

/**
 * The track as the server has it now, with the edits not yet saved applied on top (after a 409, or a reload with
 * unsaved work). The undo history stays: undoing re-applies what is still possible.
 */
export function rebaseTrack(
  state: MarkingState,
  track: string,
  serverRanges: readonly Range[],
  pending: readonly RangeChange[],
): MarkingState {
  let ranges = serverRanges.slice();
  for (const change of pending) ranges = applyChange(ranges, change);
  const selected =
    state.selected?.track === track && !ranges.some((r) => sameRange(r, state.selected!.range)) ? null : state.selected;
  return { ...state, ranges: { ...state.ranges, [track]: ranges }, selected };
}

/**
 * A list already saved another way (a CSV import): shown at once and undoable like any edit. Answers no edit to
 * save, since the server has it already; undoing it saves the change back.
 */
export function recordSaved(state: MarkingState, track: string, ranges: Range[]): MarkingState {
  const change = diffRanges(state.ranges[track] ?? [], ranges);
  if (isEmptyChange(change)) return state;
  return commit(state, track, ranges, change, null).state;
}

/** A track deleted: its bouts, open bout and history go with it. */
export function dropTrack(state: MarkingState, track: string): MarkingState {
  const { [track]: _ranges, ...ranges } = state.ranges;
  const { [track]: _open, ...open } = state.open;
  return {
    ranges,
    open,
    selected: state.selected?.track === track ? null : state.selected,
    undo: state.undo.filter((edit) => edit.track !== track),
    redo: state.redo.filter((edit) => edit.track !== track),
  };
}
