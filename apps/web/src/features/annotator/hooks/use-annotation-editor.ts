import { useCallback, useMemo, useRef, useState } from 'react';
import type { Range } from '../bouts';
import {
  cancelOpen,
  createMarking,
  deleteSelected,
  drawBout,
  dropTrack,
  type Edit,
  type MarkingState,
  moveEdge,
  type Outcome,
  pressTrackKey,
  rebaseTrack,
  recordSaved,
  redo,
  type Selection,
  select,
  undo,
  type VideoFrames,
} from '../marking';

export interface EditorTrack {
  id: string;
  name: string;
}

const nameIn = (tracks: readonly EditorTrack[], id: string) => tracks.find((t) => t.id === id)?.name ?? 'this track';

/**
 * The marking state of the page, with the rules of `marking.ts`: every action updates what is shown at once and
 * hands its change to `onEdit` (the save queue); messages (a merge, nothing to undo) go to `notify`.
 */
export function useAnnotationEditor(options: {
  tracks: readonly EditorTrack[];
  video: VideoFrames;
  onEdit: (edit: Edit, trackName: string) => void;
  notify: (message: string) => void;
}) {
  const [state, setState] = useState<MarkingState>(() => createMarking());
  const stateRef = useRef(state);
  const live = useRef(options);
  live.current = options;

  /** Runs a rule on the latest state (key presses may come faster than renders). */
  const run = useCallback((rule: (current: MarkingState) => Outcome | MarkingState) => {
    const result = rule(stateRef.current);
    const outcome: Outcome = 'state' in result ? result : { state: result };
    stateRef.current = outcome.state;
    setState(outcome.state);
    if (outcome.edit) live.current.onEdit(outcome.edit, nameIn(live.current.tracks, outcome.edit.track));
    if (outcome.message) live.current.notify(outcome.message);
    return outcome;
  }, []);

  const actions = useMemo(
    () => ({
      /** A track's hot key at `frame`: starts or ends its bout. */
      pressKey: (track: string, frame: number) =>
        run((s) => pressTrackKey(s, track, frame, live.current.video, nameIn(live.current.tracks, track))),
      draw: (track: string, from: number, to: number) =>
        run((s) => drawBout(s, track, from, to, live.current.video, nameIn(live.current.tracks, track))),
      moveEdge: (track: string, bout: Range, edge: 'start' | 'end', time: number) =>
        run((s) => moveEdge(s, track, bout, edge, time, live.current.video, nameIn(live.current.tracks, track))),
      select: (selection: Selection | null) => run((s) => select(s, selection)),
      deleteSelected: () => run(deleteSelected),
      undo: () => run(undo),
      redo: () => run(redo),
      cancel: () => run((s) => select(cancelOpen(s), null)),
      /** The server's list for a track, with the edits not yet saved on top. */
      rebase: (track: string, ranges: Range[]) => run((s) => rebaseTrack(s, track, ranges, [])),
      /** A list the server already has (an import): shown, and undoable. */
      recordSaved: (track: string, ranges: Range[]) => run((s) => recordSaved(s, track, ranges)),
      dropTrack: (track: string) => run((s) => dropTrack(s, track)),
    }),
    [run],
  );

  return { state, stateRef, ...actions };
}
