import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { postgresPassFiles } from './test/postgres-pass.js';

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  test: {
    // The suite's PostgreSQL pass (TEST_PASS=postgres, set by scripts/test-server.mjs) runs only the files whose
    // behaviour depends on the database the pass gives them; the others ran in the PGlite pass (test/postgres-pass.ts).
    include: process.env.TEST_PASS === 'postgres' ? postgresPassFiles(root) : ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // *.pg.test.ts need PostgreSQL: they run in the suite's PostgreSQL pass only (TEST_DATABASE_URL set).
    exclude: [...configDefaults.exclude, ...(process.env.TEST_DATABASE_URL ? [] : ['**/*.pg.test.ts'])],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/use-worker-bundles.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores, three test files at a time: a file spends much of its time waiting (ffmpeg and the app's jobs,
    // PostgreSQL, spawned servers), and with two the cores sat half idle (CPU 0.9 of 2 in the PGlite pass; 1.3 with
    // three, 10 min → 6 min). Four starved the scaled shape's timed steps.
    maxWorkers: 3,
  },
});
