import type { ApiResponse } from '@app/api';
import { queryOptions } from '@tanstack/react-query';
import type { Project } from '@/features/projects/api';
import { apiRequest, type ListParams, type Page, requireParam } from '@/lib/api-client';

// Shapes come from the server's OpenAPI document (packages/api).
/** One deleted object kept in a project's trash (GET /projects/{p}/trash/), with what it took along. */
export type TrashItem = ApiResponse<'/api/projects/{project_uuid}/trash/{item_uuid}/restore/', 'post'>;
export type TrashKind = TrashItem['kind'];

/** One of the owner's deleted projects (GET /projects/?deleted=true): `trash` says when it was deleted and purged. */
export type DeletedProject = Project;

export const TRASH_PAGE_SIZE = 25;

export const trashKeys = {
  all: ['trash'] as const,
  lists: () => [...trashKeys.all, 'list'] as const,
  list: (projectUuid: string, params: ListParams) => [...trashKeys.lists(), projectUuid, params] as const,
  deletedProjects: () => [...trashKeys.all, 'deleted-projects'] as const,
};

const base = (projectUuid: string, op: string) => `projects/${requireParam('projectUuid', projectUuid, op)}/`;

export const trashApi = {
  list: (projectUuid: string, params: ListParams = {}) =>
    apiRequest<Page<TrashItem>>(`${base(projectUuid, 'trashList')}trash/`, { query: params }),
  restore: (projectUuid: string, itemUuid: string) =>
    apiRequest<unknown>(
      `${base(projectUuid, 'trashRestore')}trash/${requireParam('itemUuid', itemUuid, 'trashRestore')}/restore/`,
      { method: 'POST', body: {} },
    ),
  empty: (projectUuid: string) => apiRequest<unknown>(`${base(projectUuid, 'trashEmpty')}trash/`, { method: 'DELETE' }),
  /** The signed-in owner's deleted projects. */
  deletedProjects: () => apiRequest<Page<DeletedProject>>('projects/', { query: { deleted: true, page_size: 100 } }),
  restoreProject: (projectUuid: string) =>
    apiRequest<Project>(`${base(projectUuid, 'projectsRestore')}restore/`, { method: 'POST', body: {} }),
};

export const trashQueries = {
  list: (projectUuid: string, params: ListParams) =>
    queryOptions({
      queryKey: trashKeys.list(projectUuid, params),
      queryFn: () => trashApi.list(projectUuid, params),
    }),
  deletedProjects: () =>
    queryOptions({ queryKey: trashKeys.deletedProjects(), queryFn: () => trashApi.deletedProjects() }),
};
