import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projects, subjects } from '../src/db/schema.js';
import { LOCKED_MESSAGE } from '../src/lib/access.js';
import { createProject } from '../src/modules/projects/project.service.js';
import { accessMatrixEndpoints as endpoints } from './access-matrix.endpoints.js';
import type { Endpoint, Fixture, MatrixRole } from './access-matrix.types.js';
import { addMember, createUser, type TestUser } from './factories.js';
import { StripeMock } from './stripe-mock.js';
import { createTestApp, type TestApp } from './test-app.js';

const ladder: MatrixRole[] = ['viewer', 'member', 'admin', 'owner'];

type ProjectState = 'active' | 'locked' | 'draft';

/** What a member at or above the endpoint's minimum gets, by the project's state. */
function expectedForAllowedRole(endpoint: Endpoint, who: MatrixRole, state: ProjectState, method: string) {
  if (endpoint.refuses?.includes(who)) return { status: [403] };
  const work = endpoint.work ?? (method === 'GET' || method === 'HEAD' ? 'read' : 'change');
  if (state === 'locked' && (work === 'change' || work === 'process')) {
    return { status: [403], body: { errors: LOCKED_MESSAGE } };
  }
  if (state === 'draft' && work === 'process') {
    return {
      status: [403],
      body: {
        errors:
          'This project is a draft: uploads and analyses start once its Pro subscription is active. The project owner can subscribe on the project page.',
      },
    };
  }
  return { status: [200, 201, 202, 204, 206] };
}

/**
 * Every project-scoped endpoint, as every kind of person, on an active, a locked and a draft project (billing on,
 * against the Stripe mock): outsiders 404; roles below the minimum 403; at or above it success, except that a
 * locked project refuses every change and a draft makes uploads and analyses wait.
 */
describe('access to every project-scoped endpoint', () => {
  let t: TestApp;
  const stripe = new StripeMock();
  let owner: TestUser;
  const people = new Map<MatrixRole | 'outsider', TestUser>();

  beforeAll(async () => {
    await stripe.start();
    t = await createTestApp({ env: stripe.env() });
    owner = await createUser(t.ctx);
    for (const role of ['outsider', ...ladder] as const) {
      people.set(role, role === 'owner' ? owner : await createUser(t.ctx));
    }
  });
  afterAll(async () => {
    await t.close();
    await stripe.stop();
  });

  async function freshFixture(state: ProjectState): Promise<Fixture> {
    const project = await createProject(
      t.ctx,
      { id: owner.id, passwordChangedAt: null },
      {
        name: `P ${Math.random()}`,
        metadata: { description: '', institution: '', principal_investigator: '' },
      },
    );
    await t.ctx.db.update(projects).set({ status: state }).where(eq(projects.projectUuid, project.project_uuid));
    for (const role of ['viewer', 'member', 'admin'] as const) {
      await addMember(t.ctx, project.project_uuid, people.get(role)!.id, role);
    }
    const [subject] = await t.ctx.db
      .insert(subjects)
      .values({ projectUuid: project.project_uuid, name: 'S1' })
      .returning();
    return { projectUuid: project.project_uuid, subjectUuid: subject!.subjectUuid, projectName: project.name };
  }

  for (const state of ['active', 'locked', 'draft'] as const) {
    describe(`on a ${state} project`, () => {
      for (const endpoint of endpoints) {
        it(`${endpoint.name}: outsiders 404, below ${endpoint.minimum} 403, ${endpoint.minimum} and above as the state allows`, async () => {
          for (const who of ['outsider', ...ladder] as const) {
            const fixture = await freshFixture(state);
            await endpoint.prepare?.(t, fixture, owner);
            const user = people.get(who)!;
            const options = endpoint.request(fixture, user);
            const response = await t.app.inject({
              ...options,
              headers: { ...(options.headers as Record<string, string>), ...user.headers },
            });
            const expected =
              who === 'outsider' || (who !== 'owner' && endpoint.hiddenFrom?.includes(who))
                ? { status: [404], body: { errors: 'Not found.' } }
                : ladder.indexOf(who) < ladder.indexOf(endpoint.minimum)
                  ? { status: [403] }
                  : expectedForAllowedRole(endpoint, who, state, options.method ?? 'GET');
            const seen = `${endpoint.name} as ${who}: ${response.statusCode} ${response.body.slice(0, 200)}`;
            expect(expected.status, seen).toContain(response.statusCode);
            // A HEAD answer has the status and headers of the GET, and no body to compare.
            if (expected.body && options.method !== 'HEAD') expect(response.json(), seen).toEqual(expected.body);
          }
        });
      }
    });
  }
});
