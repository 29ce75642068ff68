import type { ApiResponse } from '@app/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api-client';

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
      const data = await apiRequest<Partial<AppConfig>>('config/', { auth: false });
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
