import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { analysisKeys } from '@/features/analysis/api';
import { projectKeys } from '@/features/projects/api';
import { countOf } from '@/lib/format';
import { type Batch, batchesApi, batchKeys, type CreateBatchBody } from '../api';

function useBatchAnswer(projectUuid: string) {
  const queryClient = useQueryClient();
  return (batch: Batch) => {
    queryClient.setQueryData(batchKeys.detail(projectUuid, batch.batch_uuid), batch);
    void queryClient.invalidateQueries({ queryKey: batchKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: analysisKeys.lists() });
  };
}

/** Starts a batch: one run per video, all queued at once. */
export function useCreateBatch(projectUuid: string) {
  const queryClient = useQueryClient();
  const show = useBatchAnswer(projectUuid);
  return useMutation({
    mutationFn: (body: CreateBatchBody) => batchesApi.create(projectUuid, body),
    onSuccess: (batch) => {
      show(batch);
      // The project's analysis count (dashboard) grows.
      void queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectUuid) });
      toast.success(`Batch started: ${countOf(batch.counts.videos, 'run')} queued`);
    },
  });
}

/** Runs again every video whose newest run failed or was stopped. */
export function useRetryBatch(projectUuid: string, batchUuid: string) {
  const show = useBatchAnswer(projectUuid);
  return useMutation({
    mutationFn: () => batchesApi.retry(projectUuid, batchUuid),
    onSuccess: (batch) => {
      show(batch);
      toast.success('The failed videos run again');
    },
  });
}

/** Revokes every run of the batch that has not finished. */
export function useStopBatch(projectUuid: string, batchUuid: string) {
  const show = useBatchAnswer(projectUuid);
  return useMutation({
    mutationFn: () => batchesApi.stop(projectUuid, batchUuid),
    onSuccess: (batch) => {
      show(batch);
      toast.success('Batch stopped');
    },
  });
}
