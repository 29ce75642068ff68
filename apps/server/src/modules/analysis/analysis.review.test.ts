import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, type ProjectWithSubject } from '../../../test/factories-videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { analyses, analysisEvents, videos } from '../../db/schema.js';

/** Quick Score's server side: review marks, light answers, resume positions and the project's labels. */
describe('Quick Score API', () => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let project: ProjectWithSubject;
  let analysisUrl: string;

  const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });

  /** A ready 60 s video at 30 fps with a succeeded run of `count` events, one a second from 0.5 s. */
  async function runWithEvents(count: number) {
    const videoUuid = randomUUID();
    await t.ctx.db.insert(videos).values({
      videoUuid,
      projectUuid: project.projectUuid,
      subjectUuid: project.subjectUuid,
      name: 'Review video',
      originalFilename: 'review.mp4',
      status: 'ready',
      fps: 30,
      frameCount: 1800,
      durationS: 60,
      width: 320,
      height: 240,
    });
    const [run] = await t.ctx.db
      .insert(analyses)
      .values({
        projectUuid: project.projectUuid,
        subjectUuid: project.subjectUuid,
        videoUuid,
        kind: 'movement_detection',
        parameters: {},
        status: 'succeeded',
        softwareVersion: 'test',
        source: { fps: 30 },
        createdById: owner.id,
        nextEventId: count + 1,
      })
      .returning();
    await t.ctx.db.insert(analysisEvents).values(
      Array.from({ length: count }, (_, i) => ({
        analysisUuid: run!.analysisUuid,
        id: i + 1,
        time: i + 0.5,
        originalTime: i + 0.5,
      })),
    );
    analysisUrl = `${project.videosUrl}${videoUuid}/analysis/`;
    return run!.analysisUuid;
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx, { firstName: 'Olga', lastName: 'Owner' });
    member = await createUser(t.ctx, { firstName: 'Mo', lastName: 'Member' });
    viewer = await createUser(t.ctx);
    outsider = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, member.id, 'member');
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
  });
  afterAll(() => t?.close());

  it('marks events reviewed: by any change, and by review-only calls that need no version and keep it', async () => {
    const run = await runWithEvents(5);
    const update = (user: TestUser, version: number, changes: object[]) =>
      call(user, 'POST', `${analysisUrl}update-events/`, { analysis_uuid: run, version, changes });

    const before = (await call(owner, 'GET', `${analysisUrl}retrieve-events/?analysis_uuid=${run}`)).json();
    expect(before.events[0]).toMatchObject({ reviewed_by: null, reviewed_at: null });

    const flagged = await update(owner, 0, [{ action: 'flag', id: 1 }]);
    expect(flagged.statusCode).toBe(200);
    expect(flagged.json().version).toBe(1);
    expect(flagged.json().events[0]).toMatchObject({
      id: 1,
      flagged: true,
      reviewed_by: { id: owner.id, display_name: 'Olga Owner' },
    });
    expect(flagged.json().events[1].reviewed_by).toBeNull();

    // Moving past events 2 and 3 with an old version: recorded, version unchanged.
    const marks = await update(member, 0, [
      { action: 'review', id: 2 },
      { action: 'review', id: 3 },
    ]);
    expect(marks.statusCode).toBe(200);
    expect(marks.json().version).toBe(1);
    const byId = new Map(marks.json().events.map((e: { id: number }) => [e.id, e]));
    expect(byId.get(2)).toMatchObject({ reviewed_by: { id: member.id }, updated_by: null, flagged: false });
    expect(byId.get(3)).toMatchObject({ reviewed_by: { id: member.id } });
    expect(Date.parse((byId.get(3) as { reviewed_at: string }).reviewed_at)).toBeGreaterThan(Date.now() - 60_000);

    // A data change with that old version is still refused, and a mixed call is a data call.
    expect((await update(member, 0, [{ action: 'discard', id: 4 }])).statusCode).toBe(409);
    const mixed = await update(member, 0, [
      { action: 'review', id: 4 },
      { action: 'discard', id: 4 },
    ]);
    expect(mixed.statusCode).toBe(409);
    expect(mixed.json().version).toBe(1);

    // A mark on an event deleted meanwhile is ignored; other bad changes still refuse the whole call.
    expect((await update(owner, 1, [{ action: 'delete', id: 5 }])).json().version).toBe(2);
    const late = await update(member, 0, [{ action: 'review', id: 5 }]);
    expect(late.statusCode).toBe(200);
    expect(late.json().events.map((e: { id: number }) => e.id)).toEqual([1, 2, 3, 4]);
    expect((await update(member, 2, [{ action: 'flag', id: 5 }])).json()).toEqual({
      errors: { changes: ['Change 1: event 5 does not exist.'] },
    });

    // Viewers mark nothing.
    expect((await update(viewer, 2, [{ action: 'review', id: 4 }])).statusCode).toBe(403);
  });

  it("keeps the first decision's author and time when someone else steps past the event, and the last look apart", async () => {
    const ada = await createUser(t.ctx, { firstName: 'Ada', lastName: 'Lovelace' });
    const bob = await createUser(t.ctx, { firstName: 'Bob', lastName: 'Marley' });
    await addMember(t.ctx, project.projectUuid, ada.id, 'member');
    await addMember(t.ctx, project.projectUuid, bob.id, 'member');
    const run = await runWithEvents(3);
    const update = (user: TestUser, version: number, changes: object[]) =>
      call(user, 'POST', `${analysisUrl}update-events/`, { analysis_uuid: run, version, changes });

    // Ada discards event 1 and steps past event 2 (a confirmation: her decision too).
    const decided = await update(ada, 0, [{ action: 'discard', id: 1 }]);
    expect(decided.statusCode).toBe(200);
    await update(ada, 1, [{ action: 'review', id: 2 }]);
    const adaTimes = new Map(
      decided.json().events.map((e: { id: number; reviewed_at: string }) => [e.id, e.reviewed_at]),
    );
    const adaAt1 = adaTimes.get(1) as string;
    expect(adaAt1).toEqual(expect.any(String));
    const adaAt2 = (await call(ada, 'GET', `${analysisUrl}retrieve-events/?analysis_uuid=${run}`))
      .json()
      .events.find((e: { id: number }) => e.id === 2).reviewed_at as string;

    // Bob opens the run later and presses → past events 1 and 2.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(
      (
        await update(bob, 0, [
          { action: 'review', id: 1 },
          { action: 'review', id: 2 },
        ])
      ).statusCode,
    ).toBe(200);
    const after = (await call(owner, 'GET', `${analysisUrl}retrieve-events/?analysis_uuid=${run}`)).json();
    const [one, two, three] = after.events;
    expect(one).toMatchObject({
      discarded: true,
      reviewed_by: { id: ada.id, display_name: 'Ada Lovelace' },
      reviewed_at: adaAt1,
      last_viewed_by: { id: bob.id, display_name: 'Bob Marley' },
    });
    expect(Date.parse(one.last_viewed_at)).toBeGreaterThan(Date.parse(adaAt1));
    expect(two).toMatchObject({ reviewed_by: { id: ada.id }, reviewed_at: adaAt2, last_viewed_by: { id: bob.id } });
    expect(three).toMatchObject({ reviewed_by: null, reviewed_at: null, last_viewed_by: null, last_viewed_at: null });

    // A later real change by Bob is the last change and the last look, not the decision's author.
    await update(bob, 1, [{ action: 'flag', id: 1 }]);
    const changed = (await call(owner, 'GET', `${analysisUrl}retrieve-events/?analysis_uuid=${run}`)).json().events[0];
    expect(changed).toMatchObject({
      reviewed_by: { id: ada.id },
      reviewed_at: adaAt1,
      updated_by: { id: bob.id },
      last_viewed_by: { id: bob.id },
    });

    // The export says the same, under headers that say which is which.
    const csv = await call(owner, 'GET', `${analysisUrl}${run}/export/?table=events&format=csv`);
    const [header, row1, row2] = csv.body
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    const cell = (row: string[] | undefined, column: string) => row![header!.indexOf(column)];
    expect(cell(row1, 'reviewed_by')).toBe('Ada Lovelace');
    expect(cell(row1, 'reviewed_at')).toBe(adaAt1);
    expect(cell(row1, 'last_viewed_by')).toBe('Bob Marley');
    expect(cell(row1, 'last_viewed_at')).toBe(changed.last_viewed_at);
    expect(cell(row2, 'reviewed_by')).toBe('Ada Lovelace');
    expect(cell(row2, 'reviewed_at')).toBe(adaAt2);
    expect(cell(row2, 'last_viewed_by')).toBe('Bob Marley');
  });

  it('answers only the touched events on request, with the ids of added ones in order', async () => {
    const run = await runWithEvents(40);
    const answer = await call(owner, 'POST', `${analysisUrl}update-events/`, {
      analysis_uuid: run,
      version: 0,
      answer: 'changed',
      changes: [
        { action: 'add', time: 10.1, label: 'left hand' },
        { action: 'label', id: 7, label: 'paw' },
        { action: 'add', time: 0.1 },
        { action: 'delete', id: 8 },
        { action: 'move', id: 9, time: 7.5 },
      ],
    });
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body.version).toBe(1);
    expect(body.added_ids).toEqual([41, 42]);
    // By time: 42 (0.1 s), 7 (6.5 s), 9 (7.5 s), 41 (10.1 s); the deleted one is gone.
    expect(body.events.map((e: { id: number }) => e.id)).toEqual([42, 7, 9, 41]);
    expect(body.events[3]).toMatchObject({ label: 'left hand', original_time: null, reviewed_by: { id: owner.id } });

    // Where event 8 was (7.5 s) is free again after its delete and 9's move there, in one call; 9 now holds it.
    const clash = await call(owner, 'POST', `${analysisUrl}update-events/`, {
      analysis_uuid: run,
      version: 1,
      changes: [{ action: 'add', time: 7.5 + 0.01 }],
    });
    expect(clash.json()).toEqual({ errors: { changes: ['Change 1: there is already an event at 7.51 s.'] } });
    const swap = await call(owner, 'POST', `${analysisUrl}update-events/`, {
      analysis_uuid: run,
      version: 1,
      answer: 'changed',
      changes: [
        { action: 'move', id: 9, time: 8.5 },
        { action: 'add', time: 7.5 },
      ],
    });
    expect(swap.statusCode).toBe(200);
    expect(swap.json().added_ids).toEqual([43]);
    expect(swap.json().events.map((e: { id: number; time: number }) => [e.id, e.time])).toEqual([
      [43, 7.5],
      [9, 8.5],
    ]);
  });

  it('keeps each user’s place in each run, for viewers too, and only on events of the run', async () => {
    const run = await runWithEvents(3);
    const url = `${analysisUrl}${run}/review-position/`;
    expect((await call(owner, 'GET', url)).json()).toEqual({ analysis_uuid: run, event_id: null, updated_at: null });

    const saved = await call(owner, 'PUT', url, { event_id: 2 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ analysis_uuid: run, event_id: 2 });
    expect((await call(owner, 'PUT', url, { event_id: 3 })).json().event_id).toBe(3);
    expect((await call(owner, 'GET', url)).json()).toMatchObject({ event_id: 3 });

    // A viewer keeps a place of their own; the owner's is untouched.
    expect((await call(viewer, 'PUT', url, { event_id: 1 })).statusCode).toBe(200);
    expect((await call(viewer, 'GET', url)).json().event_id).toBe(1);
    expect((await call(owner, 'GET', url)).json().event_id).toBe(3);

    expect((await call(owner, 'PUT', url, { event_id: 99 })).json()).toEqual({
      errors: { event_id: ['This run has no event with that id.'] },
    });
    expect((await call(owner, 'PUT', url, {})).json()).toEqual({
      errors: { event_id: ['event_id must be an event id.'] },
    });
    expect((await call(outsider, 'GET', url)).statusCode).toBe(404);
    expect((await call(owner, 'GET', `${analysisUrl}${randomUUID()}/review-position/`)).statusCode).toBe(404);
  });

  it('lists the labels events were given and those saved on their own, without duplicates in any case', async () => {
    const run = await runWithEvents(3);
    const labelsUrl = `/api/projects/${project.projectUuid}/labels/`;
    await call(owner, 'POST', `${analysisUrl}update-events/`, {
      analysis_uuid: run,
      version: 0,
      changes: [
        { action: 'label', id: 1, label: 'twitch' },
        { action: 'add', time: 30, label: 'Twitch' },
      ],
    });
    const created = await call(member, 'POST', labelsUrl, { name: '  right hind paw ' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'right hind paw' });
    const again = await call(member, 'POST', labelsUrl, { name: 'RIGHT HIND PAW' });
    expect(again.statusCode).toBe(200);
    expect(again.json().name).toBe('right hind paw');

    const list = (await call(viewer, 'GET', `${labelsUrl}?page_size=500`)).json();
    expect(list.results.map((l: { name: string }) => l.name)).toEqual(
      expect.arrayContaining(['right hind paw', 'twitch']),
    );
    expect(list.results.filter((l: { name: string }) => l.name.toLowerCase() === 'twitch')).toHaveLength(1);
    const searched = (await call(viewer, 'GET', `${labelsUrl}?search=hind`)).json();
    expect(searched.results.map((l: { name: string }) => l.name)).toEqual(['right hind paw']);

    expect((await call(member, 'POST', labelsUrl, { name: '   ' })).json()).toEqual({
      errors: { name: ['A label needs a name.'] },
    });
    expect((await call(viewer, 'POST', labelsUrl, { name: 'tail' })).statusCode).toBe(403);
    expect((await call(outsider, 'GET', labelsUrl)).statusCode).toBe(404);
  });

  it('exports who reviewed each event and when, and counts reviewed events in the project summary', async () => {
    const run = await runWithEvents(3);
    await call(member, 'POST', `${analysisUrl}update-events/`, {
      analysis_uuid: run,
      version: 0,
      changes: [{ action: 'review', id: 2 }],
    });
    const csv = await call(owner, 'GET', `${analysisUrl}${run}/export/?table=events&format=csv`);
    const rows = csv.body.trim().split('\r\n');
    // The suggestion columns (ADR 038) come after these, which keep their places.
    expect(rows[0]).toMatch(
      /^id,time,original_time,label,flagged,discarded,reviewed_by,reviewed_at,last_viewed_by,last_viewed_at,suggestion_/,
    );
    expect(rows[1]).toMatch(/^1,0\.5,0\.5,,false,false,,,,,/);
    expect(rows[2]).toMatch(/^2,1\.5,1\.5,,false,false,Mo Member,\d{4}-\d{2}-\d{2}T[^,]+,Mo Member,\d{4}-/);

    const xlsx = await call(owner, 'GET', `${analysisUrl}${run}/export/?table=events&format=xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toContain('reviewed_by');
    expect(sheet.getRow(3).getCell(7).value).toBe('Mo Member');

    const summary = await call(owner, 'GET', `/api/projects/${project.projectUuid}/analysis/export/?format=csv`);
    const lines = summary.body.trim().split('\r\n');
    const header = lines[0]!.split(',');
    const cells = lines.find((line) => line.includes(run))!.split(',');
    expect(cells[header.indexOf('reviewed')]).toBe('1');
  });
});
