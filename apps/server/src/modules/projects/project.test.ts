import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, multipartFile, type TestUser, TINY_PNG } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { analyses, projects, videos } from '../../db/schema.js';
import { purgeDue } from '../trash/trash.purge.js';

describe('projects', () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;

  const create = (user: TestUser, body: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/projects/', headers: user.headers, payload: body as object });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx, { firstName: 'Ada', lastName: 'Lovelace' });
    other = await createUser(t.ctx);
  });
  afterAll(() => t.close());

  it('creates a project whose creator is its owner', async () => {
    const response = await create(owner, {
      name: 'Sleep study',
      metadata: { description: 'Twitches in P8 rats', institution: 'Lab U', principal_investigator: 'Dr. B' },
    });
    expect(response.statusCode).toBe(201);
    const project = response.json();
    expect(project).toMatchObject({
      name: 'Sleep study',
      metadata: { description: 'Twitches in P8 rats', institution: 'Lab U', principal_investigator: 'Dr. B' },
      status: 'active',
      role: 'owner',
      owner: { id: owner.id, display_name: 'Ada Lovelace' },
      counts: { subjects: 0, videos: 0, analyses: 0 },
      storage_bytes: 0,
      logo_url: null,
    });
    expect(project.project_uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a blank name and a name the owner already uses, with field errors', async () => {
    const blank = await create(owner, { name: '  ', metadata: {} });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ errors: { name: ['This field may not be blank.'] } });
    const taken = await create(owner, { name: 'SLEEP STUDY' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ errors: { name: ['You already have a project named "SLEEP STUDY".'] } });
    // Another user may use the same name.
    expect((await create(other, { name: 'Sleep study' })).statusCode).toBe(201);
  });

  it('requires a body and sign-in', async () => {
    const noBody = await t.app.inject({ method: 'POST', url: '/api/projects/', headers: owner.headers });
    expect(noBody.statusCode).toBe(400);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/projects/' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ errors: 'Authentication credentials were not provided.' });
    const badToken = await t.app.inject({
      method: 'GET',
      url: '/api/projects/',
      headers: { authorization: 'Bearer nope' },
    });
    expect(badToken.statusCode).toBe(401);
  });

  it('lists only the caller’s projects, paginated, searchable and ordered', async () => {
    for (const name of ['Fear conditioning', 'Open field', 'Reaching']) await create(owner, { name });
    const page1 = await t.app.inject({ method: 'GET', url: '/api/projects/?page_size=2', headers: owner.headers });
    expect(page1.statusCode).toBe(200);
    const body = page1.json();
    expect(body.count).toBe(4);
    expect(body.results.map((p: { name: string }) => p.name)).toEqual(['Fear conditioning', 'Open field']);
    expect(body.previous).toBeNull();
    expect(body.next).toContain('page=2');
    const page2 = await t.app.inject({
      method: 'GET',
      url: new URL(body.next).pathname + new URL(body.next).search,
      headers: owner.headers,
    });
    expect(page2.json().results.map((p: { name: string }) => p.name)).toEqual(['Reaching', 'Sleep study']);
    expect(page2.json().next).toBeNull();

    const searched = await t.app.inject({ method: 'GET', url: '/api/projects/?search=open', headers: owner.headers });
    expect(searched.json().results.map((p: { name: string }) => p.name)).toEqual(['Open field']);
    const reversed = await t.app.inject({
      method: 'GET',
      url: '/api/projects/?ordering=-name',
      headers: owner.headers,
    });
    expect(reversed.json().results[0].name).toBe('Sleep study');
    const others = await t.app.inject({ method: 'GET', url: '/api/projects/', headers: other.headers });
    expect(others.json().count).toBe(1);
    // Past the last page the list is empty and still counts (the total otherwise comes with the page's rows).
    const beyond = await t.app.inject({
      method: 'GET',
      url: '/api/projects/?page_size=2&page=7',
      headers: owner.headers,
    });
    expect(beyond.json()).toMatchObject({ count: 4, next: null, results: [] });
    expect(beyond.json().previous).toContain('page=2');
  });

  it('keeps the video and analysis counts exact, for the project and for its lists', async () => {
    const project = (await create(owner, { name: 'Counted runs' })).json().project_uuid as string;
    const url = `/api/projects/${project}`;
    const subject = async (name: string) =>
      (
        await t.app.inject({ method: 'POST', url: `${url}/subjects/`, headers: owner.headers, payload: { name } })
      ).json().subject_uuid as string;
    const [s1, s2] = [await subject('S1'), await subject('S2')];
    const inserted = await t.ctx.db
      .insert(videos)
      .values(
        ['v1', 'v2', 'v3'].map((name, i) => ({
          projectUuid: project,
          subjectUuid: i === 0 ? s2 : s1,
          name,
          originalFilename: `${name}.mp4`,
          status: 'ready' as const,
        })),
      )
      .returning();
    const run = (videoUuid: string, subjectUuid: string) => ({
      projectUuid: project,
      subjectUuid,
      videoUuid,
      kind: 'movement_detection' as const,
      parameters: {},
      status: 'succeeded' as const,
      softwareVersion: 'test',
    });
    await t.ctx.db.insert(analyses).values(inserted.map((v) => run(v.videoUuid, v.subjectUuid)));
    await t.ctx.db.insert(analyses).values(run(inserted[1]!.videoUuid, s1));
    const get = async (path: string) =>
      (await t.app.inject({ method: 'GET', url: `${url}${path}`, headers: owner.headers })).json();
    const figures = async () => {
      const detail = await get('/');
      const listed = (await t.app.inject({ method: 'GET', url: '/api/projects/', headers: owner.headers }))
        .json()
        .results.find((p: { project_uuid: string }) => p.project_uuid === project);
      expect(listed.counts).toEqual(detail.counts);
      return {
        ...detail.counts,
        videoList: (await get('/videos/?page_size=1')).count,
        s1Videos: (await get(`/subjects/${s1}/videos/?page_size=1`)).count,
        runList: (await get('/analysis/?page_size=1')).count,
        runsOfS1: (await get(`/analysis/?subject=${s1}`)).count,
      };
    };
    expect(await figures()).toEqual({
      subjects: 2,
      videos: 3,
      analyses: 4,
      videoList: 3,
      s1Videos: 2,
      runList: 4,
      runsOfS1: 3,
    });
    // Past the last page: no rows, the same total.
    expect(await get('/analysis/?page_size=2&page=9')).toMatchObject({ count: 4, results: [] });
    expect(await get('/videos/?page_size=2&page=9')).toMatchObject({ count: 3, results: [] });
    // Deleting a video takes its runs (cascade); deleting a subject takes its videos and their runs.
    await t.ctx.db.delete(videos).where(eq(videos.videoUuid, inserted[1]!.videoUuid));
    expect(await figures()).toEqual({
      subjects: 2,
      videos: 2,
      analyses: 2,
      videoList: 2,
      s1Videos: 1,
      runList: 2,
      runsOfS1: 1,
    });
    expect(
      (await t.app.inject({ method: 'DELETE', url: `${url}/subjects/${s2}/`, headers: owner.headers })).statusCode,
    ).toBe(204);
    expect(await figures()).toEqual({
      subjects: 1,
      videos: 1,
      analyses: 1,
      videoList: 1,
      s1Videos: 1,
      runList: 1,
      runsOfS1: 1,
    });
    const [row] = await t.ctx.db.select().from(projects).where(eq(projects.projectUuid, project));
    expect([row!.videoCount, row!.analysisCount]).toEqual([1, 1]);
  });

  it('rejects bad list parameters with field errors', async () => {
    const tooBig = await t.app.inject({ method: 'GET', url: '/api/projects/?page_size=501', headers: owner.headers });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().errors.page_size).toEqual(['Must be at most 500.']);
    const badOrdering = await t.app.inject({
      method: 'GET',
      url: '/api/projects/?ordering=secret',
      headers: owner.headers,
    });
    expect(badOrdering.statusCode).toBe(400);
    expect(badOrdering.json().errors.ordering[0]).toContain('Unknown ordering "secret"');
  });

  it('hides a project from non-members (404), also for malformed ids', async () => {
    const project = (await create(owner, { name: 'Hidden' })).json();
    const outsider = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${project.project_uuid}/`,
      headers: other.headers,
    });
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json()).toEqual({ errors: 'Not found.' });
    const malformed = await t.app.inject({ method: 'GET', url: '/api/projects/not-a-uuid/', headers: owner.headers });
    expect(malformed.statusCode).toBe(404);
  });

  it('PATCH merges metadata: sending the description keeps institution and PI', async () => {
    const project = (
      await create(owner, {
        name: 'Patchable',
        metadata: { description: 'old', institution: 'Inst', principal_investigator: 'PI' },
      })
    ).json();
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/projects/${project.project_uuid}/`,
      headers: owner.headers,
      payload: { metadata: { description: 'new' } },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().metadata).toEqual({ description: 'new', institution: 'Inst', principal_investigator: 'PI' });
    expect(patched.json().name).toBe('Patchable');

    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/projects/${project.project_uuid}/`,
      headers: owner.headers,
      payload: { name: 'Renamed', metadata: { description: 'd' } },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({
      name: 'Renamed',
      metadata: { description: 'd', institution: '', principal_investigator: '' },
    });
    const putMissing = await t.app.inject({
      method: 'PUT',
      url: `/api/projects/${project.project_uuid}/`,
      headers: owner.headers,
      payload: { metadata: {} },
    });
    expect(putMissing.statusCode).toBe(400);
    expect(putMissing.json().errors.name).toEqual(['This field is required.']);
  });

  it('lets owners and admins edit, only owners delete, members and viewers neither', async () => {
    const project = (await create(owner, { name: 'Roles' })).json();
    const admin = await createUser(t.ctx);
    const member = await createUser(t.ctx);
    await addMember(t.ctx, project.project_uuid, admin.id, 'admin');
    await addMember(t.ctx, project.project_uuid, member.id, 'member');
    const patch = (user: TestUser) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/projects/${project.project_uuid}/`,
        headers: user.headers,
        payload: { metadata: { description: 'x' } },
      });
    expect((await patch(admin)).statusCode).toBe(200);
    expect((await patch(member)).statusCode).toBe(403);
    const del = (user: TestUser) =>
      t.app.inject({ method: 'DELETE', url: `/api/projects/${project.project_uuid}/`, headers: user.headers });
    const adminDelete = await del(admin);
    expect(adminDelete.statusCode).toBe(403);
    expect(adminDelete.json()).toEqual({ errors: 'Only the project owner can do this.' });
    const members = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${project.project_uuid}/members/`,
      headers: member.headers,
    });
    expect(members.statusCode).toBe(200);
    expect(members.json().results.map((m: { role: string }) => m.role)).toEqual(['owner', 'admin', 'member']);
    expect(members.json().results[0].user).toMatchObject({ id: owner.id, display_name: 'Ada Lovelace' });
  });

  it('uploads a logo, serves it by its signed URL, replaces it and refuses non-images', async () => {
    const project = (await create(owner, { name: 'Logo' })).json();
    const url = `/api/projects/${project.project_uuid}/upload_logo/`;
    const uploaded = await t.app.inject({
      method: 'POST',
      url,
      ...withAuth(multipartFile('logo', 'logo.png', TINY_PNG)),
    });
    expect(uploaded.statusCode).toBe(200);
    const logoUrl = new URL(uploaded.json().logo_url);
    const image = await t.app.inject({ method: 'GET', url: logoUrl.pathname });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(TINY_PNG)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: `${logoUrl.pathname.slice(0, -4)}xxxx` })).statusCode).toBe(404);

    const again = await t.app.inject({
      method: 'POST',
      url,
      ...withAuth(multipartFile('logo', 'logo.png', TINY_PNG)),
    });
    expect(again.statusCode).toBe(200);
    const logoDir = path.join(t.dataDir, 'files/projects', project.project_uuid, 'logo');
    expect(readdirSync(logoDir)).toHaveLength(1);

    const wrongBoundary = await t.app.inject({
      method: 'POST',
      url,
      payload: multipartFile('logo', 'logo.png', TINY_PNG).payload,
      headers: { ...owner.headers, ...multipartFile('logo', 'x', Buffer.alloc(0)).headers },
    });
    expect(wrongBoundary.statusCode).toBe(400);
    const notImage = await t.app.inject({
      method: 'POST',
      url,
      ...withAuth(multipartFile('logo', 'logo.png', Buffer.from('plain text, not an image'))),
    });
    expect(notImage.statusCode).toBe(415);
    expect(notImage.json()).toEqual({ errors: 'Upload a PNG, JPEG, GIF or WebP image.' });
    const json = await t.app.inject({ method: 'POST', url, headers: owner.headers, payload: { logo: 'x' } });
    expect(json.statusCode).toBe(415);
    const tooBig = await t.app.inject({
      method: 'POST',
      url,
      ...withAuth(multipartFile('logo', 'big.png', Buffer.concat([TINY_PNG, Buffer.alloc(6 * 1024 * 1024)]))),
    });
    expect(tooBig.statusCode).toBe(413);
    const noFile = await t.app.inject({
      method: 'POST',
      url,
      ...withAuth(multipartFile('other', 'logo.png', TINY_PNG)),
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toEqual({ errors: { logo: ['No file was submitted.'] } });

    function withAuth(multipart: { payload: Buffer; headers: Record<string, string> }) {
      return { payload: multipart.payload, headers: { ...owner.headers, ...multipart.headers } };
    }
  });

  it('deletes the project with its subjects and every stored file', async () => {
    const project = (await create(owner, { name: 'Doomed' })).json();
    await t.app.inject({
      method: 'POST',
      url: `/api/projects/${project.project_uuid}/subjects/`,
      headers: owner.headers,
      payload: { name: 'M1' },
    });
    const multipart = multipartFile('logo', 'logo.png', TINY_PNG);
    await t.app.inject({
      method: 'POST',
      url: `/api/projects/${project.project_uuid}/upload_logo/`,
      payload: multipart.payload,
      headers: { ...owner.headers, ...multipart.headers },
    });
    const projectDir = path.join(t.dataDir, 'files/projects', project.project_uuid);
    expect(existsSync(projectDir)).toBe(true);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/projects/${project.project_uuid}/?confirm_name=Doomed`,
      headers: owner.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    const gone = await t.app.inject({
      method: 'GET',
      url: `/api/projects/${project.project_uuid}/`,
      headers: owner.headers,
    });
    expect(gone.statusCode).toBe(404);
    // In the trash until TRASH_DAYS have passed; then the purge removes every row and file.
    expect(existsSync(projectDir)).toBe(true);
    await t.ctx.db
      .update(projects)
      .set({ purgeAt: new Date(Date.now() - 1000) })
      .where(eq(projects.projectUuid, project.project_uuid));
    await purgeDue(t.ctx);
    expect(existsSync(projectDir)).toBe(false);
    expect(await t.ctx.db.select().from(projects).where(eq(projects.projectUuid, project.project_uuid))).toEqual([]);
  });
});
