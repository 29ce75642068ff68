import { createProject, createUser, expect, PASSWORD, signIn, test } from '../support/fixtures';
import { linkFromOutbox } from '../support/outbox';

test('an invitation e-mail’s link signs the invitee in, accepts, and opens the project', async ({ page, request }) => {
  const owner = await createUser(request, 'Inviter');
  const project = await createProject(request, owner, 'Shared sleep study');
  const invitee = await createUser(request, 'Invitee');
  const invited = await request.post(`/api/projects/${project.project_uuid}/invitations/`, {
    headers: { Authorization: `Bearer ${owner.access}` },
    data: { email: invitee.email, role: 'member' },
  });
  expect(invited.status(), await invited.text()).toBe(201);

  const link = await linkFromOutbox(invitee.email, '/auth/accept-invite/');
  await page.goto(new URL(link).pathname);
  await expect(page).toHaveURL(/\/auth\/login$/);
  await page.getByLabel('E-mail').fill(invitee.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL(`/projects/${project.project_uuid}`);
  await expect(page.getByRole('heading', { name: 'Shared sleep study' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('activeProjectUuid'))).toBe(project.project_uuid);
});

test('an invitation for someone else is refused with the server’s message', async ({ page, request, allowConsole }) => {
  // The refused call answers 404, and a failed action is logged (spec §8).
  allowConsole(/status of 404/);
  allowConsole(/ApiError: POST \/api\/projects\/.*\/accept\/ → 404/);
  const owner = await createUser(request, 'Owner');
  const project = await createProject(request, owner, 'Private study');
  const invited = await request.post(`/api/projects/${project.project_uuid}/invitations/`, {
    headers: { Authorization: `Bearer ${owner.access}` },
    data: { email: 'somebody.else@example.com', role: 'viewer' },
  });
  const invitation = (await invited.json()) as { invitation_uuid: string };
  const stranger = await createUser(request, 'Stranger');
  await createProject(request, stranger, 'Own study');
  await signIn(page, stranger);
  await page.goto(`/auth/accept-invite/${project.project_uuid}/${invitation.invitation_uuid}`);
  await expect(page.getByText('Invitation not accepted')).toBeVisible();
  await expect(page.getByText('Not found.').first()).toBeVisible();
});
