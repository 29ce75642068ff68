import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // *.pg.test.ts need PostgreSQL: they run in the suite's PostgreSQL pass only (TEST_DATABASE_URL set).
    exclude: [...configDefaults.exclude, ...(process.env.TEST_DATABASE_URL ? [] : ['**/*.pg.test.ts'])],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: two test files at a time keeps ffmpeg and PGlite from starving each other.
    maxWorkers: 2,
  },
});
