import { createProject, createUser, expect, signIn, test } from '../support/fixtures';

test('Ctrl/Cmd+B toggles the sidebar and the state survives a reload (cookie, 7 days)', async ({
  page,
  request,
  context,
}) => {
  const user = await createUser(request, 'Sidebar');
  await createProject(request, user, 'Sidebar study');
  await signIn(page, user);
  await page.goto('/');
  const sidebar = page.locator('[data-slot="sidebar"]');
  await expect(sidebar).toHaveAttribute('data-state', 'expanded');
  const container = page.locator('[data-slot="sidebar-container"]');
  await expect.poll(() => container.evaluate((el) => el.getBoundingClientRect().width)).toBe(256);

  await page.keyboard.press('Control+b');
  await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
  await expect.poll(() => container.evaluate((el) => el.getBoundingClientRect().width)).toBe(48);
  const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state');
  expect(cookie?.value).toBe('false');
  const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(6.9);
  expect(days).toBeLessThanOrEqual(7.01);
  expect(await page.evaluate(() => localStorage.getItem('sidebar_state'))).toBe('false');

  await page.reload();
  await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
  await page.keyboard.press('Meta+b');
  await expect(sidebar).toHaveAttribute('data-state', 'expanded');
  expect((await context.cookies()).find((c) => c.name === 'sidebar_state')?.value).toBe('true');
});

test('the theme choice persists under vite-ui-theme', async ({ page, request }) => {
  const user = await createUser(request, 'Theme');
  await signIn(page, user);
  await page.goto('/');
  await page.getByRole('button', { name: 'Theme' }).click();
  await page.getByRole('menuitemradio', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => localStorage.getItem('vite-ui-theme'))).toBe('dark');
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);

  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('button', { name: 'Theme' }).click();
  await page.getByRole('menuitemradio', { name: 'System' }).click();
  await expect(page.locator('html')).toHaveClass(/\blight\b/);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => localStorage.getItem('vite-ui-theme'))).toBe('system');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the sidebar is an 18rem drawer below 768px', async ({ page, request }) => {
    const user = await createUser(request, 'Phone');
    const project = await createProject(request, user, 'Pocket study');
    await signIn(page, user);
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Pocket study' })).toBeVisible();
    await expect(page.locator('[data-slot="sidebar-container"]')).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();

    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    const drawer = page.getByRole('dialog', { name: 'Navigation' });
    await expect(drawer).toBeVisible();
    await expect.poll(() => drawer.evaluate((el) => el.getBoundingClientRect().width)).toBe(288);
    await expect(drawer.getByText('New', { exact: true })).toBeVisible();
    await drawer.getByRole('link', { name: 'Subjects' }).click();
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(`/projects/${project.project_uuid}/subjects`);

    await page.keyboard.press('Control+b');
    await expect(page.getByRole('dialog', { name: 'Navigation' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Navigation' })).toBeHidden();
  });
});

test('the project switcher lists the first 5 of 6 projects, New project and the settings', async ({
  page,
  request,
}) => {
  const user = await createUser(request, 'Six');
  const projects = [];
  for (let i = 1; i <= 6; i++) projects.push(await createProject(request, user, `Study ${i}`));
  await signIn(page, user);
  await page.goto('/');
  await page.getByRole('button', { name: 'Switch project' }).click();
  const items = page.getByTestId('switcher-project');
  await expect(items).toHaveCount(5);
  await expect(items.nth(0)).toHaveAttribute('href', `/projects/${projects[0]!.project_uuid}`);
  await expect(page.getByRole('menuitem', { name: 'New project' })).toHaveAttribute('href', '/new-project');
  await expect(page.getByRole('menuitem', { name: 'Project settings' })).toBeVisible();
  // Switching lands on the project's dashboard (issue 20); the link still names the project page.
  await items.nth(2).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: 'Study 3' })).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('activeProjectUuid')))
    .toBe(projects[2]!.project_uuid);
});

test('the user menu links Account, Docs and Support; logout clears the session', async ({ page, request }) => {
  const user = await createUser(request, 'Leaving');
  const project = await createProject(request, user, 'Left study');
  await signIn(page, user);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Left study' })).toBeVisible();
  await expect
    .poll(() => page.evaluate((k) => localStorage.getItem(k), `project-${project.project_uuid}`))
    .not.toBeNull();

  await page.getByRole('button', { name: 'User menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Account' })).toHaveAttribute('href', '/profile');
  await expect(page.getByRole('menuitem', { name: 'Docs' })).toHaveAttribute('href', /\/api\/docs\/|^https?:/);
  await expect(page.getByRole('menuitem', { name: 'Support' })).toHaveAttribute('href', /^mailto:/);
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  const left = await page.evaluate(() => ({
    access: localStorage.getItem('accessToken'),
    refresh: localStorage.getItem('refreshToken'),
    active: localStorage.getItem('activeProjectUuid'),
    copies: Object.keys(localStorage).filter((k) => k.startsWith('project-')),
  }));
  expect(left).toEqual({ access: null, refresh: null, active: null, copies: [] });
  // The refresh token was revoked on the server.
  const refresh = await request.post('/api/auth/token/refresh/', { data: { refresh: user.refresh } });
  expect(refresh.ok()).toBe(false);
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/login$/);
});
