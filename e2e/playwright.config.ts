import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath, e2eEnv } from './support/env';

const { port, baseURL, dataDir } = e2eEnv();

export default defineConfig({
  testDir: './tests',
  globalSetup: './support/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
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
    },
  },
});
