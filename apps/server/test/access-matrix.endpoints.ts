import type { InjectOptions } from 'fastify';
import { accessMatrixAgreementEndpoints } from './access-matrix.agreement.js';
import { accessMatrixAnalysisEndpoints } from './access-matrix.analysis.js';
import { accessMatrixAnnotationEndpoints } from './access-matrix.annotations.js';
import { accessMatrixBatchEndpoints } from './access-matrix.batches.js';
import { accessMatrixPoseEndpoints } from './access-matrix.pose.js';
import { accessMatrixProtocolEndpoints } from './access-matrix.protocols.js';
import { accessMatrixSuggestionEndpoints } from './access-matrix.suggestions.js';
import { accessMatrixTeamEndpoints } from './access-matrix.team.js';
import { accessMatrixTrashEndpoints } from './access-matrix.trash.js';
import type { Endpoint } from './access-matrix.types.js';
import { accessMatrixVideoEndpoints } from './access-matrix.videos.js';
import { multipartFile, TINY_PNG } from './factories.js';

const json = (method: InjectOptions['method'], url: string, payload?: object): InjectOptions => ({
  method,
  url,
  ...(payload ? { payload } : {}),
});

const projectEndpoints: Endpoint[] = [
  { name: 'GET project', minimum: 'viewer', request: (f) => json('GET', `/api/projects/${f.projectUuid}/`) },
  {
    name: 'PUT project',
    minimum: 'admin',
    request: (f) =>
      json('PUT', `/api/projects/${f.projectUuid}/`, {
        name: `Renamed ${f.projectUuid}`,
        metadata: { description: 'd' },
      }),
  },
  {
    name: 'PATCH project',
    minimum: 'admin',
    request: (f) => json('PATCH', `/api/projects/${f.projectUuid}/`, { metadata: { description: 'd' } }),
  },
  {
    name: 'DELETE project',
    minimum: 'owner',
    request: (f) =>
      json('DELETE', `/api/projects/${f.projectUuid}/?confirm_name=${encodeURIComponent(f.projectName ?? '')}`),
  },
  {
    name: 'POST upload_logo',
    minimum: 'admin',
    request: (f) => {
      const body = multipartFile('logo', 'logo.png', TINY_PNG);
      return { method: 'POST', url: `/api/projects/${f.projectUuid}/upload_logo/`, ...body };
    },
  },
  { name: 'GET subjects', minimum: 'viewer', request: (f) => json('GET', `/api/projects/${f.projectUuid}/subjects/`) },
  {
    name: 'POST subjects',
    minimum: 'member',
    request: (f) => json('POST', `/api/projects/${f.projectUuid}/subjects/`, { name: 'New' }),
  },
  {
    name: 'POST subjects/bulk-delete',
    minimum: 'admin',
    request: (f) =>
      json('POST', `/api/projects/${f.projectUuid}/subjects/bulk-delete/`, { subject_uuids: [f.subjectUuid] }),
  },
  {
    name: 'GET subject',
    minimum: 'viewer',
    request: (f) => json('GET', `/api/projects/${f.projectUuid}/subjects/${f.subjectUuid}/`),
  },
  {
    name: 'PUT subject',
    minimum: 'member',
    request: (f) => json('PUT', `/api/projects/${f.projectUuid}/subjects/${f.subjectUuid}/`, { name: 'S2' }),
  },
  {
    name: 'PATCH subject',
    minimum: 'member',
    request: (f) => json('PATCH', `/api/projects/${f.projectUuid}/subjects/${f.subjectUuid}/`, { notes: 'n' }),
  },
  {
    name: 'DELETE subject',
    minimum: 'member',
    request: (f) => json('DELETE', `/api/projects/${f.projectUuid}/subjects/${f.subjectUuid}/`),
  },
];

/** Every project-scoped endpoint of the access matrix (`access-matrix.coverage.test.ts` checks none is missing). */
export const accessMatrixEndpoints: Endpoint[] = [
  ...projectEndpoints,
  ...accessMatrixTeamEndpoints,
  ...accessMatrixVideoEndpoints,
  ...accessMatrixAnalysisEndpoints,
  ...accessMatrixTrashEndpoints,
  ...accessMatrixAnnotationEndpoints,
  ...accessMatrixPoseEndpoints,
  ...accessMatrixAgreementEndpoints,
  ...accessMatrixProtocolEndpoints,
  ...accessMatrixBatchEndpoints,
  ...accessMatrixSuggestionEndpoints,
];
