import type { BrowserContext } from '@playwright/test';
import { watchContentSecurityPolicy } from '../support/csp-guard';
import { COLD_PAGE, expect, test } from '../support/fixtures';

test('the API docs (Swagger UI) load and run under their Content-Security-Policy', async ({ page }) => {
  const response = await page.goto('/api/docs/');
  expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await expect(page.getByRole('heading', { name: /Video Analysis API/ })).toBeVisible(COLD_PAGE);
  await expect(page.locator('.opblock').first()).toBeVisible();
});

test('the CSP guard of every test sees a blocked inline script, and the app blocks it', async ({ browser }) => {
  // A context of its own, outside the test's guard (the prototype's newContext is the unwrapped one).
  const newContext = Object.getPrototypeOf(browser).newContext as (typeof browser)['newContext'];
  const context: BrowserContext = await newContext.call(browser, { baseURL: test.info().project.use.baseURL });
  const problems: string[] = [];
  await watchContentSecurityPolicy(context, problems);
  const page = await context.newPage();
  await page.goto('/auth/login');
  await expect(page.getByRole('button', { name: /log in|sign in/i })).toBeVisible();
  const ran = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true;';
    document.body.append(script);
    await new Promise((resolve) => setTimeout(resolve, 100));
    return (window as { __inlineRan?: boolean }).__inlineRan === true;
  });
  expect(ran).toBe(false);
  await expect.poll(() => problems.join('\n')).toContain('script-src');
  await context.close();
});
