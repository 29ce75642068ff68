import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { VideoRef } from '@/features/analysis/api';
import type { ActionQueue } from '../action-queue';
import { quickScoreApi, quickScoreQueries } from '../api';

/** The resume position is written this long after the reviewer settles on an event. */
const POSITION_DELAY_MS = 400;

/**
 * Where this user is in the run, kept on the server so that reopening the run — on any machine — resumes there:
 * read once when the events are in (`onResume` with the event's index, the first event when there is none), then
 * written as the reviewer settles on events, and on leaving the page.
 */
export function useResumePosition({
  videoRef,
  analysisUuid,
  queue,
  currentId,
  onResume,
}: {
  videoRef: VideoRef;
  analysisUuid: string;
  queue: ActionQueue | null;
  currentId: number | null;
  onResume: (index: number) => void;
}) {
  const position = useQuery(quickScoreQueries.position(videoRef, analysisUuid));
  const resumed = useRef(false);
  const resume = useRef(onResume);
  resume.current = onResume;
  useEffect(() => {
    if (resumed.current || !queue || position.isPending) return;
    resumed.current = true;
    const events = queue.events;
    const at = position.data?.event_id != null ? events.indexOf(position.data.event_id) : -1;
    if (events.size > 0) resume.current(Math.max(0, at));
  }, [queue, position.isPending, position.data]);

  // A temporary id (an unsaved add) is not the server's yet, and an event deleted meanwhile is nobody's place.
  const latest = useRef<number | null>(null);
  useEffect(() => {
    if (currentId === null || currentId < 0) return;
    latest.current = currentId;
    const timer = setTimeout(() => {
      if (!queue?.events.get(currentId)) return;
      void quickScoreApi.savePosition(videoRef, analysisUuid, currentId).catch(() => {});
    }, POSITION_DELAY_MS);
    return () => clearTimeout(timer);
  }, [currentId, videoRef, analysisUuid, queue]);
  useEffect(() => {
    const leave = () => {
      if (latest.current !== null) quickScoreApi.savePositionOnExit(videoRef, analysisUuid, latest.current);
    };
    window.addEventListener('pagehide', leave);
    return () => window.removeEventListener('pagehide', leave);
  }, [videoRef, analysisUuid]);
}
