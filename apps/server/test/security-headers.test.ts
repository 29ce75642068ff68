import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, multipartFile, type TestUser, TINY_PNG } from './factories.js';
import { createProjectWithSubject, type ProjectWithSubject, uploadVideo } from './factories-videos.js';
import { videoFixtures } from './fixtures/videos.js';
import { createTestApp, type TestApp } from './test-app.js';

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

/** What every answer of the app carries, whatever its kind. */
function expectSecurityHeaders(response: Response, what: string) {
  const csp = directives(response.headers.get('content-security-policy'));
  expect(csp.get('default-src'), `${what}: default-src`).toEqual(["'self'"]);
  expect(csp.get('script-src'), `${what}: script-src`).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors'), `${what}: frame-ancestors`).toEqual(["'none'"]);
  expect(csp.get('object-src'), `${what}: object-src`).toEqual(["'none'"]);
  expect(csp.has('upgrade-insecure-requests'), `${what}: no upgrade on plain http`).toBe(false);
  expect(response.headers.get('x-content-type-options'), `${what}: nosniff`).toBe('nosniff');
  expect(response.headers.get('referrer-policy'), `${what}: referrer`).toBe('no-referrer');
  expect(response.headers.get('x-frame-options'), `${what}: x-frame-options`).toBe('DENY');
  // Plain http (the embedded default): no HSTS.
  expect(response.headers.get('strict-transport-security'), `${what}: hsts`).toBeNull();
  return csp;
}

describe('security headers on every kind of answer', () => {
  let t: TestApp;
  let owner: TestUser;
  let project: ProjectWithSubject;
  let videoUrl: string;
  const webDist = mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  const get = (url: string, user?: TestUser, headers: Record<string, string> = {}) =>
    fetch(url.startsWith('http') ? url : `${t.url}${url}`, { headers: { ...user?.headers, ...headers } });

  beforeAll(async () => {
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(
      path.join(webDist, 'index.html'),
      '<!doctype html><script src="/theme-init.js"></script><div id="root"></div>',
    );
    writeFileSync(path.join(webDist, 'theme-init.js'), '/* theme */');
    writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');
    t = await createTestApp({ listen: true, config: { webDistDir: webDist } });
    owner = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    const uploaded = await uploadVideo(t.app, owner, project.videosUrl, videoFixtures().h264Mp4);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    videoUrl = `${project.videosUrl}${uploaded.json().video_uuid}/`;
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('the SPA: index.html for client routes, its scripts and assets', async () => {
    for (const url of ['/', '/projects/abc/subjects', '/theme-init.js', '/assets/app-abc123.js']) {
      const response = await get(url);
      expect(response.status, url).toBe(200);
      const csp = expectSecurityHeaders(response, url);
      // No inline script anywhere; styles are inline only for the <style> elements Radix and sonner insert.
      expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
      expect(csp.get('script-src-attr')).toEqual(["'none'"]);
      expect(csp.get('img-src')).toEqual(["'self'", 'blob:', 'data:']);
      expect(csp.get('media-src')).toEqual(["'self'"]);
      expect(csp.get('connect-src')).toEqual(["'self'"]);
    }
  });

  it('JSON answers of the API: 200, 401, 404 and 405', async () => {
    const list = await get('/api/projects/', owner);
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toContain('application/json');
    expectSecurityHeaders(list, 'GET /api/projects/');
    expectSecurityHeaders(await get('/api/projects/'), '401');
    const missing = await get('/api/nothing/here/');
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing, '404');
    const wrongMethod = await fetch(`${t.url}/api/health/`, { method: 'DELETE' });
    expect(wrongMethod.status).toBe(405);
    expectSecurityHeaders(wrongMethod, '405');
  });

  it('a file under /api/files/ (a project logo)', async () => {
    const body = multipartFile('logo', 'logo.png', TINY_PNG);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/projects/${project.projectUuid}/upload_logo/`,
      payload: body.payload,
      headers: { ...owner.headers, ...body.headers },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const logoUrl: string = uploaded.json().logo_url;
    expect(logoUrl).toContain('/api/files/');
    const image = await get(logoUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expectSecurityHeaders(image, 'file');
  });

  it('a video stream: 206 for a Range, by its signed URL', async () => {
    const detail = await get(videoUrl, owner);
    const { stream_url } = (await detail.json()) as { stream_url: string };
    const partial = await get(stream_url, undefined, { range: 'bytes=0-99' });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toMatch(/^bytes 0-99\//);
    expectSecurityHeaders(partial, 'stream 206');
    await partial.arrayBuffer();
  });

  it('an export download (a track as CSV, an attachment)', async () => {
    const annotations = `${videoUrl}annotations/`;
    const track = await fetch(`${t.url}${annotations}config/`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Grooming' }),
    });
    expect(track.status, await track.clone().text()).toBe(201);
    const { annotation_config_uuid } = (await track.json()) as { annotation_config_uuid: string };
    const exported = await get(`${annotations}${annotation_config_uuid}/export/?format=csv`, owner);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toContain('attachment');
    expectSecurityHeaders(exported, 'export');
  });

  it('a tus answer, written by tus itself on the raw socket', async () => {
    const created = await fetch(`${t.url}/api/uploads/`, {
      method: 'POST',
      headers: { ...owner.headers, 'tus-resumable': '1.0.0', 'upload-length': '10' },
    });
    expect(created.status).toBe(400);
    expectSecurityHeaders(created, 'tus');
  });

  it('the API docs (Swagger UI) have their own policy: its files and data: icons, never framed', async () => {
    const docs = await get('/api/docs/');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toContain('text/html');
    const csp = expectSecurityHeaders(docs, 'docs');
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    const bundle = await get('/api/docs/static/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expectSecurityHeaders(bundle, 'docs bundle');
    await bundle.arrayBuffer();
  });
});
