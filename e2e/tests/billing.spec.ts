import type { Page } from '@playwright/test';
import { billingEnv } from '../support/env';
import { createSubject, createUser, expect, signIn, test } from '../support/fixtures';

/**
 * Subscriptions against the server with billing on, whose Stripe is the test Stripe server: its checkout page takes
 * the payment and sends the webhook, and its control call moves the subscription as Stripe would.
 */
const billing = billingEnv();
test.use({ baseURL: billing.baseURL });

async function setSubscription(projectUuid: string, status: string) {
  const response = await fetch(`${billing.stripeURL}/__test/projects/${projectUuid}/subscription`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  expect(((await response.json()) as { webhook_status: number }).webhook_status).toBe(200);
}

async function pay(page: Page, button: string, projectUuid: string) {
  await page.getByRole('button', { name: button }).first().click();
  await expect(page.getByRole('heading', { name: 'Test checkout' })).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(`${billing.baseURL}/projects/${projectUuid}?checkout=success`);
}

async function shoot(page: Page, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      localStorage.setItem('vite-ui-theme', t);
      document.documentElement.classList.remove('light', 'dark');
      document.documentElement.classList.add(t);
    }, theme);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: test.info().outputPath(`${name}-${theme}.png`), fullPage: true });
  }
}

test('a Pro project: a draft until checkout, active once paid, a warning when a payment fails, locked and read-only when the subscription ends, active again on renewal', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
  const owner = await createUser(request, 'Bea', billing.dataDir);
  await signIn(page, owner);

  // With billing on, a new project chooses its plan, and starts as a draft.
  await page.goto('/new-project');
  await page.getByLabel('Project name').fill('Paid twitch study');
  await expect(page.getByRole('radio', { name: /^Pro/ })).toBeChecked();
  await page.getByRole('radio', { name: /^Institutional/ }).check();
  await page.getByRole('radio', { name: /^Pro/ }).check();
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('heading', { name: 'Paid twitch study' })).toBeVisible();
  const projectUuid = new URL(page.url()).pathname.split('/')[2]!;
  const banner = page.getByTestId('project-status-banner');
  await expect(banner).toContainText('Draft');
  await expect(banner).toContainText('uploads and analyses start once its Pro subscription is active');
  const card = page.getByTestId('billing-card');
  await expect(card).toContainText('Pro');
  await expect(card).toContainText('None yet');
  await expect(page.getByRole('img', { name: 'Draft' }).first()).toBeVisible();
  await shoot(page, 'project-draft');

  // Set-up works in a draft, uploads wait and say why.
  const subject = await createSubject(request, owner, projectUuid, 'M1');
  await page.goto(`/projects/${projectUuid}/subjects/${subject.subject_uuid}`);
  await expect(page.getByTestId('upload-blocked')).toContainText('This project is a draft');
  await expect(page.getByTestId('project-status-banner')).toContainText('Draft');

  // Checkout on Stripe's page; back on the project page it becomes active once the webhook has arrived.
  await page.goto(`/projects/${projectUuid}`);
  await pay(page, 'Subscribe', projectUuid);
  await expect(page.getByTestId('project-status-banner')).toHaveCount(0, { timeout: 20_000 });
  await expect(card).toContainText('Active');
  await expect(card).toContainText(/Renews\s*\w+ \d+, \d{4}/);
  await expect(card.getByRole('button', { name: 'Manage billing' })).toBeVisible();
  await shoot(page, 'project-active');

  // A failed payment: still active, with a warning and the way to fix it.
  await setSubscription(projectUuid, 'past_due');
  await page.reload();
  await expect(banner).toContainText('Payment failed');
  await expect(banner.getByRole('button', { name: 'Manage billing' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit description' })).toBeVisible();

  // The subscription ends: locked, with its banner, a greyed logo, and no control that would change anything.
  await setSubscription(projectUuid, 'canceled');
  await page.reload();
  await expect(banner).toContainText('Locked');
  await expect(banner).toContainText('This project is locked: renew its subscription to make changes.');
  await expect(page.getByRole('button', { name: 'Switch project' }).locator('[data-locked]')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Locked' }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit description' })).toHaveCount(0);
  await expect(page.getByLabel('Invite by e-mail')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete project' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Change logo' })).toHaveCount(0);
  await shoot(page, 'project-locked');
  await page.goto(`/projects/${projectUuid}/subjects`);
  await expect(page.getByTestId('project-status-banner')).toContainText('Locked');
  await expect(page.getByRole('link', { name: 'M1' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New subject' })).toHaveCount(0);
  await page.goto(`/projects/${projectUuid}/subjects/${subject.subject_uuid}`);
  await expect(page.getByRole('button', { name: 'Edit subject' })).toHaveCount(0);
  await expect(page.getByTestId('upload-blocked')).toHaveCount(0);
  await expect(page.getByText('Drop videos here')).toHaveCount(0);

  // Renewal: a new subscription, and everything can be changed again; nothing was lost.
  await page.goto(`/projects/${projectUuid}`);
  await pay(page, 'Subscribe again', projectUuid);
  await expect(page.getByTestId('project-status-banner')).toHaveCount(0, { timeout: 20_000 });
  await page.goto(`/projects/${projectUuid}/subjects`);
  await expect(page.getByRole('link', { name: 'M1' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New subject' }).first()).toBeVisible();
});
