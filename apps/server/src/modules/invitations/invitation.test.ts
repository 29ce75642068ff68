import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { invitations, projects } from '../../db/schema.js';
import { lastMailTo, linkIn } from '../auth/outbox.test-support.js';

describe('invitations', () => {
  let t: TestApp;
  let owner: TestUser;
  let projectUuid: string;
  let base: string;

  const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx, { firstName: 'Olga', lastName: 'Owner' });
    projectUuid = (await call(owner, 'POST', '/api/projects/', { name: 'Invites' })).json().project_uuid;
    base = `/api/projects/${projectUuid}/invitations/`;
  });
  afterAll(() => t.close());

  it('invites by e-mail with a link to the accept page; the invited account joins with the role', async () => {
    const invited = await createUser(t.ctx, { email: 'new.member@lab.test' });
    const created = await call(owner, 'POST', base, { email: 'New.Member@lab.test', role: 'viewer' });
    expect(created.statusCode).toBe(201);
    const invitation = created.json();
    expect(invitation).toMatchObject({
      email: 'new.member@lab.test',
      role: 'viewer',
      status: 'pending',
      invited_by: { id: owner.id, display_name: 'Olga Owner' },
    });
    const mail = lastMailTo(t.dataDir, 'new.member@lab.test');
    expect(mail.subject).toBe('Olga Owner invited you to "Invites"');
    const link = linkIn(mail.text, t.ctx.config.publicUrl);
    expect(link).toBe(`${t.ctx.config.publicUrl}/auth/accept-invite/${projectUuid}/${invitation.invitation_uuid}`);

    // Before accepting, the project is invisible to them; their pending list shows the invitation.
    expect((await call(invited, 'GET', `/api/projects/${projectUuid}/`)).statusCode).toBe(404);
    const pending = await call(invited, 'GET', '/api/users/profile/pending-invitations/');
    expect(pending.json().results.map((i: { invitation_uuid: string }) => i.invitation_uuid)).toContain(
      invitation.invitation_uuid,
    );

    const accepted = await call(invited, 'POST', `${base}${invitation.invitation_uuid}/accept/`, {});
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ project_uuid: projectUuid, role: 'viewer' });
    const project = await call(invited, 'GET', `/api/projects/${projectUuid}/`);
    expect(project.json().role).toBe('viewer');
    const again = await call(invited, 'POST', `${base}${invitation.invitation_uuid}/accept/`, {});
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ errors: 'This invitation has already been accepted.' });
  });

  it('only the invited account can accept; to others the invitation does not exist', async () => {
    const invitation = (await call(owner, 'POST', base, { email: 'only.me@lab.test' })).json();
    const someoneElse = await createUser(t.ctx);
    const refused = await call(someoneElse, 'POST', `${base}${invitation.invitation_uuid}/accept/`, {});
    expect(refused.statusCode).toBe(404);
    expect(
      (await t.ctx.db.select().from(invitations).where(eq(invitations.invitationUuid, invitation.invitation_uuid)))[0]
        ?.status,
    ).toBe('pending');
  });

  it('refuses expired and revoked invitations with a clear message', async () => {
    const late = await createUser(t.ctx, { email: 'late@lab.test' });
    const invitation = (await call(owner, 'POST', base, { email: 'late@lab.test' })).json();
    await t.ctx.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.invitationUuid, invitation.invitation_uuid));
    const expired = await call(late, 'POST', `${base}${invitation.invitation_uuid}/accept/`, {});
    expect(expired.statusCode).toBe(400);
    expect(expired.json().errors).toContain('expired');
    expect((await call(owner, 'GET', `${base}${invitation.invitation_uuid}/`)).json().status).toBe('expired');

    const revokedUser = await createUser(t.ctx, { email: 'revoked@lab.test' });
    const second = (await call(owner, 'POST', base, { email: 'revoked@lab.test', role: 'admin' })).json();
    const revoked = await call(owner, 'PATCH', `${base}${second.invitation_uuid}/`, { status: 'revoked' });
    expect(revoked.json().status).toBe('revoked');
    const refused = await call(revokedUser, 'POST', `${base}${second.invitation_uuid}/accept/`, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toContain('withdrawn');
  });

  it('validates: e-mail format, owner role, members and duplicate pending invitations', async () => {
    expect((await call(owner, 'POST', base, { email: 'not-an-email' })).json()).toEqual({
      errors: { email: ['Enter a valid e-mail address.'] },
    });
    const ownerRole = await call(owner, 'POST', base, { email: 'x@lab.test', role: 'owner' });
    expect(ownerRole.statusCode).toBe(400);
    expect(ownerRole.json().errors.role).toEqual(['Choose admin, member or viewer.']);
    const self = await call(owner, 'POST', base, { email: owner.email });
    expect(self.json()).toEqual({ errors: { email: [`${owner.email} is already a member of this project.`] } });
    await call(owner, 'POST', base, { email: 'twice@lab.test' });
    const twice = await call(owner, 'POST', base, { email: 'TWICE@lab.test' });
    expect(twice.json()).toEqual({
      errors: { email: ['twice@lab.test already has a pending invitation to this project.'] },
    });
  });

  it('lists, changes the role, and deletes; members below admin cannot manage invitations', async () => {
    const invitation = (await call(owner, 'POST', base, { email: 'listed@lab.test', role: 'member' })).json();
    const list = await call(owner, 'GET', `${base}?ordering=email&search=listed`);
    expect(list.json().results.map((i: { email: string }) => i.email)).toEqual(['listed@lab.test']);
    const put = await call(owner, 'PUT', `${base}${invitation.invitation_uuid}/`, { role: 'admin' });
    expect(put.json().role).toBe('admin');

    const member = await createUser(t.ctx);
    await addMember(t.ctx, projectUuid, member.id, 'member');
    expect((await call(member, 'GET', base)).statusCode).toBe(403);
    expect((await call(member, 'POST', base, { email: 'nope@lab.test' })).statusCode).toBe(403);

    expect((await call(owner, 'DELETE', `${base}${invitation.invitation_uuid}/`)).statusCode).toBe(204);
    expect((await call(owner, 'GET', `${base}${invitation.invitation_uuid}/`)).statusCode).toBe(404);
  });

  it('resends a pending or expired invitation with a new expiry and a new e-mail; not an accepted or revoked one', async () => {
    const admin = await createUser(t.ctx, { firstName: 'Ada', lastName: 'Admin' });
    await addMember(t.ctx, projectUuid, admin.id, 'admin');
    const invitation = (await call(owner, 'POST', base, { email: 'again@lab.test', role: 'viewer' })).json();
    await t.ctx.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.invitationUuid, invitation.invitation_uuid));
    expect((await call(owner, 'GET', `${base}${invitation.invitation_uuid}/`)).json().status).toBe('expired');

    const resent = await call(admin, 'POST', `${base}${invitation.invitation_uuid}/resend/`);
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({ status: 'pending', role: 'viewer', invited_by: { id: owner.id } });
    const days = (Date.parse(resent.json().expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    const mail = lastMailTo(t.dataDir, 'again@lab.test');
    expect(mail.subject).toBe('Ada Admin invited you to "Invites"');
    expect(linkIn(mail.text, t.ctx.config.publicUrl)).toBe(
      `${t.ctx.config.publicUrl}/auth/accept-invite/${projectUuid}/${invitation.invitation_uuid}`,
    );

    const invitee = await createUser(t.ctx, { email: 'again@lab.test' });
    expect((await call(invitee, 'POST', `${base}${invitation.invitation_uuid}/accept/`, {})).statusCode).toBe(200);
    expect((await call(owner, 'POST', `${base}${invitation.invitation_uuid}/resend/`)).json()).toEqual({
      errors: 'This invitation has already been accepted.',
    });
    const revoked = (await call(owner, 'POST', base, { email: 'gone@lab.test' })).json();
    await call(owner, 'PATCH', `${base}${revoked.invitation_uuid}/`, { status: 'revoked' });
    expect((await call(owner, 'POST', `${base}${revoked.invitation_uuid}/resend/`)).json()).toEqual({
      errors: 'This invitation was revoked: invite the person again instead.',
    });
  });

  it('an invitation to a locked project waits: accepting is a change like any other', async () => {
    const invitee = await createUser(t.ctx, { email: 'locked.out@lab.test' });
    const invitation = (await call(owner, 'POST', base, { email: 'locked.out@lab.test' })).json();
    await t.ctx.db.update(projects).set({ status: 'locked' }).where(eq(projects.projectUuid, projectUuid));
    try {
      const refused = await call(invitee, 'POST', `${base}${invitation.invitation_uuid}/accept/`, {});
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ errors: 'This project is locked: renew its subscription to make changes.' });
      expect((await call(invitee, 'GET', `/api/projects/${projectUuid}/`)).statusCode).toBe(404);
    } finally {
      await t.ctx.db.update(projects).set({ status: 'active' }).where(eq(projects.projectUuid, projectUuid));
    }
    expect((await call(invitee, 'POST', `${base}${invitation.invitation_uuid}/accept/`, {})).statusCode).toBe(200);
  });
});
