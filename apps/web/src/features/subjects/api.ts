import type { ApiRequestBody, ApiResponse } from '@app/api';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type ListParams, type Page, requireParam } from '@/lib/api-client';
import { api } from '@/lib/api-client-typed';

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

const SUBJECTS = '/api/projects/{project_uuid}/subjects/';
const SUBJECT = '/api/projects/{project_uuid}/subjects/{subject_uuid}/';
const at = (projectUuid: string, subjectUuid: string) => ({
  params: { path: { project_uuid: projectUuid, subject_uuid: subjectUuid } },
});

export const subjectsApi = {
  list: (projectUuid: string, params: ListParams = {}): Promise<Page<Subject>> =>
    api.GET(SUBJECTS, { params: { path: { project_uuid: projectUuid }, query: params } }),
  retrieve: (projectUuid: string, subjectUuid: string): Promise<Subject> =>
    api.GET(SUBJECT, at(projectUuid, subjectUuid)),
  create: (projectUuid: string, body: SubjectBody): Promise<Subject> =>
    api.POST(SUBJECTS, { params: { path: { project_uuid: projectUuid } }, body }),
  update: (projectUuid: string, subjectUuid: string, body: Partial<SubjectBody>): Promise<Subject> =>
    api.PATCH(SUBJECT, { ...at(projectUuid, subjectUuid), body }),
  destroy: (projectUuid: string, subjectUuid: string): Promise<void> =>
    api.DELETE(SUBJECT, at(projectUuid, subjectUuid)),
  bulkDelete: (projectUuid: string, subjectUuids: string[]): Promise<void> =>
    api.POST('/api/projects/{project_uuid}/subjects/bulk-delete/', {
      params: { path: { project_uuid: projectUuid } },
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
