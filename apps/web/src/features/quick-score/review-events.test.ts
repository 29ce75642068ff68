import { describe, expect, it } from 'vitest';
import {
  applyToList,
  checkAction,
  describeAction,
  EventList,
  inverseOf,
  type ReviewEvent,
  type Reviewer,
} from './review-events';

const ME: Reviewer = { id: 1, display_name: 'Ada' };
const event = (id: number, time: number, extra: Partial<ReviewEvent> = {}): ReviewEvent => ({
  id,
  time,
  original_time: time,
  label: null,
  flagged: false,
  discarded: false,
  updated_by: null,
  updated_at: null,
  reviewed_by: null,
  reviewed_at: null,
  last_viewed_by: null,
  last_viewed_at: null,
  resolved_by: null,
  resolved_at: null,
  suggestion: null,
  accepted_suggestion: null,
  ...extra,
});

describe('EventList', () => {
  it('keeps time order through moves, adds and removals, with positions and the reviewed count', () => {
    const list = new EventList([event(3, 3), event(1, 1), event(2, 2, { reviewed_at: 'x' })]);
    expect(list.all().map((e) => e.id)).toEqual([1, 2, 3]);
    expect(list.reviewed).toBe(1);
    applyToList(list, { kind: 'move', id: 1, time: 2.5, before: 1 }, ME, 'now');
    expect(list.all().map((e) => e.id)).toEqual([2, 1, 3]);
    expect(list.indexOf(1)).toBe(1);
    expect(list.reviewed).toBe(2);
    applyToList(list, { kind: 'add', id: -1, time: 0.5, label: 'paw' }, ME, 'now');
    expect(list.all().map((e) => e.id)).toEqual([-1, 2, 1, 3]);
    applyToList(list, { kind: 'delete', id: 2, at: 2 }, ME, 'now');
    expect(list.all().map((e) => e.id)).toEqual([-1, 1, 3]);
    expect(list.reviewed).toBe(2);
    expect(list.indexOf(2)).toBe(-1);
    // Same time, different ids: ordered by id.
    applyToList(list, { kind: 'move', id: 3, time: 2.5, before: 3 }, ME, 'now');
    expect(list.all().map((e) => e.id)).toEqual([-1, 1, 3]);
    expect(list.indexOf(3)).toBe(2);
  });

  it('finds the events of a window, an occupied frame and the next unreviewed event (wrapping round)', () => {
    const list = new EventList([event(1, 1), event(2, 2, { reviewed_at: 'x' }), event(3, 3), event(4, 4)]);
    expect(list.between(1.5, 3).map((e) => e.id)).toEqual([2, 3]);
    expect(list.between(10, 20)).toEqual([]);
    expect(list.occupiedAt(2.01, 0.5 / 30)?.id).toBe(2);
    expect(list.occupiedAt(2.02, 0.5 / 30)).toBeUndefined();
    expect(list.occupiedAt(2, 0.5 / 30, 2)).toBeUndefined();
    expect(list.nextUnreviewed(0)).toBe(2);
    expect(list.nextUnreviewed(3)).toBe(0);
    for (const id of [1, 3, 4]) applyToList(list, { kind: 'review', id, at: 0 }, ME, 'now');
    expect(list.nextUnreviewed(0)).toBe(-1);
  });
});

describe('actions', () => {
  it('undo is the opposite action, made from the event as it is now', () => {
    const labelled = event(5, 2, { label: 'paw' });
    expect(inverseOf({ kind: 'discard', id: 5, at: 2 }, labelled)).toEqual({ kind: 'restore', id: 5, at: 2 });
    expect(inverseOf({ kind: 'label', id: 5, at: 2, label: 'paw', before: null }, labelled)).toEqual({
      kind: 'label',
      id: 5,
      at: 2,
      label: null,
      before: 'paw',
    });
    expect(inverseOf({ kind: 'move', id: 5, time: 2, before: 1.5 }, labelled)).toEqual({
      kind: 'move',
      id: 5,
      time: 1.5,
      before: 2,
    });
    expect(inverseOf({ kind: 'add', id: -3, time: 2, label: null }, labelled)).toEqual({
      kind: 'delete',
      id: -3,
      at: 2,
    });
    expect(inverseOf({ kind: 'flag', id: 5, at: 2 }, undefined)).toBeNull();
    expect(inverseOf({ kind: 'review', id: 5, at: 2 }, labelled)).toBeNull();
  });

  it('says what an action did', () => {
    expect(describeAction({ kind: 'label', id: 1, at: 12.3666, label: 'left hand', before: null })).toBe(
      'Event at 0:00:12.366 labelled “left hand”',
    );
    expect(describeAction({ kind: 'move', id: 1, time: 2.1, before: 2 })).toBe(
      'Event at 0:00:02.000 moved from 0:00:02.000 to 0:00:02.100',
    );
    expect(describeAction({ kind: 'add', id: -1, time: 4, label: null })).toBe('Event at 0:00:04.000 added');
  });

  it('judges an add against the events there now: free, ours already, or someone else’s', () => {
    const list = new EventList([event(1, 1), event(2, 2, { original_time: null, label: 'paw' })]);
    const half = 0.5 / 30;
    expect(checkAction({ kind: 'add', id: -1, time: 3, label: null }, list, half)).toEqual({ result: 'apply' });
    expect(checkAction({ kind: 'add', id: -1, time: 2, label: 'paw' }, list, half)).toEqual({ result: 'done' });
    expect(checkAction({ kind: 'add', id: -1, time: 1, label: null }, list, half)).toEqual({
      result: 'conflict',
      message: 'Someone put an event at 0:00:01.000, so yours at 0:00:01.000 was not added.',
    });
  });
});
