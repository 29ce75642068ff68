import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { legacyVideoStoragePrefix } from '../lib/storage-keys.js';
import { migrationsFolder } from './client.js';

/**
 * Migration 0010 on a database as older releases left it: each video's subject-based prefix is recorded (its files
 * stay there), and runs of a video moved by an older release follow their video's subject.
 */
describe('migration 0010 (video storage prefix)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'migration-0010-'));
  const pglite = new PGlite();
  afterAll(async () => {
    await pglite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records old prefixes and re-points stale runs, so deleting the old subject keeps them', async () => {
    // The migrations before 0010 only.
    cpSync(migrationsFolder(), dir, { recursive: true });
    const journalFile = path.join(dir, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
    journal.entries = journal.entries.filter((entry) => entry.tag < '0010');
    writeFileSync(journalFile, JSON.stringify(journal));
    await migrate(drizzle(pglite), { migrationsFolder: dir });

    const one = async (query: string, params: unknown[] = []) =>
      (await pglite.query<Record<string, string>>(query, params)).rows[0]!;
    const user = await one(`insert into users (email, password_hash) values ('a@lab.org', 'x') returning id`);
    const project = await one(
      `insert into projects (name, owner_id, metadata) values ('P', $1, '{}') returning project_uuid`,
      [user.id],
    );
    const p = project.project_uuid!;
    const subject = async (name: string) =>
      (await one(`insert into subjects (project_uuid, name) values ($1, $2) returning subject_uuid`, [p, name]))
        .subject_uuid!;
    const [first, second] = [await subject('S1'), await subject('S2')];
    const video = async (s: string) =>
      (
        await one(
          `insert into videos (project_uuid, subject_uuid, name, original_filename, status) values ($1, $2, 'v', 'v.mp4', 'ready') returning video_uuid`,
          [p, s],
        )
      ).video_uuid!;
    const run = async (s: string, v: string) =>
      (
        await one(
          `insert into analyses (project_uuid, subject_uuid, video_uuid, kind, parameters, software_version) values ($1, $2, $3, 'movement_detection', '{}', 'old') returning analysis_uuid`,
          [p, s, v],
        )
      ).analysis_uuid!;
    // A video moved from S1 to S2 by an older release: its run still names S1. Another video stayed in S1.
    const moved = await video(second);
    const staleRun = await run(first, moved);
    const stayed = await video(first);
    const stayedRun = await run(first, stayed);

    await migrate(drizzle(pglite), { migrationsFolder: migrationsFolder() });

    const prefixes = await pglite.query<{ video_uuid: string; legacy_storage_prefix: string }>(
      'select video_uuid, legacy_storage_prefix from videos',
    );
    expect(Object.fromEntries(prefixes.rows.map((row) => [row.video_uuid, row.legacy_storage_prefix]))).toEqual({
      [moved]: legacyVideoStoragePrefix(p, second, moved),
      [stayed]: legacyVideoStoragePrefix(p, first, stayed),
    });
    const subjectOf = async (analysis: string) =>
      (await one('select subject_uuid from analyses where analysis_uuid = $1', [analysis])).subject_uuid;
    expect(await subjectOf(staleRun)).toBe(second);
    expect(await subjectOf(stayedRun)).toBe(first);

    await pglite.query('delete from subjects where subject_uuid = $1', [first]);
    const left = await pglite.query<{ analysis_uuid: string }>('select analysis_uuid from analyses');
    expect(left.rows.map((row) => row.analysis_uuid)).toEqual([staleRun]);
  });
});
