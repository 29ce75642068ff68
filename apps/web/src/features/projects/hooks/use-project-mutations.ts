import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { trashKeys } from '@/features/trash/api';
import { type CreateProjectBody, type Project, projectKeys, projectsApi } from '../api';

export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateProjectBody) => projectsApi.create(body),
    onSuccess: async (project) => {
      queryClient.setQueryData(projectKeys.detail(project.project_uuid), project);
      // The new project must be in the list before its page opens (the route checks membership).
      await queryClient.refetchQueries({ queryKey: projectKeys.lists() });
    },
  });
}

/** Partial update: the description only; refreshes the single-project cache (spec §7). */
export function useUpdateProjectDescription(projectUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (description: string) => projectsApi.updateDescription(projectUuid, description),
    onSuccess: (project: Project) => {
      queryClient.setQueryData(projectKeys.detail(projectUuid), project);
      void queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectUuid) });
      toast.success('Description saved');
    },
  });
}

/** Logo upload refreshes the single-project and list caches. */
export function useUploadProjectLogo(projectUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => projectsApi.uploadLogo(projectUuid, file),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectUuid) });
      void queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
      toast.success('Logo updated');
    },
  });
}

/**
 * Deletion (to the trash) refreshes both caches and the owner's deleted projects; the caller clears the active
 * project and leaves.
 */
export function useDeleteProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ projectUuid, confirmName }: { projectUuid: string; confirmName: string }) =>
      projectsApi.destroy(projectUuid, confirmName),
    onSuccess: (_data, { projectUuid }) => {
      queryClient.removeQueries({ queryKey: projectKeys.detail(projectUuid) });
      void queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: trashKeys.deletedProjects(), refetchType: 'all' });
    },
  });
}
