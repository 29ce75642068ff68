import { createProject, createUser, expect, PASSWORD, signIn, test } from '../support/fixtures';

test('signed-out users go to /auth/login and come back to the page they asked for', async ({ page, request }) => {
  const user = await createUser(request, 'Guard');
  await createProject(request, user, 'Guarded');
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/auth\/login$/);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { name: 'Account' })).toBeVisible();
});

test('project-scoped routes send a user without projects to /', async ({ page, request }) => {
  const user = await createUser(request, 'Empty');
  await signIn(page, user);
  for (const path of ['/subjects', '/projects', '/annotator']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible();
  }
});

test('short paths get the active project inserted; a project in the path becomes active', async ({ page, request }) => {
  const user = await createUser(request, 'Router');
  const first = await createProject(request, user, 'First study');
  const second = await createProject(request, user, 'Second study');
  await signIn(page, user, { activeProjectUuid: second.project_uuid });

  await page.goto('/subjects?search=M1#top');
  await expect(page).toHaveURL(`/projects/${second.project_uuid}/subjects?search=M1#top`);
  await page.goto('/projects');
  await expect(page).toHaveURL(`/projects/${second.project_uuid}`);
  await expect(page.getByRole('heading', { name: 'Second study' })).toBeVisible();

  await page.goto(`/projects/${first.project_uuid}/quick-score`);
  await expect(page.getByRole('heading', { name: 'Quick Score' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('activeProjectUuid'))).toBe(first.project_uuid);
  await page.goto('/movement-detector');
  await expect(page).toHaveURL(`/projects/${first.project_uuid}/movement-detector`);
  // The cached copy of the active project is kept under "project-" + uuid.
  const cached = await page.evaluate((uuid) => localStorage.getItem(`project-${uuid}`), first.project_uuid);
  expect(JSON.parse(cached ?? '{}').name).toBe('First study');
});

test('a stored project that is not the user’s falls back to the first project', async ({
  page,
  request,
  allowConsole,
}) => {
  // The stored project is prefetched after sign-in (spec §4) and answers 404.
  allowConsole(/status of 404 .*\/api\/projects\/00000000-/);
  const user = await createUser(request, 'Fallback');
  const only = await createProject(request, user, 'Only study');
  await signIn(page, user, { activeProjectUuid: '00000000-0000-4000-8000-000000000000' });
  await page.goto('/subjects');
  await expect(page).toHaveURL(`/projects/${only.project_uuid}/subjects`);
  expect(await page.evaluate(() => localStorage.getItem('activeProjectUuid'))).toBe(only.project_uuid);
});

test('any other path shows the not-found page', async ({ page, request }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  const user = await createUser(request, 'Lost');
  await signIn(page, user);
  await page.goto('/projects/abc/def/ghi');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the dashboard' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('an expired access token is refreshed once; a failed refresh signs out', async ({
  page,
  request,
  allowConsole,
}) => {
  allowConsole(/status of 401/);
  const user = await createUser(request, 'Refresh');
  await signIn(page, user);
  await page.evaluate(() => localStorage.setItem('accessToken', 'expired.token.value'));
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Account' })).toBeVisible();
  const stored = await page.evaluate(() => [localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')]);
  expect(stored[0]).not.toBe('expired.token.value');
  expect(stored[1]).toBeTruthy();

  await page.evaluate(() => {
    localStorage.setItem('accessToken', 'bad');
    localStorage.setItem('refreshToken', 'bad');
  });
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/auth\/login$/);
  expect(
    await page.evaluate(() => [localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')]),
  ).toEqual([null, null]);
});

test('a failed action toasts the server’s errors and shows them on the field', async ({
  page,
  request,
  allowConsole,
}) => {
  allowConsole(/status of 400/);
  allowConsole(/ApiError|POST \/api\/projects\/ → 400/);
  const user = await createUser(request, 'Dup');
  await createProject(request, user, 'Taken name');
  await signIn(page, user);
  await page.goto('/new-project');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByText('Give the project a name.')).toBeVisible();
  await page.getByLabel('Project name').fill('Taken name');
  await page.getByRole('button', { name: 'Create project' }).click();
  const toast = page.locator('[data-sonner-toast][data-type="error"]');
  await expect(toast).toBeVisible();
  const message = (await toast.textContent()) ?? '';
  expect(message.length).toBeGreaterThan(0);
  await expect(page.locator('#name-error')).toBeVisible();
  await expect(page).toHaveURL(/\/new-project$/);
});
