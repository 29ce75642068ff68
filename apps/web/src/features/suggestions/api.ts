import type { ApiRequestBody, ApiResponse } from '@app/api';
import { queryOptions } from '@tanstack/react-query';
import type { Page } from '@/lib/api-client';
import { api } from '@/lib/api-client-typed';

// Shapes come from the server's OpenAPI document (packages/api).
/** A project's suggestion model for one run kind and protocol (ADR 038): its newest figures, training and history. */
export type SuggestionModel = ApiResponse<'/api/projects/{project_uuid}/models/', 'get'>['results'][number];
export type TrainBody = ApiRequestBody<'/api/projects/{project_uuid}/models/train/', 'post'>;
export type ModelKind = TrainBody['kind'];

/** Which model a run's suggestions come from: its kind and protocol (none: runs made without one). */
export interface ModelScope {
  projectUuid: string;
  kind: ModelKind;
  protocolUuid: string | null;
}

/** While a training waits or runs, the panel asks again this often. */
export const TRAINING_POLL_MS = 2000;

export const suggestionKeys = {
  all: ['suggestions'] as const,
  model: (scope: ModelScope) => [...suggestionKeys.all, 'model', scope] as const,
};

export const suggestionApi = {
  /** The scope's model, or null before any review of such runs. */
  model: async (scope: ModelScope): Promise<SuggestionModel | null> => {
    const page: Page<SuggestionModel> = await api.GET('/api/projects/{project_uuid}/models/', {
      params: {
        path: { project_uuid: scope.projectUuid },
        query: { kind: scope.kind, protocol_uuid: scope.protocolUuid ?? 'none', page_size: 1 },
      },
    });
    return page.results[0] ?? null;
  },
  train: (scope: ModelScope): Promise<SuggestionModel> =>
    api.POST('/api/projects/{project_uuid}/models/train/', {
      params: { path: { project_uuid: scope.projectUuid } },
      body: { kind: scope.kind, protocol_uuid: scope.protocolUuid },
    }),
};

const busy = (model: SuggestionModel | null | undefined) =>
  model?.training.state === 'queued' || model?.training.state === 'running';

export const suggestionQueries = {
  model: (scope: ModelScope) =>
    queryOptions({
      queryKey: suggestionKeys.model(scope),
      queryFn: () => suggestionApi.model(scope),
      // Reviews may start a training at any time; a waiting or running one is followed until its model is there.
      staleTime: 0,
      refetchInterval: (query) => (busy(query.state.data) ? TRAINING_POLL_MS : false),
    }),
};
