import { MutationCache, QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ApiError } from './api-client';
import { errorMessage, isUnauthorized } from './errors';

export const QUERY_STALE_TIME = 5 * 60 * 1000;
export const QUERY_GC_TIME = 10 * 60 * 1000;
export const QUERY_MAX_RETRIES = 3;

/** Queries retry up to 3 times, except on 401 or 403 (spec §8). */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return false;
  return failureCount < QUERY_MAX_RETRIES;
}

/** A failed mutation is logged and toasted, unless it is a 401 (the session handles those). */
export function handleMutationError(error: unknown): void {
  console.error(error);
  if (isUnauthorized(error)) return;
  toast.error(errorMessage(error));
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    mutationCache: new MutationCache({ onError: handleMutationError }),
    defaultOptions: {
      queries: {
        staleTime: QUERY_STALE_TIME,
        gcTime: QUERY_GC_TIME,
        refetchOnMount: false,
        refetchOnWindowFocus: false,
        retry: shouldRetryQuery,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
