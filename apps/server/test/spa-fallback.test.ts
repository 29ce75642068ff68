import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-app.js';

describe('serving the built web app', () => {
  let t: TestApp;
  const webDist = mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  beforeAll(async () => {
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');
    t = await createTestApp({ config: { webDistDir: webDist } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('answers client-side routes with index.html, not cached', async () => {
    for (const url of ['/', '/projects/abc/subjects', '/auth/confirm-verification/key']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves built assets with long caching, and 404s a missing one instead of sending HTML', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await t.app.inject({ method: 'GET', url: '/assets/app-old999.js' });
    expect(missing.statusCode).toBe(404);
  });

  it('keeps unknown /api paths as JSON 404s', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nothing/here/' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ errors: 'Not found.' });
  });
});
