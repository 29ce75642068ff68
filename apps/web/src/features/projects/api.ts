import type { ApiRequestBody, ApiResponse } from '@app/api';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, type ListParams, type Page, requireParam } from '@/lib/api-client';

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

export const projectsApi = {
  list: (params: ListParams = {}) => apiRequest<Page<Project>>('projects/', { query: params }),
  retrieve: (projectUuid: string) =>
    apiRequest<Project>(`projects/${requireParam('projectUuid', projectUuid, 'projectsRetrieve')}/`),
  create: (body: CreateProjectBody) =>
    apiRequest<Project>('projects/', { method: 'POST', body: requireParam('body', body, 'projectsCreate') }),
  /** The app's partial update sends metadata.description only (spec §7). */
  updateDescription: (projectUuid: string, description: string) =>
    apiRequest<Project>(`projects/${requireParam('projectUuid', projectUuid, 'projectsPartialUpdate')}/`, {
      method: 'PATCH',
      body: { metadata: { description } },
    }),
  /** Moves the project to the trash; the server asks for its name, typed by the user. */
  destroy: (projectUuid: string, confirmName: string) =>
    apiRequest<void>(`projects/${requireParam('projectUuid', projectUuid, 'projectsDestroy')}/`, {
      method: 'DELETE',
      query: { confirm_name: requireParam('confirmName', confirmName, 'projectsDestroy') },
    }),
  uploadLogo: (projectUuid: string, file: File) => {
    const form = new FormData();
    form.append('logo', requireParam('logo', file, 'projectsUploadLogo'));
    return apiRequest<Project>(
      `projects/${requireParam('projectUuid', projectUuid, 'projectsUploadLogo')}/upload_logo/`,
      {
        method: 'POST',
        form,
      },
    );
  },
  acceptInvitation: (projectUuid: string, invitationUuid: string) =>
    apiRequest<unknown>(
      `projects/${requireParam('projectUuid', projectUuid, 'projectsInvitationsAccept')}/invitations/${requireParam(
        'invitationUuid',
        invitationUuid,
        'projectsInvitationsAccept',
      )}/accept/`,
      { method: 'POST', body: {} },
    ),
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
