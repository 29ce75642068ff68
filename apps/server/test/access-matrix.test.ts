import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitations, subjects } from '../src/db/schema.js';
import { createProject } from '../src/modules/projects/project.service.js';
import { accessMatrixAnalysisEndpoints } from './access-matrix.analysis.js';
import { accessMatrixAnnotationEndpoints } from './access-matrix.annotations.js';
import type { Endpoint, Fixture, MatrixRole } from './access-matrix.types.js';
import { accessMatrixVideoEndpoints } from './access-matrix.videos.js';
import { addMember, createUser, multipartFile, type TestUser, TINY_PNG } from './factories.js';
import { createTestApp, type TestApp } from './test-app.js';

const ladder: MatrixRole[] = ['viewer', 'member', 'admin', 'owner'];

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
  { name: 'DELETE project', minimum: 'owner', request: (f) => json('DELETE', `/api/projects/${f.projectUuid}/`) },
  {
    name: 'POST upload_logo',
    minimum: 'admin',
    request: (f) => {
      const body = multipartFile('logo', 'logo.png', TINY_PNG);
      return { method: 'POST', url: `/api/projects/${f.projectUuid}/upload_logo/`, ...body };
    },
  },
  { name: 'GET members', minimum: 'viewer', request: (f) => json('GET', `/api/projects/${f.projectUuid}/members/`) },
  { name: 'GET subjects', minimum: 'viewer', request: (f) => json('GET', `/api/projects/${f.projectUuid}/subjects/`) },
  {
    name: 'POST subjects',
    minimum: 'member',
    request: (f) => json('POST', `/api/projects/${f.projectUuid}/subjects/`, { name: 'New' }),
  },
  {
    name: 'POST subjects/bulk-delete',
    minimum: 'member',
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

const invitationEndpoints: Endpoint[] = [
  {
    name: 'GET invitations',
    minimum: 'admin',
    request: (f) => json('GET', `/api/projects/${f.projectUuid}/invitations/`),
  },
  {
    name: 'POST invitations',
    minimum: 'admin',
    request: (f) => json('POST', `/api/projects/${f.projectUuid}/invitations/`, { email: 'guest@lab.test' }),
  },
];

const withInvitation: Endpoint['prepare'] = async (t, fixture, owner) => {
  const [row] = await t.ctx.db
    .insert(invitations)
    .values({
      projectUuid: fixture.projectUuid,
      email: `invitee-${Math.random()}@lab.test`,
      role: 'member',
      invitedById: owner.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    .returning();
  fixture.invitationUuid = row!.invitationUuid;
};
const invitationUrl = (f: Fixture) => `/api/projects/${f.projectUuid}/invitations/${f.invitationUuid}/`;
invitationEndpoints.push(
  { name: 'GET invitation', minimum: 'admin', prepare: withInvitation, request: (f) => json('GET', invitationUrl(f)) },
  {
    name: 'PUT invitation',
    minimum: 'admin',
    prepare: withInvitation,
    request: (f) => json('PUT', invitationUrl(f), { role: 'viewer' }),
  },
  {
    name: 'PATCH invitation',
    minimum: 'admin',
    prepare: withInvitation,
    request: (f) => json('PATCH', invitationUrl(f), { status: 'revoked' }),
  },
  {
    name: 'DELETE invitation',
    minimum: 'admin',
    prepare: withInvitation,
    request: (f) => json('DELETE', invitationUrl(f)),
  },
);

const endpoints = [
  ...projectEndpoints,
  ...invitationEndpoints,
  ...accessMatrixVideoEndpoints,
  ...accessMatrixAnalysisEndpoints,
  ...accessMatrixAnnotationEndpoints,
];

describe('access to every project-scoped endpoint', () => {
  let t: TestApp;
  let owner: TestUser;
  const people = new Map<MatrixRole | 'outsider', TestUser>();

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx);
    for (const role of ['outsider', ...ladder] as const) {
      people.set(role, role === 'owner' ? owner : await createUser(t.ctx));
    }
  });
  afterAll(() => t.close());

  async function freshFixture(): Promise<Fixture> {
    const project = await createProject(t.ctx, owner.id, {
      name: `P ${Math.random()}`,
      metadata: { description: '', institution: '', principal_investigator: '' },
    });
    for (const role of ['viewer', 'member', 'admin'] as const) {
      await addMember(t.ctx, project.project_uuid, people.get(role)!.id, role);
    }
    const [subject] = await t.ctx.db
      .insert(subjects)
      .values({ projectUuid: project.project_uuid, name: 'S1' })
      .returning();
    return { projectUuid: project.project_uuid, subjectUuid: subject!.subjectUuid };
  }

  for (const endpoint of endpoints) {
    it(`${endpoint.name}: outsiders 404, below ${endpoint.minimum} 403, ${endpoint.minimum} and above succeed`, async () => {
      for (const who of ['outsider', ...ladder] as const) {
        const fixture = await freshFixture();
        await endpoint.prepare?.(t, fixture, owner);
        const options = endpoint.request(fixture);
        const user = people.get(who)!;
        const response = await t.app.inject({
          ...options,
          headers: { ...(options.headers as Record<string, string>), ...user.headers },
        });
        const expected =
          who === 'outsider'
            ? [404]
            : ladder.indexOf(who) < ladder.indexOf(endpoint.minimum)
              ? [403]
              : [200, 201, 204, 206];
        expect(expected, `${endpoint.name} as ${who}: ${response.statusCode} ${response.body.slice(0, 200)}`).toContain(
          response.statusCode,
        );
        if (who === 'outsider') expect(response.json()).toEqual({ errors: 'Not found.' });
      }
    });
  }
});
