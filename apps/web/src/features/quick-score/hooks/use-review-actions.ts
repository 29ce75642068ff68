import { useCallback, useReducer, useRef } from 'react';
import type { ActionQueue } from '../action-queue';
import { type EventList, inverseOf, type ReviewAction, withId } from '../review-events';

/**
 * Undo and redo over the actions this page took: undo queues the opposite action (made from the event as it is
 * now), redo takes the action again. Both are ordinary actions, saved like any other.
 */
export function useUndoRedo(queue: ActionQueue | null, events: EventList | null) {
  const done = useRef<ReviewAction[]>([]);
  const undone = useRef<ReviewAction[]>([]);
  const [, changed] = useReducer((n: number) => n + 1, 0);

  /** Takes a new action: it can be undone, and nothing undone can be redone any more. */
  const perform = useCallback(
    (action: ReviewAction) => {
      if (!queue) return;
      queue.enqueue(action);
      done.current.push(action);
      undone.current = [];
      changed();
    },
    [queue],
  );

  /** Undoes the last action; answers the action it queued (null when nothing could be undone). */
  const undo = useCallback((): ReviewAction | null => {
    if (!queue || !events) return null;
    for (;;) {
      const last = done.current.pop();
      if (!last) return null;
      const inverse = inverseOf(last, events.get(last.id));
      // An event deleted meanwhile cannot be changed back: skip to the action before.
      if (!inverse) continue;
      queue.enqueue(inverse);
      undone.current.push(last);
      changed();
      return inverse;
    }
  }, [queue, events]);

  /** Takes the last undone action again; answers the action queued. */
  const redo = useCallback((): ReviewAction | null => {
    if (!queue || !events) return null;
    const last = undone.current.pop();
    if (!last) return null;
    const event = events.get(last.id);
    let again: ReviewAction | null = null;
    if (last.kind === 'add') again = { ...last, id: queue.newTemporaryId() };
    else if (!event) again = null;
    else if (last.kind === 'label') again = { ...last, at: event.time, before: event.label ?? null };
    else if (last.kind === 'move') again = { ...last, before: event.time };
    else again = last;
    if (again) {
      queue.enqueue(again);
      done.current.push(again);
    }
    changed();
    return again;
  }, [queue, events]);

  /** A temporary id got its server id: the stacks follow. */
  const renumber = useCallback((temporary: number, id: number) => {
    done.current = done.current.map((action) => withId(action, temporary, id));
    undone.current = undone.current.map((action) => withId(action, temporary, id));
  }, []);

  return {
    perform,
    undo,
    redo,
    renumber,
    canUndo: done.current.length > 0,
    canRedo: undone.current.length > 0,
  };
}
