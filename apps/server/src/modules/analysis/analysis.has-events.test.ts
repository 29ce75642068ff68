import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, type ProjectWithSubject } from '../../../test/factories-videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { analyses, analysisEvents, videos } from '../../db/schema.js';

/** `has_events` on the runs list: Quick Score opens a run that found events when the project has one. */
describe('runs list, has_events', () => {
  let t: TestApp;
  let owner: TestUser;
  let project: ProjectWithSubject;
  const uuids: { empty: string; found: string } = { empty: '', found: '' };

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    const videoUuid = randomUUID();
    await t.ctx.db
      .insert(videos)
      .values({ videoUuid, ...project, name: 'V', originalFilename: 'v.mp4', status: 'ready' });
    const run = (createdAt: Date) => ({
      ...project,
      videoUuid,
      kind: 'movement_detection' as const,
      parameters: {},
      status: 'succeeded' as const,
      softwareVersion: 'test',
      createdAt,
    });
    // The run with events is the older one: the newest run found nothing.
    const [found] = await t.ctx.db
      .insert(analyses)
      .values(run(new Date(Date.now() - 60_000)))
      .returning();
    const [empty] = await t.ctx.db.insert(analyses).values(run(new Date())).returning();
    await t.ctx.db
      .insert(analysisEvents)
      .values({ analysisUuid: found!.analysisUuid, id: 1, time: 1, originalTime: 1 });
    uuids.found = found!.analysisUuid;
    uuids.empty = empty!.analysisUuid;
  });
  afterAll(() => t.close());

  const list = (query: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/projects/${project.projectUuid}/analysis/?status=succeeded&${query}`,
      headers: owner.headers,
    });

  it('keeps only runs with events, or only runs without', async () => {
    const all = (await list('page_size=1')).json();
    expect(all.results[0].analysis_uuid).toBe(uuids.empty);
    const withEvents = (await list('has_events=true&page_size=1')).json();
    expect(withEvents).toMatchObject({ count: 1, results: [{ analysis_uuid: uuids.found, event_count: 1 }] });
    const without = (await list('has_events=false')).json();
    expect(without).toMatchObject({ count: 1, results: [{ analysis_uuid: uuids.empty, event_count: 0 }] });
  });

  it('refuses anything but true or false', async () => {
    const answer = await list('has_events=yes');
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ errors: { has_events: ['Must be true or false.'] } });
  });
});
