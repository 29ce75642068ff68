import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/** `npm run screenshots`: PNGs of the main screens to docs/screenshots/. */
export default defineConfig({
  ...base,
  testDir: './screenshots',
  timeout: 120_000,
  retries: 0,
  reporter: 'list',
});
