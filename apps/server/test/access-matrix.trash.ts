import { eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { projects, subjects } from '../src/db/schema.js';
import { trashSubject } from '../src/modules/trash/trash.service.js';
import type { Endpoint } from './access-matrix.types.js';

const json = (method: InjectOptions['method'], url: string, payload?: object): InjectOptions => ({
  method,
  url,
  ...(payload ? { payload } : {}),
});

/** A second subject of the project, deleted by the owner: the item to restore. */
const withTrashedSubject: Endpoint['prepare'] = async (t, fixture, owner) => {
  const [subject] = await t.ctx.db
    .insert(subjects)
    .values({ projectUuid: fixture.projectUuid, name: 'Trashed' })
    .returning();
  await trashSubject(t.ctx, owner.id, subject!);
  fixture.trashItemUuid = subject!.subjectUuid;
};

/** The project itself in the trash. */
const inTrash: Endpoint['prepare'] = async (t, fixture, owner) => {
  await t.ctx.db
    .update(projects)
    .set({ deletedAt: sql`now()`, deletedById: owner.id, purgeAt: sql`now() + interval '1 day'` })
    .where(eq(projects.projectUuid, fixture.projectUuid));
};

/** The trash's endpoints (issue 19.3). */
export const accessMatrixTrashEndpoints: Endpoint[] = [
  { name: 'GET trash', minimum: 'member', request: (f) => json('GET', `/api/projects/${f.projectUuid}/trash/`) },
  {
    name: 'POST trash/{item}/restore',
    minimum: 'member',
    prepare: withTrashedSubject,
    request: (f) => json('POST', `/api/projects/${f.projectUuid}/trash/${f.trashItemUuid}/restore/`),
  },
  {
    name: 'DELETE trash (empty)',
    minimum: 'admin',
    prepare: withTrashedSubject,
    request: (f) => json('DELETE', `/api/projects/${f.projectUuid}/trash/`),
  },
  {
    name: 'POST restore (deleted project)',
    minimum: 'owner',
    // Everyone but the owner sees a deleted project as one that does not exist.
    hiddenFrom: ['viewer', 'member', 'admin'],
    prepare: inTrash,
    request: (f) => json('POST', `/api/projects/${f.projectUuid}/restore/`),
  },
];
