import type { ApiResponse } from '@app/api';
import { queryOptions } from '@tanstack/react-query';
import type { Project } from '@/features/projects/api';
import type { ListParams, Page } from '@/lib/api-client';
import { api } from '@/lib/api-client-typed';

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

const at = (projectUuid: string) => ({ params: { path: { project_uuid: projectUuid } } });

export const trashApi = {
  list: (projectUuid: string, params: ListParams = {}): Promise<Page<TrashItem>> =>
    api.GET('/api/projects/{project_uuid}/trash/', { params: { path: { project_uuid: projectUuid }, query: params } }),
  restore: (projectUuid: string, itemUuid: string): Promise<unknown> =>
    api.POST('/api/projects/{project_uuid}/trash/{item_uuid}/restore/', {
      params: { path: { project_uuid: projectUuid, item_uuid: itemUuid } },
      body: {},
    }),
  empty: (projectUuid: string): Promise<unknown> => api.DELETE('/api/projects/{project_uuid}/trash/', at(projectUuid)),
  /** The signed-in owner's deleted projects. */
  deletedProjects: (): Promise<Page<DeletedProject>> =>
    api.GET('/api/projects/', { params: { query: { deleted: 'true', page_size: 100 } } }),
  restoreProject: (projectUuid: string): Promise<Project> =>
    api.POST('/api/projects/{project_uuid}/restore/', { ...at(projectUuid), body: {} }),
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
