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

/** The packages that declare a newer Node than 20.19 and run on it (the README names them; CI runs on Node 20). */
const NAMED_FOR_NODE_20 = ['content-disposition@3', 'cookie@2', 'pg-boss@12'];

/**
 * The README's promise (ADR 017): on Node 22.12 `npm ci` prints no EBADENGINE warning, and on the oldest Node 20
 * that `engines` admits it warns only for the packages the README names. Optional packages are left out: npm
 * installs only the ones built for the machine's platform, and skips the others without a warning.
 */
describe('the Node versions package.json admits', () => {
  const range: string = readJson('package.json').engines.node;
  const packages: Record<string, LockEntry> = readJson('package-lock.json').packages;
  /** `name@major` of every installed package whose declared Node range excludes `version`. */
  const refusing = (version: string) =>
    Object.entries(packages)
      .filter(([name, entry]) => name !== '' && !entry.optional && entry.engines?.node)
      .filter(([, entry]) => !semver.satisfies(version, entry.engines!.node!))
      .map(([name, entry]) => `${name.replace(/^.*node_modules\//, '')}@${entry.version!.split('.')[0]}`)
      .sort();

  it('are Node 20 from 20.19 and Node 22 from 22.12, as the lock file records too', () => {
    expect(semver.minVersion(range)?.version).toBe('20.19.0');
    for (const version of ['20.19.0', '20.20.2', '22.12.0', '24.0.0'])
      expect(semver.satisfies(version, range)).toBe(true);
    for (const version of ['20.18.9', '21.7.0', '22.11.0']) expect(semver.satisfies(version, range)).toBe(false);
    expect(packages['']?.engines?.node).toBe(range);
  });

  it('on Node 22.12 satisfy every installed dependency', () => {
    expect(refusing('22.12.0')).toEqual([]);
  });

  it('on Node 20.19 warn only for the packages the README names', () => {
    expect([...new Set(refusing('20.19.0'))]).toEqual(NAMED_FOR_NODE_20);
    expect(packages['node_modules/pg-boss']?.version).toMatch(/^12\.35\./);
  });
});
