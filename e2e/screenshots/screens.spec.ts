import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { createProject, createSubject, createUser, expect, signIn, type TestUser, test } from '../support/fixtures';
import { testVideoPath } from '../support/global-setup';

/** `npm run screenshots`: the main screens, light and dark, desktop and phone, into docs/screenshots/. */
const OUT = path.resolve(import.meta.dirname, '../../docs/screenshots');
const VIEWPORTS = { desktop: { width: 1440, height: 960 }, phone: { width: 390, height: 844 } } as const;
const THEMES = ['light', 'dark'] as const;

test.describe.configure({ mode: 'serial' });

let user: TestUser;
let projectUuid = '';
let subjectUuid = '';

test.beforeAll(async ({ request }) => {
  user = await createUser(request, 'Maria');
  const auth = { Authorization: `Bearer ${user.access}` };
  const project = await createProject(request, user, 'Neonatal twitch study');
  projectUuid = project.project_uuid;
  await createProject(request, user, 'Fear conditioning 2026');
  await createProject(request, user, 'Open field pilot');
  const subjects = [];
  for (const [name, group] of [
    ['M12', 'control'],
    ['M13', 'control'],
    ['F07', 'knockout'],
    ['F08', 'knockout'],
    ['M21', 'sham'],
  ] as const) {
    const subject = await createSubject(request, user, projectUuid, name);
    await request.patch(`/api/projects/${projectUuid}/subjects/${subject.subject_uuid}/`, {
      headers: auth,
      data: {
        group,
        notes: 'P8, recorded during active sleep.',
        metadata: { sex: name[0] === 'M' ? 'male' : 'female', strain: 'Sprague-Dawley' },
      },
    });
    subjects.push(subject);
  }
  subjectUuid = subjects[0]!.subject_uuid;
  for (const name of ['Session 1 — baseline', 'Session 2 — post-injection']) {
    const response = await request.post(`/api/projects/${projectUuid}/subjects/${subjectUuid}/videos/`, {
      headers: auth,
      multipart: {
        name,
        file: { name: 'pattern-4s.mp4', mimeType: 'video/mp4', buffer: readFileSync(testVideoPath()) },
      },
    });
    expect(response.status(), await response.text()).toBe(201);
  }
  await expect
    .poll(
      async () => {
        const list = await request.get(`/api/projects/${projectUuid}/subjects/${subjectUuid}/videos/`, {
          headers: auth,
        });
        const body = (await list.json()) as { results: { status: string }[] };
        return body.results.every((v) => v.status === 'ready');
      },
      { timeout: 60_000 },
    )
    .toBe(true);
});

async function shoot(page: Page, name: string, theme: string, device: string) {
  await page.mouse.move(0, 0);
  // Let fonts, images and transitions settle.
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(OUT, `${name}-${theme}-${device}.png`) });
}

for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const theme of THEMES) {
    test(`${device} ${theme}`, async ({ browser }) => {
      test.setTimeout(120_000);
      const context = await browser.newContext({
        viewport,
        colorScheme: theme,
        deviceScaleFactor: device === 'phone' ? 2 : 1,
      });
      await context.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
      const page = await context.newPage();

      await page.goto('/auth/login');
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
      await shoot(page, 'login', theme, device);
      await page.goto('/auth/register');
      await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
      await shoot(page, 'register', theme, device);

      await signIn(page, user, { activeProjectUuid: projectUuid });
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Neonatal twitch study' })).toBeVisible();
      await expect(page.getByText('Recent videos')).toBeVisible();
      await shoot(page, 'dashboard', theme, device);

      await page.goto(`/projects/${projectUuid}/subjects`);
      await expect(page.getByRole('link', { name: 'M12' })).toBeVisible();
      await shoot(page, 'subjects', theme, device);

      await page.goto(`/projects/${projectUuid}/subjects/${subjectUuid}`);
      await page.getByRole('button', { name: 'Open Session 1 — baseline' }).click();
      await expect(page.getByRole('application')).toBeVisible();
      await expect
        .poll(() => page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => v.readyState))
        .toBeGreaterThanOrEqual(2);
      await page.getByTestId('video-element').evaluate((v: HTMLVideoElement) => {
        v.currentTime = 1.5;
      });
      await shoot(page, 'subject', theme, device);

      await page.goto(`/projects/${projectUuid}`);
      await expect(page.getByRole('heading', { name: 'Members' })).toBeVisible();
      await shoot(page, 'project', theme, device);

      await page.goto('/new-project');
      await shoot(page, 'new-project', theme, device);

      await page.goto('/profile');
      await expect(page.getByRole('heading', { name: 'Account' })).toBeVisible();
      await shoot(page, 'profile', theme, device);

      if (device === 'phone') {
        await page.goto('/');
        await page.getByRole('button', { name: 'Toggle sidebar' }).click();
        await expect(page.getByRole('dialog', { name: 'Navigation' })).toBeVisible();
        await page.waitForTimeout(300);
        await shoot(page, 'navigation', theme, device);
      } else {
        await page.goto('/');
        await page.getByRole('button', { name: 'Switch project' }).click();
        await expect(page.getByRole('menu')).toBeVisible();
        await shoot(page, 'switcher', theme, device);
      }
      await context.close();
    });
  }
}
