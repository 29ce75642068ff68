import { defineConfig, devices } from '@playwright/test';
import { STRIPE_TEST_KEY, STRIPE_TEST_PRICE, STRIPE_TEST_WEBHOOK_SECRET } from '../apps/server/test/stripe-mock';
import { billingEnv, CHROMIUM_ARGS, chromiumPath, e2eEnv } from './support/env';

const { port, baseURL, dataDir } = e2eEnv();
const billing = billingEnv();

export default defineConfig({
  testDir: './tests',
  globalSetup: './support/global-setup.ts',
  fullyParallel: false,
  // Two spec files at a time on a developer's machine (E2E_WORKERS overrides): each test makes its own users and
  // projects and spends much of its time waiting on the server's jobs and the video player. In CI one at a time: on
  // its two cores, two browsers playing video beside the server's ffmpeg jobs starved each other's pages past their
  // waits (a page's first render, a video's first frame), and a serial file fails whole on one such miss. One at a
  // time was also faster there: 65 tests in 13.8 min, against 19.8 min with two workers and four misses.
  workers: Number(process.env.E2E_WORKERS ?? (process.env.CI ? 1 : 2)),
  retries: process.env.CI ? 1 : 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: [
    {
      // The app exactly as `npm start` serves it: builds if needed, migrates, serves /api and the SPA.
      command: 'node ../scripts/start.mjs',
      url: `${baseURL}/api/health/`,
      reuseExistingServer: !!process.env.E2E_REUSE_SERVER,
      timeout: 240_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        DATA_DIR: dataDir,
        PUBLIC_URL: baseURL,
        LOG_LEVEL: 'warn',
        // Every test signs its users up from 127.0.0.1: lift the per-address sign-up limit (tested in the API tests).
        REGISTRATIONS_PER_ADDRESS: '10000',
      },
    },
    {
      // Stripe for the billing server: its API, its hosted checkout page, and webhook deliveries to the app.
      command: 'npx tsx support/stripe-mock-server.ts',
      url: `${billing.stripeURL}/__test/health`,
      reuseExistingServer: !!process.env.E2E_REUSE_SERVER,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(billing.stripePort),
        PAGES_URL: billing.stripeURL,
        WEBHOOK_URL: `${billing.baseURL}/api/billing/webhook/`,
      },
    },
    {
      // The same app with billing on (started after the first, which has built it).
      command: 'node ../scripts/start.mjs',
      url: `${billing.baseURL}/api/health/`,
      reuseExistingServer: !!process.env.E2E_REUSE_SERVER,
      timeout: 240_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(billing.port),
        DATA_DIR: billing.dataDir,
        PUBLIC_URL: billing.baseURL,
        LOG_LEVEL: 'warn',
        REGISTRATIONS_PER_ADDRESS: '10000',
        STRIPE_SECRET_KEY: STRIPE_TEST_KEY,
        STRIPE_WEBHOOK_SECRET: STRIPE_TEST_WEBHOOK_SECRET,
        STRIPE_PRICE_PRO: STRIPE_TEST_PRICE,
        STRIPE_API_URL: billing.stripeURL,
      },
    },
  ],
});
