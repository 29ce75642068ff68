import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { pendingFileDeletions, projects, subjects, users, videos } from '../../db/schema.js';
import { legacyVideoStoragePrefix, videoStoragePrefix } from '../../lib/storage-keys.js';
import { deleteProject } from '../projects/project.service.js';

describe('subjects', () => {
  let t: TestApp;
  let owner: TestUser;
  let viewer: TestUser;
  let projectUuid: string;
  let base: string;

  const post = (user: TestUser, url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: user.headers, payload: payload as object });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx);
    viewer = await createUser(t.ctx);
    projectUuid = (await post(owner, '/api/projects/', { name: 'Subjects' })).json().project_uuid;
    await addMember(t.ctx, projectUuid, viewer.id, 'viewer');
    base = `/api/projects/${projectUuid}/subjects/`;
  });
  afterAll(() => t.close());

  it('creates a subject with group, notes and free metadata', async () => {
    const response = await post(owner, base, {
      name: 'M12',
      group: 'control',
      notes: 'left ear mark',
      metadata: { sex: 'F', strain: 'C57BL/6J', weight_g: 21.5, implanted: true },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      project_uuid: projectUuid,
      name: 'M12',
      group: 'control',
      notes: 'left ear mark',
      metadata: { sex: 'F', strain: 'C57BL/6J', weight_g: 21.5, implanted: true },
      video_count: 0,
    });
  });

  it('validates names and metadata with field errors', async () => {
    expect((await post(owner, base, { name: '' })).json()).toEqual({
      errors: { name: ['This field may not be blank.'] },
    });
    expect((await post(owner, base, {})).json()).toEqual({ errors: { name: ['This field is required.'] } });
    const duplicate = await post(owner, base, { name: 'm12' });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json()).toEqual({ errors: { name: ['A subject named "m12" already exists in this project.'] } });
    const nested = await post(owner, base, { name: 'M13', metadata: { deep: { no: 1 } } });
    expect(nested.statusCode).toBe(400);
    expect(Object.keys(nested.json().errors)[0]).toMatch(/^metadata/);
  });

  it('lists with search, ordering and pagination', async () => {
    for (const [name, group] of [
      ['M1', 'treated'],
      ['M2', 'control'],
      ['R7', 'treated'],
    ]) {
      await post(owner, base, { name, group });
    }
    const all = await t.app.inject({ method: 'GET', url: base, headers: viewer.headers });
    expect(all.json().count).toBe(4);
    expect(all.json().results.map((s: { name: string }) => s.name)).toEqual(['M1', 'M12', 'M2', 'R7']);
    const treated = await t.app.inject({
      method: 'GET',
      url: `${base}?search=treat&ordering=-name`,
      headers: viewer.headers,
    });
    expect(treated.json().results.map((s: { name: string }) => s.name)).toEqual(['R7', 'M1']);
    const page = await t.app.inject({ method: 'GET', url: `${base}?page=2&page_size=3`, headers: viewer.headers });
    expect(page.json()).toMatchObject({ count: 4, next: null });
    expect(page.json().results).toHaveLength(1);
    expect(page.json().previous).toContain('page=1');
    const byGroup = await t.app.inject({ method: 'GET', url: `${base}?ordering=group`, headers: viewer.headers });
    expect(byGroup.json().results[0].group).toBe('control');
  });

  it('reads, replaces and patches a subject; another project’s subject is 404', async () => {
    const created = (await post(owner, base, { name: 'P1', group: 'a', notes: 'n' })).json();
    const url = `${base}${created.subject_uuid}/`;
    expect((await t.app.inject({ method: 'GET', url, headers: viewer.headers })).json().name).toBe('P1');
    const patched = await t.app.inject({ method: 'PATCH', url, headers: owner.headers, payload: { notes: 'changed' } });
    expect(patched.json()).toMatchObject({ name: 'P1', group: 'a', notes: 'changed' });
    const put = await t.app.inject({ method: 'PUT', url, headers: owner.headers, payload: { name: 'P2' } });
    expect(put.json()).toMatchObject({ name: 'P2', group: '', notes: '' });
    const rename = await t.app.inject({ method: 'PATCH', url, headers: owner.headers, payload: { name: 'M1' } });
    expect(rename.statusCode).toBe(400);

    const elsewhere = (await post(owner, '/api/projects/', { name: 'Elsewhere' })).json().project_uuid;
    const crossed = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${elsewhere}/subjects/${created.subject_uuid}/`,
      headers: owner.headers,
    });
    expect(crossed.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `${base}nope/`, headers: owner.headers })).statusCode).toBe(404);
  });

  it('gives viewers read access only', async () => {
    const created = await post(viewer, base, { name: 'V1' });
    expect(created.statusCode).toBe(403);
    expect(created.json()).toEqual({ errors: 'Viewers have read-only access to this project.' });
  });

  it('deletes a subject with its videos’ files, in the current layout and the one from before migration 0010', async () => {
    const subject = (await post(owner, base, { name: 'D1' })).json();
    const files = path.join(t.dataDir, 'files');
    const [current] = await t.ctx.db
      .insert(videos)
      .values({
        projectUuid,
        subjectUuid: subject.subject_uuid,
        name: 'now',
        originalFilename: 'now.mp4',
        status: 'ready',
      })
      .returning();
    const currentDir = path.join(files, videoStoragePrefix(current!));
    const legacyPrefix = legacyVideoStoragePrefix(projectUuid, subject.subject_uuid, 'old');
    const [legacy] = await t.ctx.db
      .insert(videos)
      .values({
        projectUuid,
        subjectUuid: subject.subject_uuid,
        name: 'old',
        originalFilename: 'old.mp4',
        status: 'ready',
        legacyStoragePrefix: legacyPrefix,
      })
      .returning();
    for (const dir of [path.join(currentDir, 'analyses', 'a'), path.join(files, legacyPrefix)]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'original.mp4'), 'x');
    }
    const response = await t.app.inject({
      method: 'DELETE',
      url: `${base}${subject.subject_uuid}/`,
      headers: owner.headers,
    });
    expect(response.statusCode).toBe(204);
    expect(await t.ctx.db.select().from(videos).where(eq(videos.videoUuid, legacy!.videoUuid))).toEqual([]);
    // In the trash the files stay; emptying it removes both layouts' folders.
    expect(existsSync(currentDir)).toBe(true);
    expect(existsSync(path.join(files, legacyPrefix))).toBe(true);
    const emptied = await t.app.inject({
      method: 'DELETE',
      url: `/api/projects/${projectUuid}/trash/`,
      headers: owner.headers,
    });
    expect(emptied.statusCode).toBe(200);
    expect(existsSync(currentDir)).toBe(false);
    expect(existsSync(path.join(files, legacyPrefix))).toBe(false);
    expect(await t.ctx.db.select().from(pendingFileDeletions)).toEqual([]);
  });

  it('bulk-deletes all listed subjects, or none when one is unknown', async () => {
    const a = (await post(owner, base, { name: 'B1' })).json().subject_uuid;
    const b = (await post(owner, base, { name: 'B2' })).json().subject_uuid;
    const unknown = '00000000-0000-4000-8000-000000000000';
    const refused = await post(owner, `${base}bulk-delete/`, { subject_uuids: [a, unknown] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.subject_uuids[0]).toContain(unknown);
    expect(await t.ctx.db.select().from(subjects).where(eq(subjects.subjectUuid, a))).toHaveLength(1);
    expect((await post(owner, `${base}bulk-delete/`, { subject_uuids: [] })).statusCode).toBe(400);
    expect((await post(viewer, `${base}bulk-delete/`, { subject_uuids: [a, b] })).statusCode).toBe(403);
    const done = await post(owner, `${base}bulk-delete/`, { subject_uuids: [a, b] });
    expect(done.statusCode).toBe(204);
    expect(await t.ctx.db.select().from(subjects).where(eq(subjects.subjectUuid, b))).toHaveLength(0);
  });

  it('counts each subject’s own videos', async () => {
    const withVideos = (await post(owner, base, { name: 'Counted1' })).json().subject_uuid;
    const without = (await post(owner, base, { name: 'Counted2' })).json().subject_uuid;
    for (const name of ['a', 'b']) {
      await t.ctx.db
        .insert(videos)
        .values({ projectUuid, subjectUuid: withVideos, name, originalFilename: `${name}.mp4`, status: 'ready' });
    }
    const one = async (uuid: string) =>
      (await t.app.inject({ method: 'GET', url: `${base}${uuid}/`, headers: owner.headers })).json().video_count;
    expect(await one(withVideos)).toBe(2);
    expect(await one(without)).toBe(0);
    const list = await t.app.inject({
      method: 'GET',
      url: `${base}?search=Counted&ordering=-video_count`,
      headers: owner.headers,
    });
    expect(list.json().results.map((s: { name: string; video_count: number }) => [s.name, s.video_count])).toEqual([
      ['Counted1', 2],
      ['Counted2', 0],
    ]);
    const project = await t.app.inject({ method: 'GET', url: `/api/projects/${projectUuid}/`, headers: owner.headers });
    expect(project.json().counts.videos).toBe(2);
  });

  it('keeps each subject’s video count exact through inserts, moves and deletes, and lists it as the detail does', async () => {
    const other = (await post(owner, '/api/projects/', { name: 'Video counts' })).json().project_uuid as string;
    const url = `/api/projects/${other}/subjects/`;
    const a = (
      await post(owner, url, { name: 'VA', notes: 'tab\tquote" \u00e9', metadata: { n: 1.5, s: 'x' } })
    ).json();
    const b = (await post(owner, url, { name: 'VB' })).json();
    const c = (await post(owner, url, { name: 'VC' })).json();
    const video = (subjectUuid: string, name: string) => ({
      projectUuid: other,
      subjectUuid,
      name,
      originalFilename: `${name}.mp4`,
      status: 'ready' as const,
    });
    // One statement inserting into several subjects, then single rows.
    await t.ctx.db
      .insert(videos)
      .values([video(a.subject_uuid, 'a1'), video(a.subject_uuid, 'a2'), video(b.subject_uuid, 'b1')]);
    const [moved] = await t.ctx.db.insert(videos).values(video(a.subject_uuid, 'a3')).returning();
    // A video moved to another subject, then an update that leaves the subject alone.
    await t.ctx.db.update(videos).set({ subjectUuid: c.subject_uuid }).where(eq(videos.videoUuid, moved!.videoUuid));
    await t.ctx.db.update(videos).set({ name: 'renamed' }).where(eq(videos.videoUuid, moved!.videoUuid));
    const counts = async () => {
      const rows = await t.ctx.db.select().from(subjects).where(eq(subjects.projectUuid, other));
      return Object.fromEntries(rows.map((row) => [row.name, row.videoCount]));
    };
    expect(await counts()).toEqual({ VA: 2, VB: 1, VC: 1 });
    // The list (array rows) answers exactly what the detail and the search (Drizzle rows) answer, byte for byte.
    for (const ordering of ['name', '-video_count', 'created_at', '-updated_at', 'group']) {
      const list = await t.app.inject({ method: 'GET', url: `${url}?ordering=${ordering}`, headers: owner.headers });
      const search = await t.app.inject({
        method: 'GET',
        url: `${url}?ordering=${ordering}&search=V`,
        headers: owner.headers,
      });
      expect(list.statusCode).toBe(200);
      expect(JSON.stringify(list.json().results)).toBe(JSON.stringify(search.json().results));
      for (const item of list.json().results as { subject_uuid: string }[]) {
        const detail = await t.app.inject({
          method: 'GET',
          url: `${url}${item.subject_uuid}/`,
          headers: owner.headers,
        });
        expect(JSON.stringify(item)).toBe(detail.body);
      }
    }
    const listed = (
      await t.app.inject({ method: 'GET', url: `${url}?ordering=-video_count`, headers: owner.headers })
    ).json();
    // Most videos first; ties in the subjects' id order.
    const ties = [
      ['VB', b.subject_uuid as string],
      ['VC', c.subject_uuid as string],
    ].sort((x, y) => (x[1]! < y[1]! ? -1 : 1));
    expect(listed.results.map((s: { name: string; video_count: number }) => [s.name, s.video_count])).toEqual([
      ['VA', 2],
      ...ties.map(([name]) => [name, 1]),
    ]);
    expect(listed.results[0]).toMatchObject({ notes: 'tab\tquote" \u00e9', metadata: { n: 1.5, s: 'x' } });
    // Deleting videos (one statement across subjects), then a subject with its videos.
    await t.ctx.db.delete(videos).where(eq(videos.name, 'a1'));
    await t.ctx.db.delete(videos).where(eq(videos.projectUuid, other));
    expect(await counts()).toEqual({ VA: 0, VB: 0, VC: 0 });
    await t.ctx.db.insert(videos).values([video(b.subject_uuid, 'b2'), video(c.subject_uuid, 'c2')]);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${url}${b.subject_uuid}/`, headers: owner.headers })).statusCode,
    ).toBe(204);
    expect(await counts()).toEqual({ VA: 0, VC: 1 });
  });

  it('counts subjects on the project', async () => {
    const project = await t.app.inject({ method: 'GET', url: `/api/projects/${projectUuid}/`, headers: owner.headers });
    const list = await t.app.inject({ method: 'GET', url: `${base}?page_size=1`, headers: owner.headers });
    expect(project.json().counts.subjects).toBe(list.json().count);
  });

  it('keeps the list’s maintained count exact through every kind of insert and delete', async () => {
    const other = (await post(owner, '/api/projects/', { name: 'Counted' })).json().project_uuid as string;
    const url = `/api/projects/${other}/subjects/`;
    const ids: string[] = [];
    for (let i = 1; i <= 7; i++) ids.push((await post(owner, url, { name: `C${i}` })).json().subject_uuid);
    expect((await post(owner, url, { name: 'c1' })).statusCode).toBe(400);
    // Written past the service too (the triggers count what the table holds, however it got there).
    await t.ctx.db.insert(subjects).values([
      { projectUuid: other, name: 'Direct1' },
      { projectUuid: other, name: 'Direct2' },
    ]);
    expect((await t.app.inject({ method: 'DELETE', url: `${url}${ids[0]}/`, headers: owner.headers })).statusCode).toBe(
      204,
    );
    expect((await post(owner, `${url}bulk-delete/`, { subject_uuids: [ids[1], ids[2]] })).statusCode).toBe(204);
    const list = async (query: string) =>
      (await t.app.inject({ method: 'GET', url: `${url}${query}`, headers: viewer.headers })).json();
    // The viewer is not a member of this project yet.
    expect((await t.app.inject({ method: 'GET', url, headers: viewer.headers })).statusCode).toBe(404);
    await addMember(t.ctx, other, viewer.id, 'viewer');
    const rows = await t.ctx.db.select().from(subjects).where(eq(subjects.projectUuid, other));
    expect(rows).toHaveLength(6);
    const first = await list('?page_size=4');
    expect(first.count).toBe(6);
    expect(first.results.map((s: { name: string }) => s.name)).toEqual(['C4', 'C5', 'C6', 'C7']);
    expect(first.next).toContain('page=2');
    const second = await list('?page_size=4&page=2');
    expect(second).toMatchObject({ count: 6, next: null });
    expect(second.results.map((s: { name: string }) => s.name)).toEqual(['Direct1', 'Direct2']);
    const beyond = await list('?page_size=4&page=5');
    expect(beyond).toMatchObject({ count: 6, results: [] });
    expect((await list('?search=direct')).count).toBe(2);
    // The first project's count did not move with the second's.
    const [mine] = await t.ctx.db.select().from(projects).where(eq(projects.projectUuid, projectUuid));
    const mineRows = await t.ctx.db.select().from(subjects).where(eq(subjects.projectUuid, projectUuid));
    expect(mine!.subjectCount).toBe(mineRows.length);
    // Deleting the project for good (the trash's purge) cascades to its subjects without tripping the triggers.
    await deleteProject(t.ctx, other);
    expect(await t.ctx.db.select().from(subjects).where(eq(subjects.projectUuid, other))).toHaveLength(0);
  });

  it('checks the token’s user, membership and project in one step, in the same order as before', async () => {
    const member = await createUser(t.ctx);
    await addMember(t.ctx, projectUuid, member.id, 'member');
    const get = (user: TestUser, url = base) => t.app.inject({ method: 'GET', url, headers: user.headers });
    expect((await get(member)).statusCode).toBe(200);
    // A malformed project id is a 404 for a valid user…
    expect((await get(member, '/api/projects/not-a-uuid/subjects/')).statusCode).toBe(404);
    // …but the token's user is checked first: a password changed after the token was issued ends it, here too.
    await t.ctx.db
      .update(users)
      .set({ passwordChangedAt: new Date(Date.now() + 2000) })
      .where(eq(users.id, member.id));
    const outdated = await get(member);
    expect(outdated.statusCode).toBe(401);
    expect(outdated.json()).toEqual({ errors: 'Given token not valid for any token type' });
    expect((await get(member, '/api/projects/not-a-uuid/subjects/')).statusCode).toBe(401);
    // A removed user's token (still cached as verified) finds no user.
    const gone = await createUser(t.ctx);
    await addMember(t.ctx, projectUuid, gone.id, 'viewer');
    expect((await get(gone)).statusCode).toBe(200);
    await t.ctx.db.delete(users).where(eq(users.id, gone.id));
    const missing = await get(gone);
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ errors: 'User not found.' });
    // A viewer is refused a change with 403, after the membership is found.
    expect((await post(viewer, base, { name: 'Nope' })).statusCode).toBe(403);
  });
});
