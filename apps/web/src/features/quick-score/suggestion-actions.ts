/**
 * Accepting suggestions in Quick Score (ADR 038), as review-events.ts treats every other action: what it does to the
 * events at once, what is sent, how to undo it, and whether it still makes sense after someone else saved. Accepting
 * one (its key) is the reviewer's decision on the event they are looking at; "accept all ≥ p" accepts events nobody
 * looked at, so it leaves them without a reviewer. Pure: no React, no HTTP.
 */
import type { AnalysisEvent, EventChange } from '@/features/analysis/api';
import { countOf, formatTime } from '@/lib/format';

type Event = AnalysisEvent;
export type Suggestion = NonNullable<Event['suggestion']>;
type Person = { id: number; display_name: string };

export type SuggestionAction =
  /** The suggestion of the event shown, accepted by its key; `bar` is the precision bar it was shown at. */
  | { kind: 'accept'; id: number; at: number; suggestion: Suggestion; bar: number }
  /**
   * Every suggestion with at least `minConfidence`, of model `modelVersion` at the bar: `ids` are the events the page
   * showed them on (the server decides again, on the same rule). `id` 0 names no event.
   */
  | { kind: 'accept-all'; id: 0; at: 0; minConfidence: number; modelVersion: number; bar: number; ids: number[] };

export const isSuggestionAction = (action: { kind: string }): action is SuggestionAction =>
  action.kind === 'accept' || action.kind === 'accept-all';

/** Nobody decided on the event yet: no reviewer, no accepted suggestion (what suggestions are shown on). */
export const undecided = (event: Event) => !event.reviewed_at && !event.accepted_suggestion;

/** The events "accept all ≥ p" takes: undecided ones whose suggestion's confidence is at least p. */
export function acceptableAt(events: readonly Event[], minConfidence: number): Event[] {
  return events.filter((event) => undecided(event) && (event.suggestion?.confidence ?? -1) >= minConfidence);
}

export function suggestionChange(action: SuggestionAction): EventChange {
  return action.kind === 'accept'
    ? {
        action: 'accept_suggestion',
        id: action.id,
        model_version: action.suggestion.model_version,
        min_precision: action.bar,
      }
    : {
        action: 'accept_suggestions',
        min_confidence: action.minConfidence,
        model_version: action.modelVersion,
        min_precision: action.bar,
      };
}

/** The event with `suggestion` accepted (by `by`, at `now`), as the server stamps it. */
function accepted(event: Event, suggestion: Suggestion, by: Person, now: string, inBulk: boolean): Event {
  const looked = inBulk
    ? {}
    : {
        reviewed_by: event.reviewed_by ?? by,
        reviewed_at: event.reviewed_at ?? now,
        last_viewed_by: by,
        last_viewed_at: now,
      };
  return {
    ...event,
    discarded: suggestion.discard,
    label: suggestion.discard ? event.label : suggestion.label,
    updated_by: by,
    updated_at: now,
    ...looked,
    suggestion: null,
    accepted_suggestion: { ...suggestion, accepted_by: by, accepted_at: now, in_bulk: inBulk },
  };
}

/** Applies the action through the list's own accessors: one event, or every event "accept all" named. */
export function applySuggestion(
  list: { get(id: number): Event | undefined; set(event: Event): void },
  action: SuggestionAction,
  by: Person,
  now: string,
) {
  if (action.kind === 'accept') {
    const event = list.get(action.id);
    if (event) list.set(accepted(event, action.suggestion, by, now, false));
    return;
  }
  for (const id of action.ids) {
    const event = list.get(id);
    if (event?.suggestion && undecided(event) && event.suggestion.confidence >= action.minConfidence) {
      list.set(accepted(event, event.suggestion, by, now, true));
    }
  }
}

/**
 * What undoes an accepted suggestion on an event as detected: restoring it, or its label back; null when accepting
 * changed nothing (keep, no label). "Accept all" is not undone by Ctrl+Z (its events can each be changed).
 */
export function undoSuggestion(action: SuggestionAction, event: Event) {
  if (action.kind !== 'accept') return null;
  if (action.suggestion.discard) return { kind: 'restore' as const, id: action.id, at: event.time };
  // An event nobody decided on has the detection's label: none.
  if (action.suggestion.label === null) return null;
  return { kind: 'label' as const, id: action.id, at: event.time, label: null, before: event.label ?? null };
}

/** Whether an acceptance still makes sense on the server's events (after someone else saved). */
export function checkSuggestion(
  action: SuggestionAction,
  current: { get(id: number): Event | undefined },
): { result: 'apply' } | { result: 'done' } | { result: 'conflict'; message: string } {
  if (action.kind === 'accept-all') return { result: 'apply' };
  const event = current.get(action.id);
  if (!event) {
    return {
      result: 'conflict',
      message: `Someone deleted the event at ${formatTime(action.at)}; its suggestion was not accepted.`,
    };
  }
  if (event.accepted_suggestion && event.accepted_suggestion.model_version === action.suggestion.model_version) {
    return { result: 'done' };
  }
  if (!undecided(event)) {
    const who = event.reviewed_by?.display_name ?? event.accepted_suggestion?.accepted_by?.display_name ?? 'Someone';
    return {
      result: 'conflict',
      message: `${who} decided on the event at ${formatTime(event.time)} first; its suggestion was not accepted.`,
    };
  }
  return { result: 'apply' };
}

/** A sentence for the action: "Event at 12.367 s: suggestion accepted", "108 suggestions accepted". */
export function describeSuggestion(action: SuggestionAction): string {
  return action.kind === 'accept'
    ? `Event at ${formatTime(action.at)}: suggestion accepted`
    : `${countOf(action.ids.length, 'suggestion')} accepted`;
}

/** How a suggestion reads: "Discard", "Keep · twitch", "Keep, no label". */
export function suggestionText(suggestion: Pick<Suggestion, 'discard' | 'label'>): string {
  if (suggestion.discard) return 'Discard';
  return suggestion.label ? `Keep · ${suggestion.label}` : 'Keep, no label';
}
