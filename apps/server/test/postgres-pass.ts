import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Which test files the suite's PostgreSQL pass runs (scripts/test-server.mjs sets TEST_PASS=postgres for it).
 *
 * The two passes differ only in their environment: TEST_DATABASE_URL and TEST_PASS are set in the PostgreSQL pass,
 * and global setup sets PGLITE_SNAPSHOT in the PGlite pass. A test file whose code — itself and every module it
 * imports, followed through relative imports — reads none of them does exactly the same in both passes, so it runs
 * once, in the PGlite pass. Every file that can reach one of them runs again on PostgreSQL: `createTestApp`
 * (test/test-app.ts) reads them, so any file that makes the app's database is in. Nothing is listed by hand: a new
 * file that opens a database is picked up by construction. test/postgres-pass.test.ts checks that no code outside the
 * tests (the app, the scripts a test may spawn) reads these variables, which is what makes following imports enough,
 * and that every file opening a database is selected (or is one of the few hard-wired to an in-memory PGlite).
 */
export const PASS_VARIABLES = /\b(TEST_DATABASE_URL|TEST_PASS|PGLITE_SNAPSHOT)\b/;

const TEST_FILE = /\.test\.ts$/;

/** Every *.test.ts file under `dirs` of `root`, relative to root, sorted. */
export function testFiles(root: string, dirs: string[] = ['src', 'test']): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full);
      } else if (TEST_FILE.test(entry.name)) out.push(path.relative(root, full));
    }
  };
  for (const dir of dirs) if (existsSync(path.join(root, dir))) walk(path.join(root, dir));
  return out.sort();
}

/**
 * The modules a file loads at run time, by relative specifier: static imports and re-exports, side-effect imports
 * and dynamic `import('…')`. Type-only imports (`import type`, `export type`) are erased when compiled, so they are left out.
 */
export function relativeImports(source: string): string[] {
  const specifiers: string[] = [];
  const statement = /(?:^|[;\n])\s*(import|export)\s+(type\s+)?(?:[^;'"]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;
  for (const match of source.matchAll(statement)) if (!match[2]) specifiers.push(match[3]!);
  for (const match of source.matchAll(/\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) specifiers.push(match[1]!);
  return specifiers;
}

/** A relative specifier as the file it names (`./x.js` is ./x.ts in our sources); null when there is none. */
function resolve(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(js|mjs|ts)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.mts`, `${stem}.mjs`, path.join(base, 'index.ts')];
  return candidates.find((candidate) => statSync(candidate, { throwIfNoEntry: false })?.isFile()) ?? null;
}

/** True when `file`, or a module it loads (transitively, through relative imports), reads a pass variable. */
export function readsPassVariables(file: string, memo = new Map<string, boolean>()): boolean {
  const seen = new Set<string>();
  const visit = (at: string): boolean => {
    const known = memo.get(at);
    if (known !== undefined) return known;
    if (seen.has(at)) return false;
    seen.add(at);
    const source = readFileSync(at, 'utf8');
    let reads = PASS_VARIABLES.test(source);
    for (const specifier of reads ? [] : relativeImports(source)) {
      const target = resolve(at, specifier);
      if (target && visit(target)) {
        reads = true;
        break;
      }
    }
    // Only a positive answer is final: a negative one met inside a cycle may be incomplete.
    if (reads) memo.set(at, true);
    return reads;
  };
  return visit(path.resolve(file));
}

/** The test files (relative to `root`) that the PostgreSQL pass runs. */
export function postgresPassFiles(root: string): string[] {
  const memo = new Map<string, boolean>();
  return testFiles(root).filter((file) => readsPassVariables(path.join(root, file), memo));
}
