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

/** Each source file under `root` → the files of ours it imports (type-only imports included, tests left out). */
function importEdges(root: string, aliasRoot: string | null): Map<string, string[]> {
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
  return edges;
}

function findCycles(root: string, aliasRoot: string | null): string[][] {
  const edges = importEdges(root, aliasRoot);
  const files = [...edges.keys()];
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

/**
 * Imports that climb (issue 21): for every file under `from`, the first path of imports, direct or through other
 * files, that reaches a file under `to` — as "a → b → c" lines (relative to src). Empty when none does.
 */
function climbs(src: string, from: string, to: string, options: { skip?: RegExp } = {}): string[] {
  const edges = importEdges(src, null);
  const under = (file: string, dir: string) => file.startsWith(path.join(src, dir) + path.sep);
  const found: string[] = [];
  for (const start of edges.keys()) {
    if (!under(start, from) || options.skip?.test(start)) continue;
    const previous = new Map<string, string | null>([[start, null]]);
    const queue = [start];
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      if (under(file, to)) {
        const chain: string[] = [];
        for (let at: string | null | undefined = file; at; at = previous.get(at)) chain.unshift(path.relative(src, at));
        found.push(chain.join(' → '));
        break;
      }
      for (const next of edges.get(file) ?? []) {
        if (previous.has(next)) continue;
        previous.set(next, file);
        queue.push(next);
      }
    }
  }
  return found;
}

describe('modules point one way', () => {
  const src = path.join(repo, 'apps/server/src');

  it('videos does not import analysis, directly or through other files', () => {
    // Routes are the top of the graph (a video's DELETE goes through the trash, which knows every module).
    expect(climbs(src, 'modules/videos', 'modules/analysis', { skip: /\.routes\.ts$/ })).toEqual([]);
    const direct = [...importEdges(src, null)].filter(
      ([file, imports]) =>
        file.includes(`${path.sep}modules${path.sep}videos${path.sep}`) &&
        imports.some((target) => target.includes(`${path.sep}modules${path.sep}analysis${path.sep}`)),
    );
    expect(direct.map(([file]) => path.relative(src, file))).toEqual([]);
  });

  it('lib/ imports no module', () => {
    expect(climbs(src, 'lib', 'modules')).toEqual([]);
  });

  it('the adapters import no module', () => {
    expect(climbs(src, 'adapters', 'modules')).toEqual([]);
  });

  it('finds a climb when there is one (the checker itself works)', () => {
    // analysis imports videos (a run reads its video): the other way round is allowed, and found.
    expect(climbs(src, 'modules/analysis', 'modules/videos').length).toBeGreaterThan(0);
  });
});
