import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PASS_VARIABLES, postgresPassFiles, readsPassVariables, relativeImports, testFiles } from './postgres-pass.js';

const server = path.resolve(import.meta.dirname, '..');
const repo = path.resolve(server, '../..');

/**
 * Test files that open a database of their own making, hard-wired to the embedded one: they do the same in both
 * passes, so they run in the PGlite pass only. A new file that opens a database must either reach createTestApp /
 * TEST_DATABASE_URL (then it runs on PostgreSQL too) or be added here with its reason.
 */
const EMBEDDED_ONLY: Record<string, string> = {
  'src/db/migration-0010.test.ts': 'migrates an in-memory PGlite from an older journal',
  'src/db/planner-stats.test.ts': 'the embedded database keeps its own planner statistics (PostgreSQL autovacuums)',
  'src/db/turn-gate.test.ts': 'gates an in-memory PGlite: statements start one per loop turn (PostgreSQL is not gated)',
};

/** A test opens a database when it makes the app (createTestApp), a database, or a client of one. */
const OPENS_DATABASE = /\b(createTestApp|openDatabase|createPostgresDatabase|new PGlite)\b|from 'pg'/;

describe('which test files the PostgreSQL pass runs', () => {
  const selected = postgresPassFiles(server);

  it('runs every file that opens a database on PostgreSQL, unless it is hard-wired to PGlite', () => {
    const opening = testFiles(server).filter((file) =>
      OPENS_DATABASE.test(readFileSync(path.join(server, file), 'utf8')),
    );
    expect(opening.length).toBeGreaterThan(30);
    const left = opening.filter((file) => !selected.includes(file));
    expect(left).toEqual(Object.keys(EMBEDDED_ONLY).sort());
    for (const file of Object.keys(EMBEDDED_ONLY)) {
      expect(readFileSync(path.join(server, file), 'utf8'), file).toMatch(/new PGlite\(\)/);
    }
    // Files that make their database through a helper (the factories, the access matrix) are in too.
    expect(selected).toEqual(expect.arrayContaining(['test/access-matrix.test.ts', 'test/scaled-shape.pg.test.ts']));
  });

  it('leaves out files that never see the database the pass gives', () => {
    expect(selected).not.toContain('src/modules/analysis/engine/lab-videos.test.ts');
    expect(selected).not.toContain('src/adapters/media/media.test.ts');
    expect(selected).not.toContain('src/lib/time-ranges.test.ts');
    expect(selected.length).toBeLessThan(testFiles(server).length);
  });

  it('no code a test may load or spawn outside the test files reads the pass variables', () => {
    // The app (src/main.ts, spawned by the shutdown and disk-full tests) and the scripts (`npm start`, `npm run
    // admin`, spawned by others): if one read TEST_DATABASE_URL, a file could depend on the pass without importing
    // anything that says so. scripts/test-server.mjs is the runner that sets the variables.
    const readers: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.(ts|mts|js|mjs)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
          if (PASS_VARIABLES.test(readFileSync(full, 'utf8'))) readers.push(path.relative(repo, full));
        }
      }
    };
    for (const dir of ['apps/server/src', 'apps/server/scripts', 'scripts']) {
      if (existsSync(path.join(repo, dir))) walk(path.join(repo, dir));
    }
    expect(readers).toEqual(['scripts/test-server.mjs']);
  });
});

describe('following a test file through its imports', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'postgres-pass-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => writeFileSync(path.join(dir, name), text);

  it('lists the relative modules loaded at run time, not type-only ones nor packages', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "import {\n  c,\n  type C,\n} from '../c.js';",
      "export { d } from './d.js';",
      "export type { E } from './e.js';",
      "import './f.js';",
      "import pg from 'pg';",
      "const g = await import('./g.js');",
    ].join('\n');
    expect(relativeImports(source)).toEqual(['./a.js', '../c.js', './d.js', './f.js', './g.js']);
  });

  it('finds a pass variable read two imports away, and not through a type-only import or a cycle', () => {
    write('reads.ts', 'export const url = process.env.TEST_DATABASE_URL;\n');
    write('helper.ts', "import { url } from './reads.js';\nexport const helper = () => url;\n");
    write('uses.test.ts', "import { helper } from './helper.js';\nhelper();\n");
    write('types.test.ts', "import type { helper } from './helper.js';\nexport type H = typeof helper;\n");
    write('cycle-a.ts', "import { b } from './cycle-b.js';\nexport const a = () => b;\n");
    write('cycle-b.ts', "import { a } from './cycle-a.js';\nexport const b = () => a;\n");
    write('cycle.test.ts', "import { a } from './cycle-a.js';\na();\n");
    expect(readsPassVariables(path.join(dir, 'uses.test.ts'))).toBe(true);
    expect(readsPassVariables(path.join(dir, 'types.test.ts'))).toBe(false);
    expect(readsPassVariables(path.join(dir, 'cycle.test.ts'))).toBe(false);
    write('snapshot.ts', 'export const snapshot = process.env.PGLITE_SNAPSHOT;\n');
    write('cycle-b.ts', "import { a } from './cycle-a.js';\nimport './snapshot.js';\nexport const b = () => a;\n");
    expect(readsPassVariables(path.join(dir, 'cycle.test.ts'))).toBe(true);
  });
});
