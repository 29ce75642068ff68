import type { ApiRequestBody, ApiResponse } from '@app/api';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiRequest, type ListParams, type Page, requireParam } from '@/lib/api-client';

/** Shapes come from the server's OpenAPI document (packages/api). */
export type Subject = ApiResponse<'/api/projects/{project_uuid}/subjects/{subject_uuid}/', 'get'>;
export type SubjectBody = ApiRequestBody<'/api/projects/{project_uuid}/subjects/', 'post'>;

export const SUBJECT_ORDERING_FIELDS = ['name', 'group', 'created_at', 'video_count'] as const;
export type SubjectOrderingField = (typeof SUBJECT_ORDERING_FIELDS)[number];

export const subjectKeys = {
  all: ['subjects'] as const,
  lists: () => [...subjectKeys.all, 'list'] as const,
  list: (projectUuid: string, params: ListParams) => [...subjectKeys.lists(), projectUuid, params] as const,
  details: () => [...subjectKeys.all, 'detail'] as const,
  detail: (projectUuid: string, subjectUuid: string) => [...subjectKeys.details(), projectUuid, subjectUuid] as const,
};

const base = (projectUuid: string, op: string) => `projects/${requireParam('projectUuid', projectUuid, op)}/subjects/`;

export const subjectsApi = {
  list: (projectUuid: string, params: ListParams = {}) =>
    apiRequest<Page<Subject>>(base(projectUuid, 'subjectsList'), { query: params }),
  retrieve: (projectUuid: string, subjectUuid: string) =>
    apiRequest<Subject>(
      `${base(projectUuid, 'subjectsRetrieve')}${requireParam('subjectUuid', subjectUuid, 'subjectsRetrieve')}/`,
    ),
  create: (projectUuid: string, body: SubjectBody) =>
    apiRequest<Subject>(base(projectUuid, 'subjectsCreate'), {
      method: 'POST',
      body: requireParam('body', body, 'subjectsCreate'),
    }),
  update: (projectUuid: string, subjectUuid: string, body: Partial<SubjectBody>) =>
    apiRequest<Subject>(
      `${base(projectUuid, 'subjectsPartialUpdate')}${requireParam('subjectUuid', subjectUuid, 'subjectsPartialUpdate')}/`,
      { method: 'PATCH', body: requireParam('body', body, 'subjectsPartialUpdate') },
    ),
  destroy: (projectUuid: string, subjectUuid: string) =>
    apiRequest<void>(
      `${base(projectUuid, 'subjectsDestroy')}${requireParam('subjectUuid', subjectUuid, 'subjectsDestroy')}/`,
      {
        method: 'DELETE',
      },
    ),
  bulkDelete: (projectUuid: string, subjectUuids: string[]) =>
    apiRequest<void>(`${base(projectUuid, 'subjectsBulkDelete')}bulk-delete/`, {
      method: 'POST',
      body: { subject_uuids: requireParam('subjectUuids', subjectUuids, 'subjectsBulkDelete') },
    }),
};

export const subjectQueries = {
  list: (projectUuid: string, params: ListParams) =>
    queryOptions({
      queryKey: subjectKeys.list(projectUuid, params),
      queryFn: () => subjectsApi.list(projectUuid, params),
      placeholderData: keepPreviousData,
    }),
  detail: (projectUuid: string, subjectUuid: string) =>
    queryOptions({
      queryKey: subjectKeys.detail(projectUuid, subjectUuid),
      queryFn: () => subjectsApi.retrieve(projectUuid, subjectUuid),
    }),
};
