import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { projects, subjects, videos } from '../../db/schema.js';

describe('the team of a project: roles, removal, leaving, ownership', () => {
  let t: TestApp;
  let owner: TestUser;

  const call = (user: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });

  /** A project of `owner` with one person per role. */
  async function team() {
    const uuid = (await call(owner, 'POST', '/api/projects/', { name: `Team ${Math.random()}` })).json()
      .project_uuid as string;
    const people = { admin: await createUser(t.ctx), member: await createUser(t.ctx), viewer: await createUser(t.ctx) };
    for (const [role, user] of Object.entries(people)) {
      await addMember(t.ctx, uuid, user.id, role as 'admin' | 'member' | 'viewer');
    }
    const members = `/api/projects/${uuid}/members/`;
    const roleOf = async (user: TestUser) => {
      const list = (await call(owner, 'GET', members)).json().results as { user: { id: number }; role: string }[];
      return list.find((m) => m.user.id === user.id)?.role ?? null;
    };
    return { uuid, members, roleOf, ...people };
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx, { firstName: 'Olga', lastName: 'Owner' });
  });
  afterAll(() => t.close());

  it('lists members with their user id and role', async () => {
    const { members, admin } = await team();
    const list = await call(admin, 'GET', members);
    expect(list.statusCode).toBe(200);
    expect(list.json().results.map((m: { user: { id: number }; role: string }) => [m.user.id, m.role])).toEqual([
      [owner.id, 'owner'],
      [admin.id, 'admin'],
      expect.any(Array),
      expect.any(Array),
    ]);
  });

  it('owners and admins change roles; the owner alone changes an admin’s role; nobody changes the owner’s or their own', async () => {
    const { members, roleOf, admin, member, viewer } = await team();
    const patch = (by: TestUser, target: TestUser, role: string) =>
      call(by, 'PATCH', `${members}${target.id}/`, { role });

    const promoted = await patch(admin, viewer, 'member');
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toMatchObject({ user: { id: viewer.id }, role: 'member' });
    expect(await roleOf(viewer)).toBe('member');

    expect((await patch(admin, member, 'admin')).statusCode).toBe(200);
    const adminOnAdmin = await patch(admin, member, 'viewer');
    expect(adminOnAdmin.statusCode).toBe(403);
    expect(adminOnAdmin.json()).toEqual({ errors: "Only the project owner can change an admin's role." });
    expect((await patch(owner, member, 'viewer')).json().role).toBe('viewer');

    const onOwner = await patch(admin, owner, 'viewer');
    expect(onOwner.statusCode).toBe(403);
    expect(onOwner.json()).toEqual({
      errors: "The owner's role cannot be changed: the owner can transfer ownership to an admin instead.",
    });
    // The owner cannot demote themself either: a project always keeps its owner.
    expect((await patch(owner, owner, 'admin')).statusCode).toBe(403);
    expect(await roleOf(owner)).toBe('owner');
    const self = await patch(admin, admin, 'member');
    expect(self.json()).toEqual({ errors: 'You cannot change your own role.' });

    const toOwner = await patch(owner, viewer, 'owner');
    expect(toOwner.statusCode).toBe(400);
    expect(toOwner.json()).toEqual({
      errors: { role: ['Choose admin, member or viewer. To make someone the owner, transfer ownership to them.'] },
    });
    expect((await patch(member, viewer, 'admin')).statusCode).toBe(403);
    expect((await call(owner, 'PATCH', `${members}999999/`, { role: 'viewer' })).json()).toEqual({
      errors: 'This person is not a member of this project.',
    });
    expect((await call(owner, 'PATCH', `${members}abc/`, { role: 'viewer' })).statusCode).toBe(404);
  });

  it('removes members (their work stays, credited to them) and they lose access; the rules protect owner and admins', async () => {
    const { uuid, members, roleOf, admin, member, viewer } = await team();
    const [subject] = await t.ctx.db.insert(subjects).values({ projectUuid: uuid, name: 'M1' }).returning();
    const [video] = await t.ctx.db
      .insert(videos)
      .values({
        projectUuid: uuid,
        subjectUuid: subject!.subjectUuid,
        name: 'by member',
        originalFilename: 'a.mp4',
        uploadedById: member.id,
      })
      .returning();

    const byMember = await call(member, 'DELETE', `${members}${viewer.id}/`);
    expect(byMember.json()).toEqual({ errors: 'Only project owners and admins can remove members.' });
    const adminOnOwner = await call(admin, 'DELETE', `${members}${owner.id}/`);
    expect(adminOnOwner.statusCode).toBe(403);
    expect(adminOnOwner.json()).toEqual({ errors: 'The project owner cannot be removed.' });

    expect((await call(admin, 'DELETE', `${members}${member.id}/`)).statusCode).toBe(204);
    expect(await roleOf(member)).toBeNull();
    expect((await call(member, 'GET', `/api/projects/${uuid}/`)).statusCode).toBe(404);
    const [kept] = await t.ctx.db.select().from(videos).where(eq(videos.videoUuid, video!.videoUuid));
    expect(kept!.uploadedById).toBe(member.id);

    const otherAdmin = await createUser(t.ctx);
    await addMember(t.ctx, uuid, otherAdmin.id, 'admin');
    expect((await call(admin, 'DELETE', `${members}${otherAdmin.id}/`)).json()).toEqual({
      errors: 'Only the project owner can remove an admin.',
    });
    expect((await call(owner, 'DELETE', `${members}${otherAdmin.id}/`)).statusCode).toBe(204);
  });

  it('anyone but the owner can leave', async () => {
    const { uuid, members, roleOf, admin, viewer } = await team();
    expect((await call(viewer, 'DELETE', `${members}${viewer.id}/`)).statusCode).toBe(204);
    expect((await call(viewer, 'GET', `/api/projects/${uuid}/`)).statusCode).toBe(404);
    expect((await call(admin, 'DELETE', `${members}${admin.id}/`)).statusCode).toBe(204);
    const ownerLeaves = await call(owner, 'DELETE', `${members}${owner.id}/`);
    expect(ownerLeaves.statusCode).toBe(403);
    expect(ownerLeaves.json()).toEqual({
      errors: 'The owner cannot leave the project: transfer ownership to an admin first, or delete the project.',
    });
    expect(await roleOf(owner)).toBe('owner');
  });

  it('on a locked project a member can still leave, but nobody can change the team', async () => {
    const { uuid, members, roleOf, admin, member, viewer } = await team();
    await t.ctx.db.update(projects).set({ status: 'locked' }).where(eq(projects.projectUuid, uuid));
    const locked = { errors: 'This project is locked: renew its subscription to make changes.' };
    expect((await call(admin, 'DELETE', `${members}${member.id}/`)).json()).toEqual(locked);
    expect((await call(owner, 'PATCH', `${members}${member.id}/`, { role: 'viewer' })).json()).toEqual(locked);
    expect((await call(owner, 'POST', `${members}transfer-ownership/`, { user_id: admin.id })).json()).toEqual(locked);
    expect(await roleOf(member)).toBe('member');
    expect((await call(viewer, 'DELETE', `${members}${viewer.id}/`)).statusCode).toBe(204);
    expect(await roleOf(viewer)).toBeNull();
  });

  it('transfers ownership to an admin only; the old owner becomes admin', async () => {
    const { uuid, members, roleOf, admin, member } = await team();
    const transfer = (by: TestUser, userId: number) =>
      call(by, 'POST', `${members}transfer-ownership/`, { user_id: userId });

    expect((await transfer(owner, member.id)).json()).toEqual({
      errors: { user_id: ['Ownership can only go to an admin of the project: make them an admin first.'] },
    });
    const stranger = await createUser(t.ctx);
    expect((await transfer(owner, stranger.id)).json()).toEqual({
      errors: { user_id: ['This person is not a member of this project.'] },
    });
    expect((await transfer(owner, owner.id)).json()).toEqual({
      errors: { user_id: ['You already own this project.'] },
    });
    expect((await call(owner, 'POST', `${members}transfer-ownership/`, {})).json()).toEqual({
      errors: { user_id: ['Give the id of the admin who becomes the owner.'] },
    });
    expect((await transfer(admin, admin.id)).statusCode).toBe(403);

    const done = await transfer(owner, admin.id);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ project_uuid: uuid, role: 'admin', owner: { id: admin.id } });
    expect(await roleOf(admin)).toBe('owner');
    expect(await roleOf(owner)).toBe('admin');
    const [row] = await t.ctx.db.select().from(projects).where(eq(projects.projectUuid, uuid));
    expect(row!.ownerId).toBe(admin.id);
    // The new owner holds the owner's powers; the old one no longer does.
    expect((await transfer(owner, admin.id)).statusCode).toBe(403);
    expect((await call(owner, 'DELETE', `/api/projects/${uuid}/`)).statusCode).toBe(403);
    expect((await call(admin, 'DELETE', `${members}${owner.id}/`)).statusCode).toBe(204);
  });

  it('refuses a transfer that would give the new owner two projects of the same name', async () => {
    const { uuid, members, roleOf, admin } = await team();
    const name = (await call(owner, 'GET', `/api/projects/${uuid}/`)).json().name;
    expect((await call(admin, 'POST', '/api/projects/', { name })).statusCode).toBe(201);
    const clash = await call(owner, 'POST', `${members}transfer-ownership/`, { user_id: admin.id });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().errors.user_id[0]).toContain(`already owns a project named "${name}"`);
    expect(await roleOf(owner)).toBe('owner');
    expect(await roleOf(admin)).toBe('admin');
  });
});
