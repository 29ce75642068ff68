import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, createSubjectRow } from '../../../test/factories-videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { videos } from '../../db/schema.js';

describe('GET /api/projects/{uuid}/videos/', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx);
  });
  afterAll(() => t.close());

  it('lists the videos of every subject of the project, newest first, and only that project’s', async () => {
    const { projectUuid, subjectUuid } = await createProjectWithSubject(t.ctx, owner);
    const second = await createSubjectRow(t.ctx, projectUuid, 'M2');
    const other = await createProjectWithSubject(t.ctx, owner);
    const insert = (project: string, subject: string, name: string, minutesAgo: number) =>
      t.ctx.db.insert(videos).values({
        projectUuid: project,
        subjectUuid: subject,
        name,
        originalFilename: `${name}.mp4`,
        status: 'ready',
        createdAt: new Date(Date.now() - minutesAgo * 60_000),
      });
    await insert(projectUuid, subjectUuid, 'day1', 30);
    await insert(projectUuid, second, 'day2', 20);
    await insert(projectUuid, subjectUuid, 'day3', 10);
    await insert(other.projectUuid, other.subjectUuid, 'elsewhere', 1);

    const response = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${projectUuid}/videos/?ordering=-created_at&page_size=2`,
      headers: owner.headers,
    });
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page.count).toBe(3);
    expect(page.results.map((v: { name: string }) => v.name)).toEqual(['day3', 'day2']);
    expect(page.results[1].subject_uuid).toBe(second);
    const searched = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${projectUuid}/videos/?search=day1`,
      headers: owner.headers,
    });
    expect(searched.json().results.map((v: { name: string }) => v.name)).toEqual(['day1']);
  });
});
