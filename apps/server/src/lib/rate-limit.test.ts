import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, createTestApp, type TestApp } from '../../test/test-app.js';
import { rateLimits } from '../db/schema.js';
import { RateLimiter } from './rate-limit.js';

/** The database-kept counters on one instance (PGlite, or PostgreSQL when TEST_DATABASE_URL is set). */
describe('RateLimiter (counters in rate_limits)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('counts per key and limit, answers 429 with the seconds left, and keeps no key in clear', async () => {
    const limiter = new RateLimiter(t.ctx.db, 'secret one', 60_000);
    const email = `clear-${randomUUID()}@lab.test`;
    for (let i = 0; i < 3; i++) await limiter.hit({ limit: 'test:account', key: email, max: 3 });
    const error = await limiter.hit({ limit: 'test:account', key: email, max: 3 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, headers: { 'retry-after': expect.stringMatching(/^(59|60)$/) } });
    // Another limit on the same key has its own count.
    await limiter.hit({ limit: 'other:account', key: email, max: 1 });

    const rows = await t.ctx.db.select().from(rateLimits);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(email);
    expect(stored).not.toContain('clear-');
    const row = rows.find((r) => r.key === limiter.storedKey('test:account', email));
    expect(row?.count).toBe(4);
    expect(row!.expiresAt.getTime() - row!.windowStart.getTime()).toBe(60_000);
    // The stored key depends on the secret: without it, a key cannot be guessed from an address list.
    expect(new RateLimiter(t.ctx.db, 'secret two', 60_000).storedKey('test:account', email)).not.toBe(row!.key);
  });

  it('concurrent attempts all count (one atomic upsert each)', async () => {
    const limiter = new RateLimiter(t.ctx.db, 'secret', 60_000);
    const key = randomUUID();
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, () => limiter.hit({ limit: 'burst', key, max: 10 })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(20);
    const [row] = (await t.ctx.db.select().from(rateLimits)).filter((r) => r.key === limiter.storedKey('burst', key));
    expect(row?.count).toBe(30);
  });

  it('reset forgets a key; an expired window starts again at one; the sweep deletes expired rows', async () => {
    const limiter = new RateLimiter(t.ctx.db, 'secret', 200);
    const key = randomUUID();
    await limiter.hit({ limit: 'w', key, max: 1 });
    await expect(limiter.hit({ limit: 'w', key, max: 1 })).rejects.toThrow(/Too many attempts/);
    await limiter.reset('w', key);
    await limiter.hit({ limit: 'w', key, max: 1 });
    await new Promise((resolve) => setTimeout(resolve, 250));
    await limiter.hit({ limit: 'w', key, max: 1 });
    const stored = limiter.storedKey('w', key);
    expect((await t.ctx.db.select().from(rateLimits)).find((r) => r.key === stored)?.count).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, 250));
    const live = new RateLimiter(t.ctx.db, 'secret', 60_000);
    await live.sweep();
    await live.hit({ limit: 'live', key, max: 5 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await limiter.hit({ limit: 'w', key: 'another', max: 1 });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await limiter.sweep()).toBeGreaterThanOrEqual(1);
    const left = (await t.ctx.db.select().from(rateLimits)).map((r) => r.key);
    expect(left).not.toContain(stored);
    expect(left).toContain(live.storedKey('live', key));
  });

  it('sweeps by itself on the first attempt of a process and then at most once a minute', async () => {
    await t.ctx.db.insert(rateLimits).values({
      key: 'old',
      windowStart: new Date(Date.now() - 3_600_000),
      expiresAt: new Date(Date.now() - 1_800_000),
      count: 3,
    });
    const limiter = new RateLimiter(t.ctx.db, 'secret', 60_000);
    await limiter.hit({ limit: 'x', key: randomUUID(), max: 5 });
    expect((await t.ctx.db.select().from(rateLimits)).map((r) => r.key)).not.toContain('old');
    await t.ctx.db.insert(rateLimits).values({
      key: 'old-again',
      windowStart: new Date(Date.now() - 3_600_000),
      expiresAt: new Date(Date.now() - 1_800_000),
      count: 3,
    });
    await limiter.hit({ limit: 'x', key: randomUUID(), max: 5 });
    expect((await t.ctx.db.select().from(rateLimits)).map((r) => r.key)).toContain('old-again');
  });
});

const serverDir = path.resolve(import.meta.dirname, '../..');
const JWT_SECRET = `shared-secret-${randomUUID()}`;

async function waitForHealthy(url: string, timeoutMs: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() - started > timeoutMs) throw new Error(`${url} not healthy after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A web process as an operator starts one in the scaled shape: PostgreSQL, no job workers, the shared JWT secret. */
function startWebProcess(databaseUrl: string, port: number, dataDir: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      RUN_WORKERS: 'false',
      JWT_SECRET,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/**
 * Two web processes on one PostgreSQL database share the auth rate limits (PGlite is one process's database, so this
 * runs in the PostgreSQL pass of the suite; the tests above cover the counters on both).
 */
if (process.env.TEST_DATABASE_URL) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  describe('auth rate limits across two web processes', () => {
    let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
    const processes: ChildProcess[] = [];
    const dataDirs: string[] = [];
    const ports = [9410 + Math.floor(Math.random() * 40), 9460 + Math.floor(Math.random() * 39)];
    const urls = ports.map((port) => `http://127.0.0.1:${port}`);

    beforeAll(async () => {
      database = await createPostgresDatabase(adminUrl);
      // One after the other: the first applies the migrations.
      for (const port of ports) {
        const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vat-limits-'));
        dataDirs.push(dataDir);
        processes.push(startWebProcess(database.url, port, dataDir));
        await waitForHealthy(`http://127.0.0.1:${port}/api/health/`, 90_000);
      }
    }, 200_000);

    afterAll(async () => {
      await Promise.all(
        processes.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
            }),
        ),
      );
      await database?.drop();
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    });

    const post = (base: string, url: string, body: object) =>
      fetch(`${base}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    it('log-in failures of one account slow it down across both processes', async () => {
      const email = `shared-${randomUUID().slice(0, 8)}@lab.test`;
      // 5 failed attempts (the free ones), alternating between the processes: one row counts them all.
      for (let i = 0; i < 5; i++) {
        const response = await post(urls[i % 2]!, '/api/auth/login/', { email, password: `guess ${i}` });
        expect(response.status).toBe(400);
      }
      const key = new RateLimiter(undefined as never, JWT_SECRET, 1).storedKey('login:slow', email);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ count: number }>('SELECT count FROM rate_limits WHERE key = $1', [key]);
        expect(rows).toEqual([{ count: 5 }]);
        // The attacker has kept at it (12 failures: a minute's wait), so a slow machine cannot see the wait run out.
        await client.query('UPDATE rate_limits SET count = 12, window_start = now() WHERE key = $1', [key]);
      } finally {
        await client.end();
      }
      for (const base of urls) {
        const slowed = await post(base, '/api/auth/login/', { email, password: 'one more' });
        expect(slowed.status).toBe(429);
        expect(((await slowed.json()) as { errors: string }).errors).toMatch(/Too many failed log-ins/);
        expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(30);
      }
    });

    it('password reset and resend-verification e-mails share one count across both processes', async () => {
      const email = `mail-${randomUUID().slice(0, 8)}@lab.test`;
      for (let i = 0; i < 10; i++) {
        const url = i % 2 === 0 ? '/api/auth/password/reset/' : '/api/auth/register/resend-email/';
        expect((await post(urls[i % 2]!, url, { email })).status).toBe(200);
      }
      expect((await post(urls[0]!, '/api/auth/register/resend-email/', { email })).status).toBe(429);
      expect((await post(urls[1]!, '/api/auth/password/reset/', { email })).status).toBe(429);
    });

    it('the shared table holds no e-mail address in clear', async () => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ key: string; count: number }>('SELECT key, count FROM rate_limits');
        expect(rows.length).toBeGreaterThanOrEqual(2);
        expect(JSON.stringify(rows)).not.toMatch(/@lab\.test|shared-|mail-|127\.0\.0\.1/);
      } finally {
        await client.end();
      }
    });
  });
}
