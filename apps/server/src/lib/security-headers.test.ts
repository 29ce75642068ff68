import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { registerSecurityHeaders } from './security-headers.js';

/** The headers of one answer of an app with only the security headers, over a store that presigns (or not). */
async function headersWith(publicUrl: string, presigned: string | null) {
  const app = Fastify();
  const context = {
    config: { publicUrl } as AppContext['config'],
    storage: { presignedUrl: async () => presigned } as unknown as AppContext['storage'],
  };
  await registerSecurityHeaders(app, context);
  app.get('/x', async () => ({ ok: true }));
  const response = await app.inject({ method: 'GET', url: '/x' });
  await app.close();
  return response.headers;
}

describe('security headers', () => {
  it("allows the S3 store's origin for images, media and downloads when files are presigned URLs", async () => {
    const headers = await headersWith(
      'http://localhost:8000',
      'https://lab-videos.s3.eu-central-1.amazonaws.com/csp-origin-probe?X-Amz-Signature=abc',
    );
    const csp = String(headers['content-security-policy']);
    const origin = 'https://lab-videos.s3.eu-central-1.amazonaws.com';
    expect(csp).toContain(`img-src 'self' blob: data: ${origin}`);
    expect(csp).toContain(`media-src 'self' ${origin}`);
    expect(csp).toContain(`connect-src 'self' ${origin}`);
    expect(csp).not.toContain('X-Amz-Signature');
  });

  it('sends HSTS only when PUBLIC_URL is https, without subdomains', async () => {
    expect((await headersWith('http://lab-server:8000', null))['strict-transport-security']).toBeUndefined();
    expect((await headersWith('https://videos.lab.example', null))['strict-transport-security']).toBe(
      'max-age=15552000',
    );
  });
});
