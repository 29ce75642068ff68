import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, type ProjectWithSubject } from '../../../test/factories-videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { analyses, analysisEvents, videos } from '../../db/schema.js';

/** The "Getting started" checklist: each step from the project's data, the export from its first download. */
describe('project checklist', () => {
  let t: TestApp;
  let owner: TestUser;
  let viewer: TestUser;
  let project: ProjectWithSubject;
  let url: string;

  const get = (user: TestUser, path: string) => t.app.inject({ method: 'GET', url: path, headers: user.headers });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx);
    viewer = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    url = `/api/projects/${project.projectUuid}/checklist/`;
  });
  afterAll(() => t.close());

  it('ticks each step from what the project holds, and the export once a download answered', async () => {
    expect((await get(owner, url)).json()).toEqual({
      subjects: 1,
      videos_ready: 0,
      runs_succeeded: 0,
      events_reviewed: false,
      exported: false,
    });

    const videoUuid = randomUUID();
    await t.ctx.db.insert(videos).values([
      { videoUuid, ...project, name: 'Ready', originalFilename: 'a.mp4', status: 'ready' },
      { ...project, name: 'Still processing', originalFilename: 'b.mp4', status: 'processing' },
    ]);
    const runValues = { ...project, videoUuid, kind: 'movement_detection' as const, parameters: {} };
    const [run] = await t.ctx.db
      .insert(analyses)
      .values([
        { ...runValues, status: 'succeeded', softwareVersion: 'test' },
        { ...runValues, status: 'failed', softwareVersion: 'test' },
      ])
      .returning();
    await t.ctx.db.insert(analysisEvents).values([
      { analysisUuid: run!.analysisUuid, id: 1, time: 1, originalTime: 1 },
      { analysisUuid: run!.analysisUuid, id: 2, time: 2, originalTime: 2 },
    ]);
    expect((await get(owner, url)).json()).toMatchObject({
      videos_ready: 1,
      runs_succeeded: 1,
      events_reviewed: false,
    });

    // Reviewing one event in Quick Score ticks the review.
    await t.ctx.db
      .update(analysisEvents)
      .set({ reviewedById: owner.id, reviewedAt: new Date() })
      .where(eq(analysisEvents.id, 2));
    expect((await get(owner, url)).json()).toMatchObject({ events_reviewed: true, exported: false });

    // A refused export (bad format) does not count; the project summary downloaded by a viewer does.
    const exportUrl = `/api/projects/${project.projectUuid}/analysis/export/`;
    expect((await get(viewer, `${exportUrl}?format=pdf`)).statusCode).toBe(400);
    expect((await get(owner, url)).json().exported).toBe(false);
    expect((await get(viewer, `${exportUrl}?format=csv`)).statusCode).toBe(200);
    expect((await get(viewer, url)).json()).toEqual({
      subjects: 1,
      videos_ready: 1,
      runs_succeeded: 1,
      events_reviewed: true,
      exported: true,
    });
  });

  it('is 404 for someone outside the project', async () => {
    const outsider = await createUser(t.ctx);
    const answer = await get(outsider, url);
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toHaveProperty('errors');
  });
});
