import type { Browser, Page } from '@playwright/test';
import { createProject, createUser, expect, signIn, type TestUser, test } from '../support/fixtures';
import { linkFromOutbox } from '../support/outbox';

/** A signed-in browser of its own for one person. */
async function browserOf(browser: Browser, user: TestUser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, user);
  return page;
}

const memberRow = (page: Page, email: string) => page.getByTestId('member-row').filter({ hasText: email });

test('a team, end to end: invite a viewer, who accepts and reads; promote to member, who adds a subject; remove, who loses access', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await createUser(request, 'Olga');
  const project = await createProject(request, owner, 'Shared sleep study');
  const invitee = await createUser(request, 'Ines');

  // The owner invites by e-mail as a viewer; the invitation is listed with its status, inviter and expiry.
  await signIn(page, owner);
  await page.goto(`/projects/${project.project_uuid}`);
  await expect(page.getByRole('heading', { name: 'Team' })).toBeVisible();
  await page.getByLabel('Invite by e-mail').fill(invitee.email);
  await page.getByLabel('Role').selectOption('viewer');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${invitee.email}`)).toBeVisible();
  const invitation = page.getByTestId('invitation-row').filter({ hasText: invitee.email });
  await expect(invitation).toContainText('viewer');
  await expect(invitation).toContainText('pending');
  await expect(invitation).toContainText('Invited by Olga User');
  await expect(invitation).toContainText(/expires \w+ \d+, \d{4}/);

  // The invitee follows the e-mailed link and sees the project read-only.
  const link = await linkFromOutbox(invitee.email, '/auth/accept-invite/');
  const guest = await browserOf(browser, invitee);
  await guest.goto(new URL(link).pathname);
  await expect(guest).toHaveURL(`/projects/${project.project_uuid}`);
  await expect(guest.getByRole('heading', { name: 'Shared sleep study' })).toBeVisible();
  await expect(memberRow(guest, invitee.email)).toContainText('viewer');
  await expect(guest.getByRole('button', { name: 'Edit description' })).toHaveCount(0);
  await expect(guest.getByLabel('Invite by e-mail')).toHaveCount(0);
  await expect(guest.getByRole('button', { name: /^Actions for Olga/ })).toHaveCount(0);
  await expect(guest.getByRole('button', { name: 'Delete project' })).toHaveCount(0);
  await guest.goto(`/projects/${project.project_uuid}/subjects`);
  await expect(guest.getByRole('heading', { name: 'Subjects' })).toBeVisible();
  await expect(guest.getByRole('button', { name: 'New subject' })).toHaveCount(0);

  // The owner makes them a member.
  await page.reload();
  await expect(page.getByTestId('invitation-row')).toHaveCount(0);
  await memberRow(page, invitee.email)
    .getByRole('button', { name: /^Actions for/ })
    .click();
  await page.getByRole('menuitemradio', { name: /^member/i }).click();
  await expect(page.getByText('Ines User is now a member')).toBeVisible();
  await expect(memberRow(page, invitee.email)).toContainText('member');

  // Now they can add a subject.
  await guest.reload();
  await guest.getByRole('button', { name: 'New subject' }).first().click();
  await guest.getByLabel('Name').fill('M12');
  await guest.getByRole('button', { name: 'Create subject' }).click();
  await expect(guest.getByRole('link', { name: 'M12' })).toBeVisible();

  // Removed, they lose access: the project is gone for them, and the API answers 404.
  await memberRow(page, invitee.email)
    .getByRole('button', { name: /^Actions for/ })
    .click();
  await page.getByRole('menuitem', { name: 'Remove from project' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove member' }).click();
  await expect(page.getByText('Ines User was removed from the project')).toBeVisible();
  await expect(memberRow(page, invitee.email)).toHaveCount(0);
  const refused = await request.get(`/api/projects/${project.project_uuid}/`, {
    headers: { Authorization: `Bearer ${invitee.access}` },
  });
  expect(refused.status()).toBe(404);
  // In the app the project is gone: with no project left, project pages lead home (spec §2).
  await guest.goto(`/projects/${project.project_uuid}`);
  await expect(guest).toHaveURL('/');
  await expect(guest.getByRole('heading', { name: 'Welcome, Ines User' })).toBeVisible();
  await expect(guest.getByRole('heading', { name: 'Shared sleep study' })).toHaveCount(0);
  await guest.context().close();
});

test('the owner hands the project to an admin; a member leaves', async ({ page, browser, request }) => {
  const owner = await createUser(request, 'Otto');
  const project = await createProject(request, owner, 'Handover study');
  const admin = await createUser(request, 'Ada');
  const member = await createUser(request, 'Max');
  const auth = { Authorization: `Bearer ${owner.access}` };
  for (const [user, role] of [
    [admin, 'admin'],
    [member, 'member'],
  ] as const) {
    const invited = await request.post(`/api/projects/${project.project_uuid}/invitations/`, {
      headers: auth,
      data: { email: user.email, role },
    });
    const { invitation_uuid } = (await invited.json()) as { invitation_uuid: string };
    const accepted = await request.post(
      `/api/projects/${project.project_uuid}/invitations/${invitation_uuid}/accept/`,
      {
        headers: { Authorization: `Bearer ${user.access}` },
        data: {},
      },
    );
    expect(accepted.status()).toBe(200);
  }

  await signIn(page, owner);
  await page.goto(`/projects/${project.project_uuid}`);
  await memberRow(page, admin.email)
    .getByRole('button', { name: /^Actions for/ })
    .click();
  await page.getByRole('menuitem', { name: 'Make owner' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Transfer ownership' }).click();
  await expect(page.getByText('Ada User now owns the project; you are an admin')).toBeVisible();
  await expect(memberRow(page, admin.email)).toContainText('owner');
  await expect(memberRow(page, owner.email)).toContainText('admin');
  // As an admin now: no delete, no billing, no actions on the owner.
  await expect(page.getByRole('button', { name: 'Delete project' })).toHaveCount(0);
  await expect(memberRow(page, admin.email).getByRole('button', { name: /^Actions for/ })).toHaveCount(0);

  const leaver = await browserOf(browser, member);
  await leaver.goto(`/projects/${project.project_uuid}`);
  await memberRow(leaver, member.email)
    .getByRole('button', { name: /^Actions for/ })
    .click();
  await leaver.getByRole('menuitem', { name: 'Leave project' }).click();
  await leaver.getByRole('alertdialog').getByRole('button', { name: 'Leave project' }).click();
  await expect(leaver).toHaveURL('/');
  await expect(leaver.getByText('You left the project')).toBeVisible();
  const gone = await request.get(`/api/projects/${project.project_uuid}/`, {
    headers: { Authorization: `Bearer ${member.access}` },
  });
  expect(gone.status()).toBe(404);
  await leaver.context().close();
});
