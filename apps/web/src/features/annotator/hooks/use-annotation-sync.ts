import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { SaveStatus } from '@/lib/save-queue/save-queue';
import { type AnnotationSync, acquireSync, httpTransport, releaseSync, syncStorageKey } from '../annotation-sync';
import type { AnnotationVideoRef } from '../api';

const SAVED: SaveStatus = { state: 'saved', pending: 0, failure: null, retryAt: null, locked: false };
const noSubscription = () => () => {};

/**
 * The save queue of this user's edits of the video (null for the first render) and its status ("saved / saving /
 * not saved yet"). Leaving the page releases it; edits still on their way are sent all the same.
 */
export function useAnnotationSync(
  ref: AnnotationVideoRef,
  userId: number,
): { sync: AnnotationSync | null; status: SaveStatus } {
  const key = syncStorageKey(userId, ref.videoUuid);
  const [sync, setSync] = useState<AnnotationSync | null>(null);
  const { projectUuid, subjectUuid, videoUuid } = ref;
  useEffect(() => {
    setSync(acquireSync(key, () => httpTransport({ projectUuid, subjectUuid, videoUuid })));
    return () => releaseSync(key);
  }, [key, projectUuid, subjectUuid, videoUuid]);
  const subscribe = useCallback(
    (listener: () => void) => (sync ? sync.queue.subscribe(listener) : noSubscription()),
    [sync],
  );
  const status = useSyncExternalStore(
    subscribe,
    () => sync?.status() ?? SAVED,
    () => sync?.status() ?? SAVED,
  );
  return { sync, status };
}
