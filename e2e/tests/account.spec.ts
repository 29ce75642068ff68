import { createUser, expect, PASSWORD, signIn, test, uniqueEmail } from '../support/fixtures';
import { testImagePath } from '../support/global-setup';
import { linkFromOutbox } from '../support/outbox';

test('an unverified account cannot sign in and can ask for a new link', async ({ page, request, allowConsole }) => {
  allowConsole(/status of 400/);
  allowConsole(/ApiError|POST \/api\/auth\/login\/ → 400/);
  const email = uniqueEmail('unverified');
  const register = await request.post('/api/auth/register/', {
    data: { email, password1: PASSWORD, password2: PASSWORD },
  });
  expect(register.status()).toBe(201);
  await page.goto('/auth/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('[data-sonner-toast][data-type="error"]')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/login$/);

  await page.goto('/auth/verification-sent');
  await page.getByLabel("Didn't get it? Resend to").fill(email);
  await page.getByRole('button', { name: 'Resend verification e-mail' }).click();
  await expect(page.getByText('We sent a new verification link.')).toBeVisible();
});

test('signing up with an address that has an account looks like any sign-up; its holder is told by e-mail', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const holder = await createUser(request, 'Holder');
  const signUp = async (email: string) => {
    await page.goto('/auth/register');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page).toHaveURL(/\/auth\/verification-sent$/);
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await expect(page.getByText('the e-mail tells you how to sign in instead')).toBeVisible();
  };
  await signUp(uniqueEmail('fresh'));
  await signUp(holder.email);

  // The holder's e-mail points to sign-in and to choosing a new password; the account is as it was.
  const link = await linkFromOutbox(holder.email, '/auth/reset-password');
  await page.goto(link);
  await expect(page).toHaveURL(/\/auth\/reset-password$/);
  const login = await request.post('/api/auth/login/', { data: { email: holder.email, password: PASSWORD } });
  expect(login.status()).toBe(200);
});

test('a forgotten password is reset through the e-mailed link', async ({ page, request }) => {
  const user = await createUser(request, 'Forgetful');
  await page.goto('/auth/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/auth\/reset-password$/);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();

  const link = await linkFromOutbox(user.email, '/auth/confirm-password-reset/');
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByLabel('Confirm new password').fill('different');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Use at least 8 characters.')).toBeVisible();
  await expect(page.getByText('The passwords do not match.')).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('a-brand-new-passphrase');
  await page.getByLabel('Confirm new password').fill('a-brand-new-passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('heading', { name: 'Password changed' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill('a-brand-new-passphrase');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the profile changes avatar, names and password', async ({ page, request }) => {
  const user = await createUser(request, 'Profiled');
  await signIn(page, user);
  await page.goto('/profile');
  await expect(page.getByText(user.email).first()).toBeVisible();

  await page.getByLabel('Avatar image').setInputFiles(testImagePath());
  await expect(page.getByText('Avatar updated')).toBeVisible();
  const avatar = page.getByRole('button', { name: 'User menu' }).locator('img');
  await expect(avatar).toHaveAttribute('src', /.+/);

  await page.getByLabel('First name').fill('Rosalind');
  await page.getByLabel('Last name').fill('Franklin');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  await expect(page.getByRole('button', { name: 'User menu' })).toContainText('Rosalind Franklin');

  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByLabel('New password', { exact: true }).fill('another-long-passphrase');
  await page.getByLabel('Confirm new password').fill('another-long-passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed')).toBeVisible();
  const login = await request.post('/api/auth/login/', {
    data: { email: user.email, password: 'another-long-passphrase' },
  });
  expect(login.ok()).toBe(true);
});
