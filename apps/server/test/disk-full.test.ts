import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISK_FULL_MESSAGE } from '../src/lib/errors.js';
import { linkIn, waitForMailTo } from '../src/modules/auth/outbox.test-support.js';
import { videoMultipart } from './factories-videos.js';
import { videoFixtures } from './fixtures/videos.js';

const serverDir = path.resolve(import.meta.dirname, '..');
const PASSWORD = 'a long enough passphrase';

// The server runs in its own mount namespace with small tmpfs mounts on DATA_DIR/tmp (uploads arrive there) and
// DATA_DIR/files (local storage): a real full disk, not a mocked one. Needs `unshare -m` (root, or user namespaces).
const canUnshare =
  spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /mnt && df -k /mnt']).status === 0;
if (!canUnshare)
  throw new Error('disk-full.test.ts needs `unshare -rm` and tmpfs mounts (run as root or with user namespaces)');

/** Every file (not folder) under `dir` with its size, as the server's mount namespace sees it. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at)) {
      const full = path.join(at, entry);
      const stat = statSync(full, { throwIfNoEntry: false });
      if (stat?.isDirectory()) walk(full);
      else if (stat) out.push(`${path.relative(dir, full)} ${stat.size}`);
    }
  };
  walk(dir);
  return out.sort();
}

describe('a full disk during an upload', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vat-diskfull-'));
  const port = 9450 + Math.floor(Math.random() * 40);
  const base = `http://127.0.0.1:${port}`;
  let server: ChildProcess;
  let inside: (relative: string) => string;
  let headers: Record<string, string>;
  let videosUrl: string;
  let df = '';

  beforeAll(async () => {
    mkdirSync(path.join(dataDir, 'tmp'), { recursive: true });
    mkdirSync(path.join(dataDir, 'files'), { recursive: true });
    const script = [
      'mount -t tmpfs -o size=1m tmpfs "$DATA_DIR/tmp"',
      'mount -t tmpfs -o size=64k tmpfs "$DATA_DIR/files"',
      'df -k "$DATA_DIR/tmp" "$DATA_DIR/files" >&2',
      'exec node --import tsx src/main.ts',
    ].join(' && ');
    server = spawn('unshare', ['-rm', 'sh', '-c', script], {
      cwd: serverDir,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: '',
        // The job workers run in this process: the sign-up e-mail below is sent by one.
        RUN_WORKERS: 'true',
        JWT_SECRET: `disk-full-${randomUUID()}`,
        PUBLIC_URL: base,
        LOG_LEVEL: process.env.DISK_FULL_LOG ?? 'fatal',
      },
      stdio: ['ignore', process.env.DISK_FULL_LOG ? 'inherit' : 'ignore', 'pipe'],
    });
    server.stderr!.on('data', (chunk: Buffer) => {
      df += chunk.toString();
    });
    // The server's view of the disk, mounts included.
    inside = (relative) => path.join(`/proc/${server.pid}/root`, dataDir, relative);
    const started = Date.now();
    for (;;) {
      const ok = await fetch(`${base}/api/health/`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() - started > 90_000) throw new Error(`server did not start: ${df}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // A verified owner with a project and a subject, through the API.
    const post = (url: string, body: object, auth: Record<string, string> = {}) =>
      fetch(`${base}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify(body),
      });
    const email = `full-${randomUUID().slice(0, 8)}@lab.test`;
    expect((await post('/api/auth/register/', { email, password1: PASSWORD, password2: PASSWORD })).status).toBe(201);
    const key = linkIn((await waitForMailTo(dataDir, email)).text, `${base}/auth/confirm-verification/`)
      .split('/')
      .at(-1)!;
    expect((await post('/api/auth/register/verify-email/', { key })).status).toBe(200);
    const { access } = (await (await post('/api/auth/login/', { email, password: PASSWORD })).json()) as {
      access: string;
    };
    headers = { authorization: `Bearer ${access}` };
    const project = (await (
      await post('/api/projects/', { name: 'Full disk', metadata: { description: '' } }, headers)
    ).json()) as { project_uuid: string };
    const subject = (await (
      await post(`/api/projects/${project.project_uuid}/subjects/`, { name: 'M1' }, headers)
    ).json()) as { subject_uuid: string };
    videosUrl = `/api/projects/${project.project_uuid}/subjects/${subject.subject_uuid}/videos/`;
  }, 150_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function videoCount(): Promise<number> {
    const response = await fetch(`${base}${videosUrl}`, { headers });
    return ((await response.json()) as { count: number }).count;
  }

  it('runs on the small tmpfs mounts', () => {
    expect(df).toMatch(/tmpfs\s+1024\s/);
    expect(df).toMatch(/tmpfs\s+64\s/);
  });

  it('multipart: the temp disk fills up → 507 {errors}, no partial file, no video', async () => {
    const body = videoMultipart(randomBytes(3 * 1024 * 1024), 'big.mp4');
    const response = await fetch(`${base}${videosUrl}`, {
      method: 'POST',
      headers: { ...headers, ...body.headers },
      body: body.payload,
    });
    expect(response.status).toBe(507);
    expect(await response.json()).toEqual({ errors: DISK_FULL_MESSAGE });
    expect(filesUnder(inside('tmp')).filter((f) => !f.startsWith('tus/'))).toEqual([]);
    expect(filesUnder(inside('files'))).toEqual([]);
    expect(await videoCount()).toBe(0);
  });

  it('multipart: storage fills up while the video moves in → 507 {errors}, nothing half-stored', async () => {
    // A readable video (163 KB) fits the temp disk but not the 64 KB storage disk.
    const body = videoMultipart(readFileSync(videoFixtures().h264Mp4), 'clip.mp4');
    const response = await fetch(`${base}${videosUrl}`, {
      method: 'POST',
      headers: { ...headers, ...body.headers },
      body: body.payload,
    });
    expect(response.status).toBe(507);
    expect(await response.json()).toEqual({ errors: DISK_FULL_MESSAGE });
    expect(filesUnder(inside('files'))).toEqual([]);
    expect(filesUnder(inside('tmp')).filter((f) => !f.startsWith('tus/'))).toEqual([]);
    expect(await videoCount()).toBe(0);
  });

  it('tus: the disk fills up while the bytes arrive → 507 {errors}, the part and the uploading row are gone', async () => {
    const content = randomBytes(3 * 1024 * 1024);
    const b64 = (value: string) => Buffer.from(value).toString('base64');
    const [project, , subject] = videosUrl.split('/').slice(3, 6);
    const created = await fetch(`${base}/api/uploads/`, {
      method: 'POST',
      headers: {
        ...headers,
        'tus-resumable': '1.0.0',
        'upload-length': String(content.length),
        'upload-metadata': `project_uuid ${b64(project!)},subject_uuid ${b64(subject!)},filename ${b64('big.mp4')}`,
      },
    });
    expect(created.status).toBe(201);
    expect(await videoCount()).toBe(1);
    const patched = await fetch(created.headers.get('location')!, {
      method: 'PATCH',
      headers: {
        ...headers,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: content,
    });
    expect(patched.status).toBe(507);
    expect(await patched.json()).toEqual({ errors: DISK_FULL_MESSAGE });
    expect(filesUnder(inside('tmp'))).toEqual([]);
    expect(await videoCount()).toBe(0);
  });
});
