import type { ApiRequestBody, ApiResponse } from '@app/api';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Page } from '@/lib/api-client';
import { api } from '@/lib/api-client-typed';

// Shapes come from the server's OpenAPI document (packages/api); the rules are ADR 031.
const PROTOCOLS = '/api/projects/{project_uuid}/protocols/';
const PROTOCOL = '/api/projects/{project_uuid}/protocols/{protocol_uuid}/';

/** A protocol at one version, with every version listed (newest first). */
export type Protocol = ApiResponse<typeof PROTOCOL, 'get'>;
/** A protocol as the list shows it: its current version. */
export type ProtocolSummary = Omit<Protocol, 'versions'>;
export type ProtocolKind = Protocol['kind'];
export type ProtocolVersion = Protocol['versions'][number];
export type CreateProtocolBody = ApiRequestBody<typeof PROTOCOLS, 'post'>;
export type UpdateProtocolBody = ApiRequestBody<typeof PROTOCOL, 'patch'>;

/** The kinds a protocol holds, in the order the page offers them. */
export const PROTOCOL_KINDS = [
  'movement_detection',
  'location_tracking',
  'event_detection',
] as const satisfies readonly ProtocolKind[];

export const PROTOCOL_PAGE_SIZE = 25;

export interface ProtocolListParams {
  page?: number;
  page_size?: number;
  search?: string;
  kind?: ProtocolKind;
  ordering?: string;
}

export const protocolKeys = {
  all: ['protocols'] as const,
  lists: () => [...protocolKeys.all, 'list'] as const,
  list: (projectUuid: string, params: ProtocolListParams) => [...protocolKeys.lists(), projectUuid, params] as const,
  details: () => [...protocolKeys.all, 'detail'] as const,
  detail: (projectUuid: string, protocolUuid: string, version: number | null) =>
    [...protocolKeys.details(), projectUuid, protocolUuid, version] as const,
};

const inProject = (projectUuid: string) => ({ path: { project_uuid: projectUuid } });
const onProtocol = (projectUuid: string, protocolUuid: string) => ({
  path: { project_uuid: projectUuid, protocol_uuid: protocolUuid },
});

export const protocolsApi = {
  list: (projectUuid: string, params: ProtocolListParams = {}): Promise<Page<ProtocolSummary>> =>
    api.GET(PROTOCOLS, { params: { ...inProject(projectUuid), query: params } }),
  /** The current version, or `version` when given. */
  retrieve: (projectUuid: string, protocolUuid: string, version: number | null = null): Promise<Protocol> =>
    api.GET(PROTOCOL, {
      params: { ...onProtocol(projectUuid, protocolUuid), query: version === null ? {} : { version } },
    }),
  create: (projectUuid: string, body: CreateProtocolBody): Promise<Protocol> =>
    api.POST(PROTOCOLS, { params: inProject(projectUuid), body }),
  /** A new version (parameters are given whole). */
  update: (projectUuid: string, protocolUuid: string, body: UpdateProtocolBody): Promise<Protocol> =>
    api.PATCH(PROTOCOL, { params: onProtocol(projectUuid, protocolUuid), body }),
  destroy: (projectUuid: string, protocolUuid: string): Promise<void> =>
    api.DELETE(PROTOCOL, { params: onProtocol(projectUuid, protocolUuid) }),
};

export const protocolQueries = {
  list: (projectUuid: string, params: ProtocolListParams) =>
    queryOptions({
      queryKey: protocolKeys.list(projectUuid, params),
      queryFn: () => protocolsApi.list(projectUuid, params),
      placeholderData: keepPreviousData,
    }),
  detail: (projectUuid: string, protocolUuid: string, version: number | null = null) =>
    queryOptions({
      queryKey: protocolKeys.detail(projectUuid, protocolUuid, version),
      queryFn: () => protocolsApi.retrieve(projectUuid, protocolUuid, version),
    }),
};

/** Where a protocol's page is. */
export const protocolPath = (projectUuid: string, protocolUuid: string) =>
  `/projects/${projectUuid}/protocols/${protocolUuid}`;
