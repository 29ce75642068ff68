import { describe, expect, it } from 'vitest';
import { uncertainFirst } from './hooks/use-suggestions';
import { applyToList, changeOf, checkAction, EventList, inverseOf, type ReviewEvent } from './review-events';
import { acceptableAt, type Suggestion } from './suggestion-actions';

const ME = { id: 1, display_name: 'Ada' };
const suggested = (discard: boolean, label: string | null, confidence: number): Suggestion => ({
  discard,
  label,
  confidence,
  model_version: 3,
});
const event = (id: number, suggestion: Suggestion | null, extra: Partial<ReviewEvent> = {}): ReviewEvent => ({
  id,
  time: id,
  original_time: id,
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
  suggestion,
  accepted_suggestion: null,
  ...extra,
});

describe('accepting suggestions in Quick Score', () => {
  it('accepts one: the event takes the suggestion, is reviewed by me, and Ctrl+Z puts it back', () => {
    const list = new EventList([event(1, suggested(false, 'twitch', 0.93)), event(2, suggested(true, null, 0.97))]);
    const accept = { kind: 'accept' as const, id: 1, at: 1, suggestion: list.get(1)!.suggestion!, bar: 0.9 };
    expect(changeOf(accept)).toEqual({ action: 'accept_suggestion', id: 1, model_version: 3, min_precision: 0.9 });
    applyToList(list, accept, ME, 'now');
    const taken = list.get(1)!;
    expect(taken).toMatchObject({ label: 'twitch', discarded: false, suggestion: null, reviewed_by: ME });
    expect(taken.accepted_suggestion).toMatchObject({ label: 'twitch', in_bulk: false, accepted_by: ME });
    expect(list.reviewed).toBe(1);
    expect(inverseOf(accept, taken)).toEqual({ kind: 'label', id: 1, at: 1, label: null, before: 'twitch' });
    // Already accepted on the server (a lost answer): done; decided by someone else first: refused with a sentence.
    expect(checkAction(accept, list, 0.01)).toEqual({ result: 'done' });
    const other = new EventList([event(1, null, { reviewed_at: 'x', reviewed_by: { id: 2, display_name: 'Bo' } })]);
    expect(checkAction(accept, other, 0.01)).toMatchObject({
      result: 'conflict',
      message: expect.stringContaining('Bo'),
    });
  });

  it('accepts all ≥ p: only undecided events that confident, in bulk, not counted as reviewed', () => {
    const list = new EventList([
      event(1, suggested(true, null, 0.97)),
      event(2, suggested(false, 'twitch', 0.85)),
      event(3, suggested(false, null, 0.99), { reviewed_at: 'x', reviewed_by: ME }),
      event(4, null),
    ]);
    const taken = acceptableAt(list.all(), 0.9).map((e) => e.id);
    expect(taken).toEqual([1]);
    const all = {
      kind: 'accept-all' as const,
      id: 0 as const,
      at: 0 as const,
      minConfidence: 0.9,
      modelVersion: 3,
      bar: 0.9,
      ids: taken,
    };
    expect(changeOf(all)).toEqual({
      action: 'accept_suggestions',
      min_confidence: 0.9,
      model_version: 3,
      min_precision: 0.9,
    });
    applyToList(list, all, ME, 'now');
    expect(list.get(1)).toMatchObject({ discarded: true, reviewed_at: null, accepted_suggestion: { in_bulk: true } });
    expect(list.reviewed).toBe(1);
    expect(list.acceptedUnseen).toBe(1);
    // U skips decided events: 2 and 4 are left.
    expect(list.nextUnreviewed(0)).toBe(1);
    expect(inverseOf(all, list.get(1))).toBeNull();
  });

  it('orders uncertain first: no suggestion, then least confident, decided events left out', () => {
    const events = [
      event(1, suggested(true, null, 0.97)),
      event(2, suggested(false, 'twitch', 0.61)),
      event(3, null),
      event(4, suggested(false, null, 0.99), { reviewed_at: 'x' }),
      event(5, suggested(true, null, 0.61)),
    ];
    expect(uncertainFirst(events)).toEqual([3, 2, 5, 1]);
  });
});
