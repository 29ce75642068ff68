// Runs the server's test suite against PGlite, then — when TEST_DATABASE_URL is set — again against PostgreSQL, for
// the test files whose behaviour depends on the database (TEST_PASS=postgres; apps/server/test/postgres-pass.ts says
// which and why). Every test file runs in at least one pass.
import { spawnSync } from 'node:child_process';

function run(label, env) {
  console.log(`\n== server tests on ${label} ==`);
  const started = Date.now();
  const result = spawnSync('npx', ['vitest', 'run'], { cwd: 'apps/server', stdio: 'inherit', env });
  console.log(`== server tests on ${label}: ${((Date.now() - started) / 1000).toFixed(0)} s ==`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const { TEST_DATABASE_URL, TEST_PASS: _, ...withoutPostgres } = process.env;
run('PGlite (every test file)', withoutPostgres);
if (TEST_DATABASE_URL) {
  run(`PostgreSQL (${new URL(TEST_DATABASE_URL).host}; the files that open a database)`, {
    ...process.env,
    TEST_PASS: 'postgres',
  });
}
