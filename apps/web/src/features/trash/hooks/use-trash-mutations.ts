import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { analysisKeys } from '@/features/analysis/api';
import { annotationKeys } from '@/features/annotator/api';
import { projectKeys } from '@/features/projects/api';
import { useActiveProject } from '@/features/projects/hooks/active-project-context';
import { quickScoreKeys } from '@/features/quick-score/api';
import { subjectKeys } from '@/features/subjects/api';
import { videoKeys } from '@/features/videos/api';
import { type TrashItem, trashApi, trashKeys } from '../api';
import { KIND_LABELS } from '../trash-text';

/**
 * A restore brings back rows anywhere in the project (a subject with its videos, runs, events and tracks): every
 * cached list and detail they appear in is refetched, the inactive ones too (the app does not refetch on mount).
 */
export function refreshRestoredContent(queryClient: QueryClient) {
  for (const queryKey of [
    trashKeys.all,
    projectKeys.all,
    subjectKeys.all,
    videoKeys.all,
    analysisKeys.all,
    annotationKeys.all,
    quickScoreKeys.all,
  ]) {
    void queryClient.invalidateQueries({ queryKey, refetchType: 'all' });
  }
}

export function useRestoreTrashItem(projectUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: TrashItem) => trashApi.restore(projectUuid, item.item_uuid),
    onSuccess: (_data, item) => {
      refreshRestoredContent(queryClient);
      toast.success(`${KIND_LABELS[item.kind]} “${item.name}” restored`);
    },
  });
}

export function useEmptyTrash(projectUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => trashApi.empty(projectUuid),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: trashKeys.all, refetchType: 'all' });
      void queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectUuid) });
      toast.success('Trash emptied');
    },
  });
}

/** Restores one of the owner's deleted projects; it is back in the project list (and can be opened) at once. */
export function useRestoreProject() {
  const queryClient = useQueryClient();
  const { rememberProject } = useActiveProject();
  return useMutation({
    mutationFn: (project: { project_uuid: string; name: string }) => trashApi.restoreProject(project.project_uuid),
    onSuccess: async (_data, project) => {
      rememberProject(project.project_uuid);
      refreshRestoredContent(queryClient);
      await queryClient.refetchQueries({ queryKey: projectKeys.lists() });
      toast.success(`Project “${project.name}” restored`);
    },
  });
}
