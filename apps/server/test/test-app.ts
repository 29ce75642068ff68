import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { type AppConfig, loadConfig } from '../src/config.js';
import { type AppContext, closeContext, createContext } from '../src/context.js';
import { type DatabaseHandle, openDatabase } from '../src/db/client.js';
import { createLogger } from '../src/logger.js';
import { jobDefinitions } from '../src/modules/job-registry.js';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  dataDir: string;
  /** Base URL when started with `listen: true` (real HTTP on a random port). */
  url: string;
  close(): Promise<void>;
}

/** A new, empty PostgreSQL database on the TEST_DATABASE_URL server, and how to drop it. */
export async function createPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      // Pools closed a moment ago may still be hanging up; forcing them off would surface as an unhandled 57P01
      // in the test process, so wait (up to 5 s) for the database to have no sessions before the forced drop.
      for (let waited = 0; waited < 5_000; waited += 100) {
        const { rows } = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
          name,
        ]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** A fresh, empty database for one test file: PGlite from the snapshot, or a new PostgreSQL database. */
async function freshDatabase(): Promise<{ database: DatabaseHandle; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const { url, drop } = await createPostgresDatabase(adminUrl);
    return { database: await openDatabase({ databaseUrl: url }), drop };
  }
  const snapshot = process.env.PGLITE_SNAPSHOT;
  const loadDataDir = snapshot ? new Blob([readFileSync(snapshot)]) : undefined;
  return { database: await openDatabase({ loadDataDir }), drop: async () => {} };
}

/**
 * The real app over a real database, real local storage and the outbox mailer, in a temp DATA_DIR.
 * `workers: true` also runs the job workers in-process (as `npm start` does).
 */
export async function createTestApp(
  options: { config?: Partial<AppConfig>; env?: NodeJS.ProcessEnv; workers?: boolean; listen?: boolean } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vat-'));
  const config = loadConfig(
    { JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256', LOG_LEVEL: 'silent', ...options.env },
    { dataDir, ...options.config },
  );
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const { database, drop } = await freshDatabase();
  const ctx = await createContext(config, logger, { database, jobDefinitions });
  await ctx.jobs.start(options.workers ? ctx : undefined);
  const app = await buildApp(ctx);
  let url = '';
  if (options.listen) {
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    // Links the server hands out (stream URLs, e-mails) must point at the port it really got.
    if (!options.config?.publicUrl) ctx.config.publicUrl = url;
  } else await app.ready();
  return {
    app,
    ctx,
    dataDir,
    url,
    async close() {
      await app.close();
      await closeContext(ctx);
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
