import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { keepPlannerStatistics } from './planner-stats.js';
import * as schema from './schema.js';
import { gateByTurn } from './turn-gate.js';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The database plus what pg-boss needs to share it. */
export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Set for the embedded database: pg-boss runs on the same PGlite instance. */
  pglite?: PGlite;
  /** Set for PostgreSQL: pg-boss opens its own small pool on the same database. */
  connectionString?: string;
  migrate(): Promise<void>;
  /**
   * Keeps the planner's statistics current until close (embedded only: PostgreSQL's autovacuum does it there).
   * The server calls it; tests that open many short-lived databases do not.
   */
  keepPlannerStatistics(onError: (error: unknown) => void): void;
  close(): Promise<void>;
}

/** Works from src/ (tsx, tests) and from dist/ (built): both sit one level below the app folder. */
export function migrationsFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const candidate of [path.resolve(here, '../../drizzle'), path.resolve(here, '../drizzle')]) {
    if (existsSync(path.join(candidate, 'meta/_journal.json'))) return candidate;
  }
  throw new Error('Database migrations folder not found');
}

/**
 * PGlite is one process's database: a second process opening the same folder would corrupt it. The process that
 * opens it leaves its pid in the folder until it closes; another process finding a live pid there refuses to start.
 */
function claimEmbeddedDatabase(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'in-use.pid');
  if (existsSync(file)) {
    const pid = Number(readFileSync(file, 'utf8').trim());
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
      throw new Error(
        `The embedded database in ${dataDir} is in use by process ${pid} (a running server?). Stop it first, or use PostgreSQL (DATABASE_URL) to share a database between processes.`,
      );
    }
  }
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Embedded PGlite in `dataDir` (or in memory when dataDir is undefined), or PostgreSQL at `databaseUrl`. */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir?: string;
  /** A PGlite data dump to start from (tests start from a migrated snapshot). */
  loadDataDir?: Blob;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    const db = drizzleNodePg(pool, { schema }) as unknown as Database;
    return {
      db,
      kind: 'postgres',
      connectionString: options.databaseUrl,
      async migrate() {
        // Several servers may start at once in the scaled shape: one migrates, the others wait.
        const client = await pool.connect();
        try {
          await client.query('SELECT pg_advisory_lock(727274)');
          await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder: migrationsFolder() });
        } finally {
          await client.query('SELECT pg_advisory_unlock(727274)').catch(() => {});
          client.release();
        }
      },
      keepPlannerStatistics() {},
      close: () => pool.end(),
    };
  }
  const release = options.dataDir ? claimEmbeddedDatabase(options.dataDir) : () => {};
  let pglite: PGlite;
  try {
    pglite = new PGlite(options.dataDir, {
      // PGlite's default 128 MB buffer pool alone makes a resident set of ~300 MB; 16 MB keeps the whole embedded
      // server near 250 MB (the operating system's file cache still holds the rest of the database).
      postgresqlconf: ['shared_buffers = 16MB'],
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    await pglite.waitReady;
    gateByTurn(pglite);
  } catch (error) {
    release();
    throw error;
  }
  const db = drizzlePglite(pglite, { schema }) as unknown as Database;
  let stopStatistics = async () => {};
  return {
    db,
    kind: 'pglite',
    pglite,
    async migrate() {
      await migratePglite(drizzlePglite(pglite, { schema }), { migrationsFolder: migrationsFolder() });
    },
    keepPlannerStatistics(onError) {
      stopStatistics = keepPlannerStatistics(pglite, onError);
    },
    async close() {
      await stopStatistics();
      await pglite.close();
      release();
    },
  };
}

export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}
