import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { type ModelScope, suggestionApi, suggestionKeys } from '../api';

/** "Train now": queues the scope's training and shows its state at once (the panel follows it while it runs). */
export function useTrainModel(scope: ModelScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => suggestionApi.train(scope),
    onSuccess: (model) => {
      queryClient.setQueryData(suggestionKeys.model(scope), model);
      toast.info('Training queued: suggestions follow when it has finished.');
    },
  });
}
