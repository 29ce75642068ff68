import { useMutation, useQueryClient } from '@tanstack/react-query';
import { trashKeys } from '@/features/trash/api';
import {
  type AnnotationVideoRef,
  annotationKeys,
  annotationsApi,
  type CreateTrackBody,
  type Track,
  type TrackChanges,
} from '../api';

/** Track settings: create, change, delete, and the project's track set; each refreshes the video's track list. */
export function useTrackMutations(ref: AnnotationVideoRef) {
  const client = useQueryClient();
  const setTracks = (update: (tracks: Track[]) => Track[]) =>
    client.setQueryData<Track[]>(annotationKeys.tracks(ref.videoUuid), (tracks) => update(tracks ?? []));
  const refreshPresets = () => client.invalidateQueries({ queryKey: annotationKeys.presets(ref.projectUuid) });

  const create = useMutation({
    mutationFn: (body: CreateTrackBody) => annotationsApi.createTrack(ref, body),
    onSuccess: (track) => {
      setTracks((tracks) => [...tracks, track]);
      void refreshPresets();
    },
  });
  const update = useMutation({
    mutationFn: ({ uuid, changes }: { uuid: string; changes: TrackChanges }) =>
      annotationsApi.updateTrack(ref, uuid, changes),
    onSuccess: (track) => {
      setTracks((tracks) =>
        tracks
          .map((t) => (t.annotation_config_uuid === track.annotation_config_uuid ? track : t))
          .sort((a, b) => a.order - b.order),
      );
      void refreshPresets();
    },
  });
  const remove = useMutation({
    mutationFn: (uuid: string) => annotationsApi.deleteTrack(ref, uuid),
    onSuccess: (_, uuid) => {
      setTracks((tracks) => tracks.filter((t) => t.annotation_config_uuid !== uuid));
      void client.invalidateQueries({ queryKey: trashKeys.lists(), refetchType: 'all' });
    },
  });
  const applyPresets = useMutation({
    mutationFn: () => annotationsApi.applyPresets(ref),
    onSuccess: (tracks) => client.setQueryData(annotationKeys.tracks(ref.videoUuid), tracks),
  });
  return { create, update, remove, applyPresets };
}
