import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { countOf } from '@/lib/format';
import { type PoseImport, type PoseSet, type PoseVideoRef, poseApi, poseKeys } from '../api';

/** Imports a pose file into the video; its sets list (and every overlay of the video) refreshes. */
export function useImportPose(ref: PoseVideoRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (upload: PoseImport) => poseApi.importSet(ref, upload),
    onSuccess: (set) => {
      void queryClient.invalidateQueries({ queryKey: poseKeys.sets(ref) });
      const skeleton = set.edges.length > 0 ? `, ${countOf(set.edges.length, 'skeleton edge')}` : '';
      toast.success(`Imported “${set.name}”: ${countOf(set.keypoints.length, 'keypoint')}${skeleton}`);
    },
  });
}

/** Deletes a set and its file; runs derived from it keep their own copies of what they computed. */
export function useDeletePose(ref: PoseVideoRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (set: PoseSet) => poseApi.deleteSet(ref, set.pose_uuid),
    onSuccess: (_data, set) => {
      void queryClient.invalidateQueries({ queryKey: poseKeys.sets(ref) });
      toast.success(`Pose set “${set.name}” deleted`);
    },
  });
}
