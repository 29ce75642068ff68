import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { type AnalysisRun, analysisQueries } from '@/features/analysis/api';
import { useToolContext } from '@/features/tool-context/use-tool-context';
import type { QuickScoreTarget } from '../links';

const hasEvents = (run: AnalysisRun) => run.status === 'succeeded' && (run.event_count ?? 0) > 0;

/** Of a video's finished runs (newest first), the one Quick Score opens: the newest that found events, else the newest. */
export function preferredRun(runs: readonly AnalysisRun[]): AnalysisRun | undefined {
  return runs.find(hasEvents) ?? runs[0];
}

/**
 * Which run Quick Score opens when the URL does not name one. Nothing named (the sidebar): the subject, video and
 * run last reviewed here in this project (only while that run still exists and has events), else the project's
 * newest finished run with events, else its newest finished run. A video named alone: its preferred run. Never a
 * run with 0 events while one with events exists. `loading` while the page should wait for the choice.
 */
export function useDefaultRun({
  projectUuid,
  target,
  videoRuns,
  navigate,
}: {
  projectUuid: string;
  target: Required<QuickScoreTarget>;
  /** The named video's finished runs, newest first (undefined while loading). */
  videoRuns: readonly AnalysisRun[] | undefined;
  navigate: (patch: Record<string, string | null>, replace?: boolean) => void;
}): { loading: boolean } {
  const { restoring } = useToolContext({
    tool: 'quick-score',
    projectUuid,
    target,
    // Without its run (gone, or it found nothing) the memory gives way to the project's newest run with events.
    onRestore: (context) => {
      if (context.run) navigate({ ...context }, true);
    },
    acceptRun: hasEvents,
  });
  const nothingNamed = target.subject === null && !restoring;
  const withEvents = useQuery({
    ...analysisQueries.list(projectUuid, { status: 'succeeded', has_events: 'true', page_size: 1 }),
    enabled: nothingNamed,
  });
  const newest = useQuery({
    ...analysisQueries.list(projectUuid, { status: 'succeeded', page_size: 1 }),
    enabled: nothingNamed && withEvents.isSuccess && withEvents.data.results.length === 0,
  });
  const projectChoice = withEvents.data?.results[0] ?? newest.data?.results[0];
  useEffect(() => {
    if (nothingNamed && projectChoice) {
      navigate(
        { subject: projectChoice.subject_uuid, video: projectChoice.video_uuid, run: projectChoice.analysis_uuid },
        true,
      );
    }
  });

  const videoChoice = videoRuns ? preferredRun(videoRuns) : undefined;
  useEffect(() => {
    if (target.video !== null && target.run === null && videoChoice) navigate({ run: videoChoice.analysis_uuid }, true);
  });

  return { loading: restoring || (nothingNamed && (withEvents.isLoading || newest.isLoading)) };
}
