import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { type AnalysisRun, analysisQueries } from '@/features/analysis/api';
import { useSession } from '@/features/auth/hooks/use-session';
import { subjectQueries } from '@/features/subjects/api';
import { videoQueries } from '@/features/videos/api';
import { readToolContext, type ToolContext, type ToolName, writeToolContext } from './tool-context';

/** The lists the video pickers load (same keys, so the check costs no extra request once the page shows them). */
const SUBJECT_LIST = { page_size: 500, ordering: 'name' } as const;
const VIDEO_LIST = { page_size: 500 } as const;
const RUN_LIST = 100;

/** A visit whose restore has had its say. */
const settledVisit = <T extends { done: boolean }>(visit: T): T => (visit.done ? visit : { ...visit, done: true });

export interface ToolTarget {
  subject: string | null;
  video: string | null;
  run: string | null;
}

/**
 * Carries a tool's context across visits: what the URL names is remembered for this project and user; a visit that
 * names nothing (the sidebar link) is sent back to the remembered subject, video and run — each only if it still
 * exists, and the run only if `acceptRun` takes it. `restoring` is true while that check runs, so the page waits
 * before choosing a default of its own.
 */
export function useToolContext({
  tool,
  projectUuid,
  target,
  onRestore,
  acceptRun,
}: {
  tool: ToolName;
  projectUuid: string;
  target: ToolTarget;
  onRestore: (context: ToolContext) => void;
  acceptRun?: (run: AnalysisRun) => boolean;
}): { restoring: boolean } {
  const { user } = useSession();
  const userId = user?.id ?? null;
  const namesNothing = target.subject === null;
  /** What a visit that names nothing goes back to (null: nothing to restore), and whether that has been settled. */
  const freshVisit = () => {
    const remembered = userId !== null && namesNothing ? readToolContext(userId, projectUuid, tool) : null;
    return { remembered, done: remembered === null };
  };
  const [visit, setVisit] = useState(freshVisit);
  // The page stays mounted when its own sidebar link is followed from it (or a navigation elsewhere was overtaken by
  // that click): the URL going from naming a video to naming nothing is a new visit, restored like the first.
  const [namedNothingBefore, setNamedNothingBefore] = useState(namesNothing);
  if (namedNothingBefore !== namesNothing) {
    setNamedNothingBefore(namesNothing);
    if (namesNothing) setVisit(freshVisit());
  }
  const { remembered, done } = visit;
  const restoring = !done && namesNothing;

  const subjects = useQuery({ ...subjectQueries.list(projectUuid, SUBJECT_LIST), enabled: restoring });
  const videos = useQuery({
    ...videoQueries.list(projectUuid, remembered?.subject ?? '', VIDEO_LIST),
    enabled: restoring && remembered?.video !== null,
  });
  const runs = useQuery({
    ...analysisQueries.list(projectUuid, { video: remembered?.video ?? '', page_size: RUN_LIST }),
    enabled: restoring && remembered?.run !== null,
  });

  const onRestoreRef = useRef(onRestore);
  onRestoreRef.current = onRestore;
  const acceptRef = useRef(acceptRun);
  acceptRef.current = acceptRun;

  useEffect(() => {
    if (!restoring || !remembered) {
      if (!done && target.subject !== null) setVisit(settledVisit);
      return;
    }
    const settled = (query: { isSuccess: boolean; isError: boolean; isPlaceholderData: boolean }, needed: boolean) =>
      !needed || query.isError || (query.isSuccess && !query.isPlaceholderData);
    if (!settled(subjects, true) || !settled(videos, remembered.video !== null)) return;
    if (!settled(runs, remembered.run !== null)) return;
    setVisit(settledVisit);
    if (!subjects.data?.results.some((s) => s.subject_uuid === remembered.subject)) return;
    const video = videos.data?.results.some((v) => v.video_uuid === remembered.video) ? remembered.video : null;
    const run = video ? runs.data?.results.find((r) => r.analysis_uuid === remembered.run) : undefined;
    const runTaken = run && (acceptRef.current ? acceptRef.current(run) : true) ? run.analysis_uuid : null;
    onRestoreRef.current({ subject: remembered.subject, video, run: runTaken });
  }, [restoring, remembered, done, target.subject, subjects, videos, runs]);

  // Remember what the page shows (only once the restore, if any, has had its say).
  useEffect(() => {
    if (userId === null || target.subject === null || restoring) return;
    writeToolContext(userId, projectUuid, tool, { subject: target.subject, video: target.video, run: target.run });
  }, [userId, projectUuid, tool, target.subject, target.video, target.run, restoring]);

  return { restoring };
}
