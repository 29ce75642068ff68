import { randomUUID } from 'node:crypto';
import { type APIRequestContext, test as base, expect, type Page } from '@playwright/test';
import { guardBrowserContexts } from './csp-guard';
import { linkFromOutbox } from './outbox';

export type TestUser = {
  email: string;
  password: string;
  firstName: string;
  access: string;
  refresh: string;
  user: { id: number | string; email: string };
};

export type TestProject = { project_uuid: string; name: string };

export const PASSWORD = 'correct-horse-battery-1';

export function uniqueEmail(prefix = 'user') {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

/**
 * Registers, verifies through the outbox link and signs in over the API (no UI). `dataDir` is the DATA_DIR of the
 * server `request` talks to (default: the main test server).
 */
export async function createUser(request: APIRequestContext, firstName = 'Test', dataDir?: string): Promise<TestUser> {
  const email = uniqueEmail(firstName.toLowerCase());
  const register = await request.post('/api/auth/register/', {
    data: { email, password1: PASSWORD, password2: PASSWORD, first_name: firstName, last_name: 'User' },
  });
  expect(register.status(), await register.text()).toBe(201);
  const link = await linkFromOutbox(email, '/auth/confirm-verification/', dataDir);
  const key = decodeURIComponent(link.split('/auth/confirm-verification/')[1]!.replace(/\/$/, ''));
  const verify = await request.post('/api/auth/register/verify-email/', { data: { key } });
  expect(verify.ok(), await verify.text()).toBe(true);
  const login = await request.post('/api/auth/login/', { data: { email, password: PASSWORD } });
  expect(login.ok(), await login.text()).toBe(true);
  const body = (await login.json()) as { access: string; refresh: string; user: TestUser['user'] };
  return { email, password: PASSWORD, firstName, ...body };
}

export async function createProject(
  request: APIRequestContext,
  user: TestUser,
  name: string,
  plan?: 'pro' | 'institutional',
): Promise<TestProject> {
  const response = await request.post('/api/projects/', {
    headers: { Authorization: `Bearer ${user.access}` },
    data: {
      name,
      ...(plan ? { plan } : {}),
      metadata: { description: `About ${name}`, institution: 'Test Lab', principal_investigator: 'Dr. Test' },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as TestProject;
}

export async function createSubject(request: APIRequestContext, user: TestUser, projectUuid: string, name: string) {
  const response = await request.post(`/api/projects/${projectUuid}/subjects/`, {
    headers: { Authorization: `Bearer ${user.access}` },
    data: { name, group: 'control' },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { subject_uuid: string; name: string };
}

/** Signs the browser in by storing the tokens as the app does after login. */
/** Seconds an access token still has to live, from its `exp` claim. */
function accessSecondsLeft(access: string): number {
  const payload = JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString('utf8')) as { exp: number };
  return payload.exp - Date.now() / 1000;
}

/**
 * Access tokens live five minutes, and a serial spec file shares one user across tests that together run longer:
 * a token close to its end is exchanged for a fresh pair first (updating `user`, so the test's own API calls use it
 * too), instead of the page starting on a token that expires under it.
 */
async function freshTokens(page: Page, user: TestUser): Promise<void> {
  if (accessSecondsLeft(user.access) > 150) return;
  const response = await page.request.post('/api/auth/token/refresh/', {
    data: { access: user.access, refresh: user.refresh },
  });
  expect(response.ok(), await response.text()).toBe(true);
  const pair = (await response.json()) as { access: string; refresh: string };
  user.access = pair.access;
  user.refresh = pair.refresh;
}

export async function signIn(page: Page, user: TestUser, extra: Record<string, string> = {}) {
  await freshTokens(page, user);
  await page.goto('/auth/login');
  await page.evaluate(
    ({ access, refresh, extra }) => {
      localStorage.setItem('accessToken', access);
      localStorage.setItem('refreshToken', refresh);
      for (const [key, value] of Object.entries(extra)) localStorage.setItem(key, value);
    },
    { access: user.access, refresh: user.refresh, extra },
  );
}

type Fixtures = {
  /** Console messages matching these patterns are expected by the test (e.g. a deliberate 400). */
  allowConsole: (pattern: RegExp) => void;
  consoleAllowlist: RegExp[];
  consoleGuard: undefined;
  cspGuard: undefined;
};

/**
 * Every test fails on a console error or warning, or an uncaught page error, unless allowed; and on any
 * Content-Security-Policy violation (or an app page served without the CSP) in any of its browser contexts, always.
 */
export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take a destructuring pattern.
  consoleAllowlist: async ({}, use) => {
    await use([]);
  },
  allowConsole: async ({ consoleAllowlist }, use) => {
    await use((pattern) => {
      consoleAllowlist.push(pattern);
    });
  },
  consoleGuard: [
    async ({ page, consoleAllowlist }, use) => {
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() !== 'error' && message.type() !== 'warning') return;
        const text = `${message.type()}: ${message.text()} (${message.location().url})`;
        if (consoleAllowlist.some((pattern) => pattern.test(text))) return;
        problems.push(text);
      });
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      await use(undefined);
      expect(problems, 'console errors or warnings').toEqual([]);
    },
    { auto: true },
  ],
  cspGuard: [
    async ({ browser, context }, use) => {
      const problems: string[] = [];
      const guard = await guardBrowserContexts(browser, context, problems);
      try {
        await use(undefined);
      } finally {
        guard.restore();
      }
      expect(problems, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * For the first element of a page opened cold (a full navigation: the app's scripts, the session, the project): on
 * CI's two cores, while another worker's videos are being processed, that first render has taken more than the
 * default 10 s. Later steps on the page keep the default.
 */
export const COLD_PAGE = { timeout: 30_000 };
