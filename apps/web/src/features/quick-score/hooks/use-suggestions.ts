import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AnalysisRun } from '@/features/analysis/api';
import { type ModelKind, suggestionQueries } from '@/features/suggestions/api';
import { readJson, writeStorage } from '@/lib/storage';
import type { ActionQueue } from '../action-queue';
import type { EventList, ReviewEvent } from '../review-events';
import { acceptableAt, undecided } from '../suggestion-actions';

/** The precision bars offered; 0.9 is the default. */
export const BAR_CHOICES = [0.8, 0.85, 0.9, 0.95, 0.99] as const;
export const DEFAULT_BAR = 0.9;
/** The confidences "accept all ≥ p" offers. */
export const CONFIDENCE_CHOICES = [0.8, 0.9, 0.95, 0.99] as const;

const barKey = (userId: number) => `quick-score-suggestion-bar:${userId}`;

/** The reader's precision bar, kept in this browser per user: how far they trust suggestions is theirs. */
export function usePrecisionBar(userId: number): [number, (bar: number) => void] {
  const [bar, setBar] = useState(() => {
    const stored = readJson<number>(barKey(userId));
    return typeof stored === 'number' && stored >= 0.5 && stored <= 1 ? stored : DEFAULT_BAR;
  });
  const change = useCallback(
    (next: number) => {
      setBar(next);
      writeStorage(barKey(userId), JSON.stringify(next));
    },
    [userId],
  );
  return [bar, change];
}

/**
 * The events nobody decided on, least confident first (those with no suggestion at all before any: nothing vouches
 * for them), then by time. A snapshot: deciding on an event does not move the rest.
 */
export function uncertainFirst(events: readonly ReviewEvent[]): number[] {
  return events
    .filter(undecided)
    .map((event) => ({ id: event.id, time: event.time, confidence: event.suggestion?.confidence ?? -1 }))
    .sort((a, b) => a.confidence - b.confidence || a.time - b.time)
    .map((event) => event.id);
}

/**
 * Quick Score's suggestions (ADR 038): the run's model and the reader's bar, the review order (in time, or uncertain
 * first), and accepting. The run's model is followed while it trains; a new version reloads the events, so their
 * suggestions come from it.
 */
export function useSuggestions({
  run,
  queue,
  events,
  enabled,
}: {
  run: AnalysisRun;
  queue: ActionQueue | null;
  events: EventList | null;
  /** Off for a blind scoring: suggestions learn from the consensus. */
  enabled: boolean;
}) {
  const scope = {
    projectUuid: run.project_uuid,
    kind: run.kind as ModelKind,
    protocolUuid: run.protocol_uuid,
  };
  const model = useQuery({ ...suggestionQueries.model(scope), enabled: enabled && run.kind !== 'location_tracking' });
  const version = model.data?.version ?? null;
  const seenVersion = useRef(version);
  useEffect(() => {
    if (version !== null && seenVersion.current !== null && version !== seenVersion.current) queue?.refresh();
    seenVersion.current = version;
  }, [version, queue]);

  const [order, setOrder] = useState<number[] | null>(null);
  /** Switches between time order and uncertain first; answers the new order (null: in time). */
  const toggleOrder = useCallback((): number[] | null => {
    const next = order || !events ? null : uncertainFirst(events.all());
    setOrder(next);
    return next;
  }, [events, order]);

  /** The index after (or before) `index` in the review order; -1 when there is none. */
  const step = useCallback(
    (index: number, direction: 1 | -1): number => {
      if (!events) return -1;
      if (!order) {
        const next = index + direction;
        return next >= 0 && next < events.size ? next : -1;
      }
      const id = events.at(index)?.id;
      let at = id === undefined ? -1 : order.indexOf(id);
      if (at < 0 && direction === -1) return -1;
      for (at += direction; at >= 0 && at < order.length; at += direction) {
        const found = events.indexOf(order[at]!);
        if (found >= 0) return found;
      }
      return -1;
    },
    [events, order],
  );

  /** The next event nobody decided on, in the review order; -1 when none is left. */
  const nextUndecided = useCallback(
    (index: number): number => {
      if (!events) return -1;
      if (!order) return events.nextUnreviewed(index);
      for (let at = step(index, 1); at >= 0; at = step(at, 1)) if (undecided(events.at(at)!)) return at;
      return -1;
    },
    [events, order, step],
  );

  const [acceptAllOpen, setAcceptAllOpen] = useState(false);
  /** "Accept all ≥ p", confirmed: one durable action; the events it takes are the ones the dialog counted. */
  const acceptAll = (minConfidence: number, taken: { id: number }[], bar: number) => {
    setAcceptAllOpen(false);
    const modelVersion = model.data?.version;
    if (!queue || !modelVersion || taken.length === 0) return;
    queue.enqueue({
      kind: 'accept-all',
      id: 0,
      at: 0,
      minConfidence,
      modelVersion,
      bar,
      ids: taken.map((event) => event.id),
    });
  };
  const acceptable = (minConfidence: number) => (events ? acceptableAt(events.all(), minConfidence) : []);

  return {
    enabled,
    scope,
    model,
    uncertainFirst: order !== null,
    toggleOrder,
    orderLength: order?.length ?? 0,
    orderPosition: (id: number | undefined) => (order && id !== undefined ? order.indexOf(id) : -1),
    step,
    nextUndecided,
    acceptAllOpen,
    setAcceptAllOpen,
    acceptAll,
    acceptable,
  };
}
