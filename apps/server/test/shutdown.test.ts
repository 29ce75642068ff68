import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '..');

function waitForHealthy(url: string, timeoutMs: number): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const attempt = () => {
      fetch(url).then(
        (response) => (response.ok ? resolve() : retry()),
        () => retry(),
      );
    };
    const retry = () =>
      Date.now() - started > timeoutMs ? reject(new Error('server not healthy')) : setTimeout(attempt, 200);
    attempt();
  });
}

describe('SIGTERM', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vat-shutdown-'));
  let server: ChildProcess | undefined;
  afterAll(() => {
    server?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lets a request in flight finish, refuses new ones, then exits cleanly', async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    const exited = new Promise<number | null>((resolve) => server!.once('exit', (code) => resolve(code)));
    await waitForHealthy(`http://127.0.0.1:${port}/api/health/`, 60_000);

    // A request whose body arrives in two halves, with SIGTERM in between.
    const body = JSON.stringify({ email: 'nobody@lab.test', password: 'not the password' });
    const response = new Promise<number>((resolve, reject) => {
      const request = http.request(`http://127.0.0.1:${port}/api/auth/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      request.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      request.on('error', reject);
      request.write(body.slice(0, 10));
      setTimeout(() => {
        server!.kill('SIGTERM');
        setTimeout(() => request.end(body.slice(10)), 500);
      }, 300);
    });
    expect(await response).toBe(400);

    const code = await exited;
    expect(code).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/api/health/`)).rejects.toThrow();
  });
});
