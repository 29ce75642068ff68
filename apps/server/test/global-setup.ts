import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { fromPglite, PgBoss } from 'pg-boss';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.js';
import { bundleOptions, workerEntries } from '../worker-bundles.mjs';

const tmp = path.resolve(import.meta.dirname, '../.tmp');

/**
 * The worker threads' bundles, built once for this run (about a second) in a folder of its own: a thread then starts
 * in well under 0.1 s instead of ~1.2 s compiling the engine's TypeScript (test/use-worker-bundles.ts points the
 * thread starter at them). Answers the teardown that deletes the folder.
 */
async function buildWorkerBundles(): Promise<() => void> {
  const outdir = path.join(tmp, 'worker-bundles', String(process.pid));
  rmSync(outdir, { recursive: true, force: true });
  await build({ ...bundleOptions(workerEntries, outdir), sourcemap: 'inline' });
  process.env.WORKER_BUNDLES_DIR = outdir;
  return () => rmSync(outdir, { recursive: true, force: true });
}

/**
 * Migrating PGlite and creating pg-boss's schema takes seconds; do it once, dump the data directory,
 * and let every test file start its own database from that snapshot.
 */
async function snapshotPglite() {
  const database = await openDatabase({});
  await database.migrate();
  const boss = new PgBoss({ db: fromPglite(database.pglite!), backend: 'pglite', supervise: false, schedule: false });
  await boss.start();
  await boss.stop({ graceful: false, close: false });
  const dump = await database.pglite!.dumpDataDir('none');
  mkdirSync(tmp, { recursive: true });
  const file = path.join(tmp, 'pglite-snapshot.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  process.env.PGLITE_SNAPSHOT = file;
}

export default async function globalSetup(project: TestProject) {
  // In watch mode the bundles would hold the code as it was at start: threads compile the current source instead.
  const teardown = project.config.watch ? undefined : await buildWorkerBundles();
  if (!process.env.TEST_DATABASE_URL) await snapshotPglite();
  return teardown;
}
