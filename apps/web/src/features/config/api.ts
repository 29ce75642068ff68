import type { ApiResponse } from '@app/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';
import { api } from '@/lib/api-client-typed';

/** The subset of GET /api/config/ the app reads. */
export type AppConfig = Pick<
  ApiResponse<'/api/config/', 'get'>,
  'support_email' | 'docs_url' | 'billing_enabled' | 'trash_days'
>;

export const DEFAULT_CONFIG: AppConfig = {
  support_email: 'support@localhost',
  docs_url: '/api/docs/',
  billing_enabled: false,
  trash_days: 30,
};

export const configQuery = queryOptions({
  queryKey: ['config'] as const,
  queryFn: async (): Promise<AppConfig> => {
    try {
      // An older server may leave fields out: the defaults fill them.
      const data: Partial<AppConfig> = await api.GET('/api/config/', { auth: false });
      return { ...DEFAULT_CONFIG, ...data };
    } catch (error) {
      // An older server without the endpoint: use the defaults.
      if (error instanceof ApiError && error.status === 404) return DEFAULT_CONFIG;
      throw error;
    }
  },
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
});

export function useAppConfig(): AppConfig {
  return useQuery(configQuery).data ?? DEFAULT_CONFIG;
}
