import type { ApiRequestBody, ApiResponse } from '@app/api';
import { queryOptions } from '@tanstack/react-query';
import { type ListParams, type Page, requireParam } from '@/lib/api-client';
import { api } from '@/lib/api-client-typed';

/** Shapes come from the server's OpenAPI document (packages/api). */
export type Project = ApiResponse<'/api/projects/{project_uuid}/', 'get'>;
export type ProjectStatus = Project['status'];
export type ProjectRole = Project['role'];
export type ProjectMetadata = Project['metadata'];
export type CreateProjectBody = ApiRequestBody<'/api/projects/', 'post'>;

export const PROJECT_LIST_SIZE = 100;

export const projectKeys = {
  all: ['projects'] as const,
  lists: () => [...projectKeys.all, 'list'] as const,
  list: () => [...projectKeys.lists()] as const,
  details: () => [...projectKeys.all, 'detail'] as const,
  detail: (uuid: string) => [...projectKeys.details(), uuid] as const,
};

const PROJECT = '/api/projects/{project_uuid}/';
const at = (projectUuid: string) => ({ params: { path: { project_uuid: projectUuid } } });

export const projectsApi = {
  list: (params: ListParams = {}): Promise<Page<Project>> => api.GET('/api/projects/', { params: { query: params } }),
  retrieve: (projectUuid: string): Promise<Project> => api.GET(PROJECT, at(projectUuid)),
  create: (body: CreateProjectBody): Promise<Project> => api.POST('/api/projects/', { body }),
  /** The app's partial update sends metadata.description only (spec §7). */
  updateDescription: (projectUuid: string, description: string): Promise<Project> =>
    api.PATCH(PROJECT, { ...at(projectUuid), body: { metadata: { description } } }),
  /** Moves the project to the trash; the server asks for its name, typed by the user. */
  destroy: (projectUuid: string, confirmName: string): Promise<void> =>
    api.DELETE(PROJECT, {
      params: {
        path: { project_uuid: projectUuid },
        query: { confirm_name: requireParam('confirmName', confirmName, 'projectsDestroy') },
      },
    }),
  uploadLogo: (projectUuid: string, file: File): Promise<Project> => {
    const form = new FormData();
    form.append('logo', requireParam('logo', file, 'projectsUploadLogo'));
    return api.POST('/api/projects/{project_uuid}/upload_logo/', { ...at(projectUuid), body: form });
  },
  acceptInvitation: (projectUuid: string, invitationUuid: string): Promise<unknown> =>
    api.POST('/api/projects/{project_uuid}/invitations/{invitation_uuid}/accept/', {
      params: { path: { project_uuid: projectUuid, invitation_uuid: invitationUuid } },
      body: {},
    }),
};

export const projectQueries = {
  list: () =>
    queryOptions({
      queryKey: projectKeys.list(),
      queryFn: () => projectsApi.list({ page_size: PROJECT_LIST_SIZE }),
    }),
  detail: (uuid: string) =>
    queryOptions({ queryKey: projectKeys.detail(uuid), queryFn: () => projectsApi.retrieve(uuid) }),
};
