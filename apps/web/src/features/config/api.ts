import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api-client';

export type AppConfig = { support_email: string; docs_url: string; billing_enabled: boolean };

export const DEFAULT_CONFIG: AppConfig = {
  support_email: 'support@localhost',
  docs_url: '/api/docs/',
  billing_enabled: false,
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
