import type { Browser, BrowserContext } from '@playwright/test';
import { billingEnv, e2eEnv } from './env';

/** The app servers of the run (billing off and on): every document they serve must carry the CSP. */
const appOrigins = () => new Set([new URL(e2eEnv().baseURL).origin, new URL(billingEnv().baseURL).origin]);

declare global {
  interface Window {
    __reportCspViolation?: (text: string) => void;
  }
}

/**
 * Records, into `problems`, every Content-Security-Policy violation in `context`'s pages — the browser's
 * `securitypolicyviolation` events and its "Refused to …" console errors, which no test may allow — and every
 * document of the app served without a CSP (so the suite really runs with it on).
 */
export async function watchContentSecurityPolicy(context: BrowserContext, problems: string[]): Promise<void> {
  const origins = appOrigins();
  await context.exposeBinding('__reportCspViolation', (_source, text: string) => {
    problems.push(`CSP violation: ${text}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__reportCspViolation?.(
        `${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} on ${event.documentURI}` +
          (event.sourceFile ? ` (${event.sourceFile}:${event.lineNumber})` : ''),
      );
    });
  });
  context.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) problems.push(`CSP console: ${message.text()}`);
  });
  context.on('response', (response) => {
    if (response.request().resourceType() !== 'document') return;
    const url = new URL(response.url());
    if (!origins.has(url.origin) || response.status() >= 300) return;
    if (!response.headers()['content-security-policy']) problems.push(`no CSP on the document ${url.pathname}`);
  });
}

/**
 * Guards the test's own context and every context the test opens with `browser.newContext()` until `restore()` is
 * called (the worker's browser is shared, so its method is put back after each test).
 */
export async function guardBrowserContexts(
  browser: Browser,
  context: BrowserContext,
  problems: string[],
): Promise<{ restore(): void }> {
  await watchContentSecurityPolicy(context, problems);
  const newContext = browser.newContext;
  browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
    const created = await newContext.apply(browser, args);
    await watchContentSecurityPolicy(created, problems);
    return created;
  };
  return {
    restore() {
      browser.newContext = newContext;
    },
  };
}
