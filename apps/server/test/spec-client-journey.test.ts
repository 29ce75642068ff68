import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, waitForMailTo } from '../src/modules/auth/outbox.test-support.js';
import { videoFixtures } from './fixtures/videos.js';
import { createTestApp, type TestApp } from './test-app.js';

/**
 * The acceptance path of the foundation, as a client that knows only the spec and the documented conventions
 * would walk it: real HTTP, e-mail through the outbox, a real upload processed by the job worker, Range streaming.
 */
describe('a client written from the spec alone', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ listen: true, workers: true });
  });
  afterAll(() => t.close());

  const call = async (method: string, path: string, options: { token?: string; body?: unknown } = {}) => {
    const response = await fetch(`${t.url}/api${path}`, {
      method,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.body ? { 'content-type': 'application/json' } : {}),
      },
      body: options.body ? JSON.stringify(options.body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };

  async function signUp(email: string) {
    const password = 'a long lab password';
    const registered = await call('POST', '/auth/register/', {
      body: { email, password1: password, password2: password, first_name: 'Grace', last_name: 'Hopper' },
    });
    expect(registered.status).toBe(201);
    const early = await call('POST', '/auth/login/', { body: { email, password } });
    expect(early.status).toBe(400);
    expect(String(early.body.errors)).toMatch(/verif/i);

    const link = linkIn(
      (await waitForMailTo(t.dataDir, email)).text,
      `${t.ctx.config.publicUrl}/auth/confirm-verification/`,
    );
    const key = decodeURIComponent(link.split('/auth/confirm-verification/')[1]!);
    expect((await call('POST', '/auth/register/verify-email/', { body: { key } })).status).toBe(200);

    const login = await call('POST', '/auth/login/', { body: { email, password } });
    expect(login.status).toBe(200);
    expect(Object.keys(login.body).sort()).toEqual(['access', 'refresh', 'user']);
    expect(login.body.user).toMatchObject({ email, first_name: 'Grace', last_name: 'Hopper' });
    return login.body.access as string;
  }

  it('registers, verifies, logs in, creates a project, subject and video, streams it, and cannot see another’s project', async () => {
    const token = await signUp('grace@lab.test');

    const project = await call('POST', '/projects/', {
      token,
      body: { name: 'Open field', metadata: { description: 'd', institution: 'i', principal_investigator: 'p' } },
    });
    expect(project.status).toBe(201);
    const projectUuid = project.body.project_uuid as string;

    const subject = await call('POST', `/projects/${projectUuid}/subjects/`, {
      token,
      body: { name: 'M1', group: 'control' },
    });
    expect(subject.status).toBe(201);

    const form = new FormData();
    form.append('file', new Blob([readFileSync(videoFixtures().h264Mp4)]), 'day1.mp4');
    const videosPath = `/projects/${projectUuid}/subjects/${subject.body.subject_uuid}/videos/`;
    const upload = await fetch(`${t.url}/api${videosPath}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(upload.status).toBe(201);
    let video = (await upload.json()) as { status: string; video_uuid: string; stream_url: string; size_bytes: number };
    for (let i = 0; i < 150 && video.status !== 'ready' && video.status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      video = (await call('GET', `${videosPath}${video.video_uuid}/`, { token })).body;
    }
    expect(video).toMatchObject({ status: 'ready', fps: 30, frame_count: 90, width: 320, height: 240 });

    // A <video> element sends no headers: the stream_url's token is enough.
    const ranged = await fetch(video.stream_url, { headers: { range: 'bytes=100-1099' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('accept-ranges')).toBe('bytes');
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-1099/${video.size_bytes}`);
    const bytes = Buffer.from(await ranged.arrayBuffer());
    expect(bytes.equals(readFileSync(videoFixtures().h264Mp4).subarray(100, 1100))).toBe(true);

    const stranger = await signUp('eve@lab.test');
    for (const path of [
      `/projects/${projectUuid}/`,
      `/projects/${projectUuid}/subjects/`,
      `${videosPath}${video.video_uuid}/`,
    ]) {
      const refused = await call('GET', path, { token: stranger });
      expect(refused).toEqual({ status: 404, body: { errors: 'Not found.' } });
    }
    const strangerStream = await fetch(`${t.url}/api${videosPath}${video.video_uuid}/stream/`, {
      headers: { authorization: `Bearer ${stranger}`, range: 'bytes=0-9' },
    });
    expect(strangerStream.status).toBe(404);
  });

  it('answers bad requests in the error shape: 415, 413, malformed JSON, 405', async () => {
    const token = await signUp('ada@lab.test');
    const textBody = await fetch(`${t.url}/api/projects/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body: 'name=x',
    });
    expect(textBody.status).toBe(415);
    expect(typeof ((await textBody.json()) as { errors: unknown }).errors).toBe('string');

    const huge = await fetch(`${t.url}/api/projects/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', metadata: { description: 'y'.repeat(2 * 1024 * 1024) } }),
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ errors: 'The request body is too large.' });

    const malformed = await fetch(`${t.url}/api/projects/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ errors: 'The request body is not valid JSON.' });

    const wrongMethod = await call('PATCH', '/projects/', { token, body: {} });
    expect(wrongMethod.status).toBe(405);
  });
});
