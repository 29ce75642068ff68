import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { registerSecurityHeaders } from './security-headers.js';

/** The headers of one answer of an app with only the security headers. */
async function headersWith(publicUrl: string) {
  const app = Fastify();
  const context = { config: { publicUrl } as AppContext['config'] };
  await registerSecurityHeaders(app, context);
  app.get('/x', async () => ({ ok: true }));
  const response = await app.inject({ method: 'GET', url: '/x' });
  await app.close();
  return response.headers;
}

describe('security headers', () => {
  it('allows no origin but the app itself for images, media and downloads (files come through the app)', async () => {
    const csp = String((await headersWith('http://localhost:8000'))['content-security-policy']);
    expect(csp).toContain("img-src 'self' blob: data:;");
    expect(csp).toContain("media-src 'self';");
    expect(csp).toContain("connect-src 'self';");
  });

  it('sends HSTS only when PUBLIC_URL is https, without subdomains', async () => {
    expect((await headersWith('http://lab-server:8000'))['strict-transport-security']).toBeUndefined();
    expect((await headersWith('https://videos.lab.example'))['strict-transport-security']).toBe('max-age=15552000');
  });
});
