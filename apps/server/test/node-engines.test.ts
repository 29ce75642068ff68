import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// semver has no bundled types; the two calls used here are typed by hand.
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

const root = path.resolve(import.meta.dirname, '../../..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));

interface LockEntry {
  version?: string;
  optional?: boolean;
  engines?: { node?: string };
}

/**
 * The README's promise (ADR 017): on the oldest Node that package.json's `engines` admits, `npm ci` prints no
 * EBADENGINE warning. Optional packages are left out: npm installs only the ones built for the machine's platform,
 * and skips the others without a warning.
 */
describe('the Node versions package.json admits', () => {
  const range: string = readJson('package.json').engines.node;
  const oldest = semver.minVersion(range)?.version ?? '';

  it('are 22.12 or newer', () => {
    expect(oldest).toBe('22.12.0');
  });

  it('satisfy every installed dependency', () => {
    const packages: Record<string, LockEntry> = readJson('package-lock.json').packages;
    const refused = Object.entries(packages)
      .filter(([name, entry]) => name !== '' && !entry.optional && entry.engines?.node)
      .filter(([, entry]) => !semver.satisfies(oldest, entry.engines!.node!))
      .map(
        ([name, entry]) =>
          `${name.replace(/^.*node_modules\//, '')}@${entry.version} wants node ${entry.engines!.node}`,
      );
    expect(refused).toEqual([]);
  });

  it('include no version that pg-boss 12.35 refuses', () => {
    const packages: Record<string, LockEntry> = readJson('package-lock.json').packages;
    const pgBoss = packages['node_modules/pg-boss'];
    expect(pgBoss?.version).toMatch(/^12\.35\./);
    expect(semver.satisfies('22.11.0', range)).toBe(false);
  });
});
