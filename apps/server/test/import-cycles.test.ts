import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No module may import itself back, directly or through others, type-only imports included: a cycle means two
 * parts cannot be understood (or loaded) apart. Covers the server's source and benches and the web app's source
 * (not tests).
 */
const repo = path.resolve(import.meta.dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Resolves a relative (or `@/…` web alias) import to a file of ours; packages resolve to null. */
function resolveImport(from: string, specifier: string, aliasRoot: string | null): string | null {
  let base: string;
  if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier);
  else if (aliasRoot && specifier.startsWith('@/')) base = path.join(aliasRoot, specifier.slice(2));
  else return null;
  const stem = base.replace(/\.js$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, path.join(stem, 'index.ts'), path.join(stem, 'index.tsx')]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

function findCycles(root: string, aliasRoot: string | null): string[][] {
  const files = sourceFiles(root);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    edges.set(
      file,
      importedFiles
        .map((imported) => resolveImport(file, imported.fileName, aliasRoot))
        .filter((target): target is string => target !== null && !/\.(test|d)\.tsx?$/.test(target)),
    );
  }
  const cycles: string[][] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'visiting');
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === 'visiting') {
        cycles.push(stack.slice(stack.indexOf(next)).map((f) => path.relative(repo, f)));
      } else if (!state.has(next)) {
        visit(next);
      }
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return cycles;
}

describe('import graph', () => {
  it('has no cycles in the server', () => {
    expect(findCycles(path.join(repo, 'apps/server/src'), null)).toEqual([]);
  });

  it('has no cycles in the server benches', () => {
    expect(findCycles(path.join(repo, 'apps/server/bench'), null)).toEqual([]);
  });

  it('has no cycles in the web app', () => {
    const src = path.join(repo, 'apps/web/src');
    expect(findCycles(src, src)).toEqual([]);
  });

  it('finds a cycle when there is one (the checker itself works)', () => {
    const cyclic = path.join(import.meta.dirname, 'fixtures/import-cycle');
    expect(findCycles(cyclic, null)).toEqual([
      [path.relative(repo, path.join(cyclic, 'a.ts')), path.relative(repo, path.join(cyclic, 'b.ts'))],
    ]);
  });
});
