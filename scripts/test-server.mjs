// Runs the server's test suite against PGlite, then — when TEST_DATABASE_URL is set — again against PostgreSQL, for
// the test files whose behaviour depends on the database (TEST_PASS=postgres; apps/server/test/postgres-pass.ts says
// which and why). Every test file runs in at least one pass. The *.pg.test.ts files (the scaled shape: real processes
// killed mid-work, with timed steps) run last, one at a time, so the other files do not starve their processes.
import { spawnSync } from 'node:child_process';

function run(label, env, args = []) {
  console.log(`\n== server tests on ${label} ==`);
  const started = Date.now();
  const result = spawnSync('npx', ['vitest', 'run', ...args], { cwd: 'apps/server', stdio: 'inherit', env });
  console.log(`== server tests on ${label}: ${((Date.now() - started) / 1000).toFixed(0)} s ==`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const { TEST_DATABASE_URL, TEST_PASS: _, ...withoutPostgres } = process.env;
run('PGlite (every test file)', withoutPostgres);
if (TEST_DATABASE_URL) {
  const host = new URL(TEST_DATABASE_URL).host;
  const postgres = { ...process.env, TEST_PASS: 'postgres' };
  run(`PostgreSQL (${host}; the files that open a database)`, postgres, ['--exclude', '**/*.pg.test.ts']);
  run(`PostgreSQL (${host}; *.pg.test.ts alone)`, postgres, ['--maxWorkers=1', '.pg.test.ts']);
}
