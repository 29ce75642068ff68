import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { projectKeys } from '@/features/projects/api';
import { subjectKeys } from '@/features/subjects/api';
import { trashKeys } from '@/features/trash/api';
import { videoKeys, videosApi } from '../api';

export function useRenameVideo(projectUuid: string, subjectUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ videoUuid, name }: { videoUuid: string; name: string }) =>
      videosApi.update(projectUuid, subjectUuid, videoUuid, { name }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: videoKeys.all });
      toast.success('Video renamed');
    },
  });
}

export function useDeleteVideos(projectUuid: string, subjectUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (videoUuids: string[]) =>
      videoUuids.length === 1
        ? videosApi.destroy(projectUuid, subjectUuid, videoUuids[0]!)
        : videosApi.batchDestroy(projectUuid, subjectUuid, videoUuids),
    onSuccess: (_data, videoUuids) => {
      void queryClient.invalidateQueries({ queryKey: videoKeys.all });
      void queryClient.invalidateQueries({ queryKey: subjectKeys.all });
      void queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectUuid) });
      void queryClient.invalidateQueries({ queryKey: trashKeys.lists(), refetchType: 'all' });
      toast.success(videoUuids.length === 1 ? 'Video deleted' : `${videoUuids.length} videos deleted`);
    },
  });
}
