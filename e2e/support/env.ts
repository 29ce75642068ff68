import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * One server per run: port 8123 (E2E_PORT overrides) and a fresh DATA_DIR. The runner sets these once in its
 * environment; workers inherit them, so every process agrees on the same server and outbox.
 */
export function e2eEnv() {
  process.env.E2E_PORT ??= '8123';
  process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'e2e-data-'));
  const port = Number(process.env.E2E_PORT);
  const baseURL = `http://localhost:${port}`;
  return { port, baseURL, dataDir: process.env.E2E_DATA_DIR };
}

/**
 * A second server with billing on (new projects are drafts), whose Stripe is the test Stripe server next to it; tests
 * of subscriptions and locked projects use it. Ports E2E_PORT + 1000 and + 2000 unless E2E_BILLING_PORT and
 * E2E_STRIPE_PORT say otherwise.
 */
export function billingEnv() {
  const { port } = e2eEnv();
  process.env.E2E_BILLING_PORT ??= String(port + 1000);
  process.env.E2E_STRIPE_PORT ??= String(port + 2000);
  process.env.E2E_BILLING_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'e2e-billing-'));
  const billingPort = Number(process.env.E2E_BILLING_PORT);
  const stripePort = Number(process.env.E2E_STRIPE_PORT);
  return {
    port: billingPort,
    baseURL: `http://localhost:${billingPort}`,
    dataDir: process.env.E2E_BILLING_DATA_DIR,
    stripeURL: `http://127.0.0.1:${stripePort}`,
    stripePort,
  };
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const chromiumPath = () => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const assetsDir = () => path.join(tmpdir(), 'e2e-assets');
