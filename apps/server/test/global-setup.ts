import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fromPglite, PgBoss } from 'pg-boss';
import { openDatabase } from '../src/db/client.js';

/**
 * Migrating PGlite and creating pg-boss's schema takes seconds; do it once, dump the data directory,
 * and let every test file start its own database from that snapshot.
 */
export default async function globalSetup() {
  if (process.env.TEST_DATABASE_URL) return;
  const database = await openDatabase({});
  await database.migrate();
  const boss = new PgBoss({ db: fromPglite(database.pglite!), backend: 'pglite', supervise: false, schedule: false });
  await boss.start();
  await boss.stop({ graceful: false, close: false });
  const dump = await database.pglite!.dumpDataDir('none');
  const dir = path.resolve(import.meta.dirname, '../.tmp');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'pglite-snapshot.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  process.env.PGLITE_SNAPSHOT = file;
}
