import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';

describe('GET /api/health/', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { trashDays: 7 } });
  });
  afterAll(() => t.close());

  it('tells the web app its public settings, the trash days among them', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/config/' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ trash_days: 7, billing_enabled: false });
  });

  it('reports the database and adapters in use', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health/' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'ok',
      database: { kind: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite', ok: true },
      storage: 'local',
      mail: 'outbox',
    });
  });

  it('answers unknown /api paths with 404 in the error shape', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/no-such-thing/' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ errors: 'Not found.' });
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: '/api/health/' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toContain('GET');
    expect(response.json()).toEqual({ errors: 'Method "DELETE" not allowed.' });
  });

  it('serves the OpenAPI 3.1 document and the docs page', async () => {
    const schema = await t.app.inject({ method: 'GET', url: '/api/schema/' });
    expect(schema.statusCode).toBe(200);
    expect(schema.json().openapi).toBe('3.1.0');
    expect(Object.keys(schema.json().paths)).toContain('/api/health/');
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
  });
});
