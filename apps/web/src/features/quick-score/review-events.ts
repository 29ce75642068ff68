/**
 * Quick Score's events in the browser, and what a reviewer's action means for them: how it changes an event at once
 * (before the server has answered), what is sent, how to undo it, and — when someone else saved first — whether it
 * still makes sense on top of their change. Pure: no React, no HTTP.
 */

import type { AnalysisEvent, EventChange } from '@/features/analysis/api';
import { formatTime } from '@/lib/format';
import {
  applySuggestion,
  checkSuggestion,
  describeSuggestion,
  isSuggestionAction,
  type SuggestionAction,
  suggestionChange,
  undecided,
  undoSuggestion,
} from './suggestion-actions';

export type ReviewEvent = AnalysisEvent;
export interface Reviewer {
  id: number;
  display_name: string;
}

/**
 * A reviewer's action on the run, as the queue keeps it until the server has it. `at` is the event's time when the
 * action was taken (for messages about an event that has since moved or gone); `before` the value it replaced.
 */
export type ReviewAction =
  | { kind: 'discard' | 'restore' | 'flag' | 'unflag'; id: number; at: number }
  | { kind: 'label'; id: number; at: number; label: string | null; before: string | null }
  | { kind: 'move'; id: number; time: number; before: number }
  /** `id` is a temporary, negative id until the server gives the event its own. */
  | { kind: 'add'; id: number; time: number; label: string | null }
  | { kind: 'delete'; id: number; at: number }
  /** Moving past an event: a mark, not a change of its data. */
  | { kind: 'review'; id: number; at: number }
  | SuggestionAction;

const byTime = (a: ReviewEvent, b: ReviewEvent) => a.time - b.time || a.id - b.id;

/**
 * A run's events in time order with an index by id and the counts of reviewed ones and of those accepted in bulk,
 * changed in place: one event's change costs O(1) (a move or an add, one binary search and one splice), never a pass
 * over every event.
 */
export class EventList {
  private readonly order: ReviewEvent[];
  private readonly byId = new Map<number, ReviewEvent>();
  private reviewedCount = 0;
  /** Accepted by "accept all ≥ p" and not looked at since. */
  private unseenCount = 0;

  constructor(events: readonly ReviewEvent[] = []) {
    this.order = [...events].sort(byTime);
    for (const event of this.order) {
      this.byId.set(event.id, event);
      this.count(event, 1);
    }
  }

  private count(event: ReviewEvent, sign: 1 | -1) {
    if (event.reviewed_at) this.reviewedCount += sign;
    else if (event.accepted_suggestion) this.unseenCount += sign;
  }

  get size(): number {
    return this.order.length;
  }
  get reviewed(): number {
    return this.reviewedCount;
  }
  /** Events decided by a suggestion accepted in bulk that nobody has looked at. */
  get acceptedUnseen(): number {
    return this.unseenCount;
  }
  at(index: number): ReviewEvent | undefined {
    return this.order[index];
  }
  get(id: number): ReviewEvent | undefined {
    return this.byId.get(id);
  }
  all(): readonly ReviewEvent[] {
    return this.order;
  }
  clone(): EventList {
    return new EventList(this.order);
  }

  /** The event's position in time order, or -1. */
  indexOf(id: number): number {
    const event = this.byId.get(id);
    if (!event) return -1;
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (byTime(this.order[mid]!, event) < 0) lo = mid + 1;
      else hi = mid;
    }
    return this.order[lo]?.id === id ? lo : -1;
  }

  /** Index of the first event at or after `time`. */
  firstAtOrAfter(time: number): number {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.order[mid]!.time < time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The events with from ≤ time ≤ to (a chart window): two binary searches and a slice. */
  between(from: number, to: number): ReviewEvent[] {
    const start = this.firstAtOrAfter(from);
    let end = start;
    while (end < this.order.length && this.order[end]!.time <= to) end++;
    return this.order.slice(start, end);
  }

  /** An event within half a frame of `time` (the server's rule for adds), other than `except`. */
  occupiedAt(time: number, halfFrame: number, except?: number): ReviewEvent | undefined {
    for (let i = this.firstAtOrAfter(time - halfFrame); i < this.order.length; i++) {
      const event = this.order[i]!;
      if (event.time >= time + halfFrame) return undefined;
      if (event.id !== except && Math.abs(event.time - time) < halfFrame) return event;
    }
    return undefined;
  }

  /** The first event nobody decided on after index `from`, wrapping round; -1 when all are decided. */
  nextUnreviewed(from: number): number {
    if (this.reviewedCount + this.unseenCount >= this.order.length) return -1;
    const n = this.order.length;
    for (let step = 1; step <= n; step++) {
      const index = (from + step) % n;
      if (undecided(this.order[index]!)) return index;
    }
    return -1;
  }

  /** Puts `event` in (replacing the event with its id), keeping the time order. */
  set(event: ReviewEvent) {
    const old = this.byId.get(event.id);
    if (old) {
      const index = this.indexOf(old.id);
      this.count(old, -1);
      if (old.time === event.time) this.order[index] = event;
      else {
        this.order.splice(index, 1);
        this.insertSorted(event);
      }
    } else this.insertSorted(event);
    this.byId.set(event.id, event);
    this.count(event, 1);
  }

  remove(id: number) {
    const old = this.byId.get(id);
    if (!old) return;
    this.order.splice(this.indexOf(id), 1);
    this.byId.delete(id);
    this.count(old, -1);
  }

  private insertSorted(event: ReviewEvent) {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (byTime(this.order[mid]!, event) < 0) lo = mid + 1;
      else hi = mid;
    }
    this.order.splice(lo, 0, event);
  }
}

/** The action with its event's id replaced (a temporary id that the server has now numbered). */
export function withId(action: ReviewAction, from: number, to: number): ReviewAction {
  if (action.kind === 'accept-all') return action;
  return action.id === from ? { ...action, id: to } : action;
}

/** What the server is sent for this action. */
export function changeOf(action: ReviewAction): EventChange {
  if (isSuggestionAction(action)) return suggestionChange(action);
  switch (action.kind) {
    case 'add':
      return { action: 'add', time: action.time, label: action.label };
    case 'label':
      return { action: 'label', id: action.id, label: action.label };
    case 'move':
      return { action: 'move', id: action.id, time: action.time };
    default:
      return { action: action.kind, id: action.id };
  }
}

/** The event as it is once the action is applied (the server stamps the same fields when it saves). */
export function applyAction(
  event: ReviewEvent | undefined,
  action: Exclude<ReviewAction, SuggestionAction>,
  by: Reviewer,
  now: string,
): ReviewEvent | null {
  // The first decision keeps its author (ADR 014); every action is the last look.
  const reviewed = {
    reviewed_by: event?.reviewed_by ?? by,
    reviewed_at: event?.reviewed_at ?? now,
    last_viewed_by: by,
    last_viewed_at: now,
  };
  const changed = { updated_by: by, updated_at: now, ...reviewed };
  if (action.kind === 'add') {
    return {
      id: action.id,
      time: action.time,
      original_time: null,
      label: action.label,
      flagged: false,
      discarded: false,
      resolved_by: null,
      resolved_at: null,
      suggestion: null,
      accepted_suggestion: null,
      ...changed,
    };
  }
  if (!event) return null;
  switch (action.kind) {
    case 'discard':
    case 'restore':
      return { ...event, discarded: action.kind === 'discard', ...changed };
    case 'flag':
    case 'unflag':
      return { ...event, flagged: action.kind === 'flag', ...changed };
    case 'label':
      return { ...event, label: action.label, ...changed };
    case 'move':
      return { ...event, time: action.time, ...changed };
    case 'review':
      return { ...event, ...reviewed };
    case 'delete':
      return null;
  }
}

/** Applies an action to a list in place. */
export function applyToList(list: EventList, action: ReviewAction, by: Reviewer, now: string) {
  if (isSuggestionAction(action)) {
    applySuggestion(list, action, by, now);
    return;
  }
  const next = applyAction(list.get(action.id), action, by, now);
  if (next) list.set(next);
  else list.remove(action.id);
}

/**
 * The action that undoes `action`, given the event as it is now; null when there is nothing to undo (a mark, or
 * an event that is gone). Undoing an add removes the event; redoing that is the add again.
 */
export function inverseOf(action: ReviewAction, event: ReviewEvent | undefined): ReviewAction | null {
  if (!event || action.kind === 'review' || action.kind === 'delete') return null;
  if (isSuggestionAction(action)) return undoSuggestion(action, event);
  const at = event.time;
  switch (action.kind) {
    case 'discard':
      return { kind: 'restore', id: action.id, at };
    case 'restore':
      return { kind: 'discard', id: action.id, at };
    case 'flag':
      return { kind: 'unflag', id: action.id, at };
    case 'unflag':
      return { kind: 'flag', id: action.id, at };
    case 'label':
      return { kind: 'label', id: action.id, at, label: action.before, before: event.label ?? null };
    case 'move':
      return { kind: 'move', id: action.id, time: action.before, before: event.time };
    case 'add':
      return { kind: 'delete', id: action.id, at };
  }
}

const seconds = formatTime;

/** Where the action happened: the event's time when it was taken (an add's or a move's new time). */
export function actionTime(action: Exclude<ReviewAction, SuggestionAction>): number {
  return action.kind === 'add' || action.kind === 'move' ? action.time : action.at;
}
const quoted = (label: string | null) => (label ? `“${label}”` : 'no label');
const who = (event: ReviewEvent | undefined) => event?.updated_by?.display_name ?? 'Someone';

/** What the action does to its event, as a past participle: "discarded", "labelled “paw”", "moved to 2.100 s". */
function whatItDid(action: Exclude<ReviewAction, SuggestionAction>): string {
  switch (action.kind) {
    case 'discard':
      return 'discarded';
    case 'restore':
      return 'restored';
    case 'flag':
      return 'flagged';
    case 'unflag':
      return 'unflagged';
    case 'label':
      return `labelled ${quoted(action.label)}`;
    case 'move':
      return `moved from ${seconds(action.before)} to ${seconds(action.time)}`;
    case 'add':
      return 'added';
    case 'delete':
      return 'removed';
    case 'review':
      return 'reviewed';
  }
}

/** A sentence for the action, for undo/redo and messages: "Event at 12.367 s discarded". */
export function describeAction(action: ReviewAction): string {
  if (isSuggestionAction(action)) return describeSuggestion(action);
  const where = action.kind === 'move' ? action.before : actionTime(action);
  return `Event at ${seconds(where)} ${whatItDid(action)}`;
}

/** Whether an action still makes sense on the server's current events (after someone else saved). */
export type Check = { result: 'apply' } | { result: 'done' } | { result: 'conflict'; message: string };

/**
 * Judges `action` against `current` (the server's events with the earlier queued actions applied). A change whose
 * effect is already there is done; a change made on a value someone else has since changed, or on an event someone
 * deleted, is a conflict, with a sentence saying what changed; anything else is applied again.
 */
export function checkAction(action: ReviewAction, current: EventList, halfFrame: number): Check {
  if (isSuggestionAction(action)) return checkSuggestion(action, current);
  if (action.kind === 'review') return current.get(action.id) ? { result: 'apply' } : { result: 'done' };
  if (action.kind === 'add') {
    const there = current.occupiedAt(action.time, halfFrame, action.id);
    if (!there) return { result: 'apply' };
    // Our own add, saved before the answer was lost: the same hand-added event is there.
    if (there.original_time === null && (there.label ?? null) === action.label && there.time === action.time) {
      return { result: 'done' };
    }
    return {
      result: 'conflict',
      message: `${who(there)} put an event at ${seconds(there.time)}, so yours at ${seconds(action.time)} was not added.`,
    };
  }
  const event = current.get(action.id);
  if (action.kind === 'delete') return event ? { result: 'apply' } : { result: 'done' };
  if (!event) {
    return {
      result: 'conflict',
      message: `Someone deleted the event at ${seconds(action.kind === 'move' ? action.before : action.at)}, so it was not ${whatItDid(action)}.`,
    };
  }
  switch (action.kind) {
    case 'discard':
    case 'restore':
      return event.discarded === (action.kind === 'discard') ? { result: 'done' } : { result: 'apply' };
    case 'flag':
    case 'unflag':
      return event.flagged === (action.kind === 'flag') ? { result: 'done' } : { result: 'apply' };
    case 'label':
      if ((event.label ?? null) === action.label) return { result: 'done' };
      if ((event.label ?? null) === action.before) return { result: 'apply' };
      return {
        result: 'conflict',
        message: `${who(event)} labelled the event at ${seconds(event.time)} ${quoted(event.label)}; your label ${quoted(action.label)} was not saved.`,
      };
    case 'move':
      if (event.time === action.time) return { result: 'done' };
      if (event.time === action.before) return { result: 'apply' };
      return {
        result: 'conflict',
        message: `${who(event)} moved the event from ${seconds(action.before)} to ${seconds(event.time)}; your move to ${seconds(action.time)} was not saved.`,
      };
  }
}
