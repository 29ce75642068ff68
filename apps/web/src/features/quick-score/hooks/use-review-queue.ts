import { useEffect, useState, useSyncExternalStore } from 'react';
import { analysisApi, type EventChange, type VideoRef } from '@/features/analysis/api';
import { type ScoringMode, scorerApi } from '@/features/scorers/api';
import { ActionQueue, type QueueNotice, type QueueSnapshot, queueKeyPrefix } from '../action-queue';
import type { Reviewer } from '../review-events';

const IDLE: QueueSnapshot = { revision: 0, state: 'saved', pending: 0, failure: null, retryAt: null, locked: false };
const noSubscription = () => () => {};

/**
 * The run's action queue for this page: opened on this tab's storage (taking up what closed tabs left), started on
 * the server's events, and guarding the tab against closing with unsaved actions. (The save queue itself retries at
 * once when the browser comes back online or the page gets the focus back.)
 */
export function useReviewQueue({
  videoRef,
  analysisUuid,
  me,
  halfFrame,
  onNotice,
  onIdAssigned,
  scoring = 'consensus',
  bar,
}: {
  videoRef: VideoRef;
  analysisUuid: string;
  /** The run's events, or the caller's own blind scoring of them (ADR 014). */
  scoring?: ScoringMode;
  me: Reviewer;
  halfFrame: number;
  onNotice: (notice: QueueNotice) => void;
  onIdAssigned: (temporary: number, id: number) => void;
  /** The reader's precision bar for suggestions (the consensus only: a blind scoring has none). */
  bar: number;
}) {
  const [queue, setQueue] = useState<ActionQueue | null>(null);
  const [error, setError] = useState<unknown>(null);
  const { projectUuid, subjectUuid, videoUuid } = videoRef;
  const meId = me.id;
  const meName = me.display_name;

  // The callbacks may change identity each render; the queue reads the latest through these.
  const [handlers] = useState(() => ({ onNotice, onIdAssigned }));
  handlers.onNotice = onNotice;
  handlers.onIdAssigned = onIdAssigned;

  useEffect(() => {
    let cancelled = false;
    let opened: ActionQueue | null = null;
    setQueue(null);
    setError(null);
    const ref = { projectUuid, subjectUuid, videoUuid };
    (async () => {
      const transport =
        scoring === 'mine'
          ? {
              update: (version: number, changes: EventChange[]) =>
                scorerApi.update(ref, analysisUuid, { version, changes, answer: 'changed' }),
              fetchAll: () => scorerApi.mine(ref, analysisUuid),
            }
          : {
              update: (version: number, changes: EventChange[]) =>
                analysisApi.updateEvents(ref, { analysis_uuid: analysisUuid, version, changes, answer: 'changed' }),
              fetchAll: () => analysisApi.events(ref, analysisUuid, bar),
            };
      opened = new ActionQueue({
        // A scoring's actions wait under a key of their own: they never reach the consensus, nor the reverse.
        storageKey: queueKeyPrefix(meId, scoring === 'mine' ? `${analysisUuid}-mine` : analysisUuid),
        transport,
        me: { id: meId, display_name: meName },
        halfFrame,
        onNotice: (notice) => handlers.onNotice(notice),
        onIdAssigned: (temporary, id) => handlers.onIdAssigned(temporary, id),
      });
      // The events are read while this tab's stored actions load: both are needed to start.
      const [initial] = await Promise.all([transport.fetchAll(), opened.ready]);
      if (cancelled) return;
      opened.start(initial);
      setQueue(opened);
    })().catch((reason: unknown) => {
      if (!cancelled) setError(reason);
    });
    return () => {
      cancelled = true;
      opened?.stop();
    };
  }, [projectUuid, subjectUuid, videoUuid, analysisUuid, meId, meName, halfFrame, handlers, scoring, bar]);

  const snapshot = useSyncExternalStore(
    queue?.subscribe ?? noSubscription,
    queue?.getSnapshot ?? (() => IDLE),
    queue?.getSnapshot ?? (() => IDLE),
  );

  // Closing or reloading the tab with actions not yet on the server asks first (they stay in storage either way).
  const unsaved = snapshot.pending > 0;
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  return { queue, snapshot, error };
}
