import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { type AnalysisRun, analysisApi, analysisKeys, type CreateAnalysisBody, runRef } from '@/features/analysis/api';
import { projectKeys } from '@/features/projects/api';
import { trashKeys } from '@/features/trash/api';
import type { Page } from '@/lib/api-client';

/** Puts a changed run into every cached list page that holds it, so the row changes at once. */
function useReplaceRun() {
  const queryClient = useQueryClient();
  return (run: AnalysisRun) => {
    queryClient.setQueriesData<Page<AnalysisRun>>({ queryKey: analysisKeys.lists() }, (page) =>
      page
        ? {
            ...page,
            results: page.results.map((r) => (r.analysis_uuid === run.analysis_uuid ? run : r)),
          }
        : page,
    );
    queryClient.setQueryData(analysisKeys.run(run.analysis_uuid), run);
  };
}

export function useRevokeRun() {
  const queryClient = useQueryClient();
  const replace = useReplaceRun();
  return useMutation({
    mutationFn: (run: AnalysisRun) => analysisApi.revoke(runRef(run), run.analysis_uuid),
    onSuccess: (run) => {
      replace(run);
      void queryClient.invalidateQueries({ queryKey: analysisKeys.lists() });
      toast.success('Run revoked');
    },
  });
}

/** Moves a run and its events to the trash; the log, the counts and the trash refresh. */
export function useDeleteRun(projectUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (run: AnalysisRun) => analysisApi.destroy(runRef(run), run.analysis_uuid),
    onSuccess: (_data, run) => {
      queryClient.removeQueries({ queryKey: analysisKeys.run(run.analysis_uuid) });
      void queryClient.invalidateQueries({ queryKey: analysisKeys.all });
      void queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectUuid) });
      void queryClient.invalidateQueries({ queryKey: trashKeys.lists(), refetchType: 'all' });
      toast.success('Run deleted');
    },
  });
}

/** Starts a new run on the video of `run`; `message` is the toast that says so. */
export function useStartRun(projectUuid: string, message = 'Re-run started') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ run, body }: { run: AnalysisRun; body: CreateAnalysisBody }) =>
      analysisApi.create(runRef(run), body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: analysisKeys.lists() });
      // The project's analysis count (dashboard) grows.
      void queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectUuid) });
      toast.success(message);
    },
  });
}

export function useDownloadSummary(projectUuid: string) {
  return useMutation({
    mutationFn: (format: 'csv' | 'xlsx') => analysisApi.downloadSummary(projectUuid, format),
  });
}
