import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { invitations } from '../../db/schema.js';

/** An invitation link opened while signed out: the project's name, the inviter and the e-mail, and nothing else. */
describe('invitation landing', () => {
  let t: TestApp;
  let owner: TestUser;
  let projectUuid: string;

  const invite = async (email: string) => {
    const answer = await t.app.inject({
      method: 'POST',
      url: `/api/projects/${projectUuid}/invitations/`,
      headers: owner.headers,
      payload: { email, role: 'member' },
    });
    return answer.json().invitation_uuid as string;
  };
  const landing = (project: string, invitation: string) =>
    t.app.inject({ method: 'GET', url: `/api/projects/${project}/invitations/${invitation}/landing/` });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx, { firstName: 'Ada', lastName: 'Lovelace' });
    projectUuid = (
      await t.app.inject({
        method: 'POST',
        url: '/api/projects/',
        headers: owner.headers,
        payload: { name: 'Sleep twitches' },
      })
    ).json().project_uuid;
  });
  afterAll(() => t.close());

  it('names the project, the inviter and the invited e-mail to a visitor without a sign-in', async () => {
    const invitation = await invite('Bob@Lab.test');
    const answer = await landing(projectUuid, invitation);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      project_name: 'Sleep twitches',
      invited_by: 'Ada Lovelace',
      email: 'bob@lab.test',
    });
  });

  it('shows nothing for a wrong, malformed, expired, revoked or accepted link', async () => {
    const wrong = [
      [projectUuid, randomUUID()],
      [randomUUID(), await invite('carol@lab.test')],
      [projectUuid, 'not-a-uuid'],
    ];
    const expired = await invite('dan@lab.test');
    await t.ctx.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.invitationUuid, expired));
    const revoked = await invite('erin@lab.test');
    await t.ctx.db.update(invitations).set({ status: 'revoked' }).where(eq(invitations.invitationUuid, revoked));
    const accepted = await invite('fay@lab.test');
    await t.ctx.db.update(invitations).set({ status: 'accepted' }).where(eq(invitations.invitationUuid, accepted));
    for (const [project, invitation] of [
      ...wrong,
      [projectUuid, expired],
      [projectUuid, revoked],
      [projectUuid, accepted],
    ]) {
      const answer = await landing(project!, invitation!);
      expect(answer.statusCode, `${project} ${invitation}`).toBe(404);
      expect(answer.body).not.toContain('Sleep twitches');
      expect(answer.body).not.toContain('Ada');
    }
  });
});
