import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client.js';

/** Tables a refused request may still change: attempts count toward the rate limits whatever the answer. */
const COUNTERS = new Set(['rate_limits']);

let tables: string[] | undefined;

/** Every row of every application table (pg-boss and the migrations live in other schemas), as one string. */
export async function databaseSnapshot(db: Database): Promise<string> {
  if (!tables) {
    const result = (await db.execute(
      sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    )) as unknown as { rows: unknown[] };
    tables = (result.rows as { table_name: string }[]).map((row) => row.table_name).filter((t) => !COUNTERS.has(t));
  }
  const parts = tables.map(
    (table) => `'${table}', (SELECT coalesce(json_agg(x ORDER BY x::text), '[]'::json) FROM "${table}" x)`,
  );
  const result = (await db.execute(
    sql.raw(`SELECT json_build_object(${parts.join(', ')})::text AS snapshot`),
  )) as unknown as { rows: unknown[] };
  return (result.rows as { snapshot: string }[])[0]!.snapshot;
}

/** Every file under `dir` with its size, sorted (the stored files and the upload temp files). */
export function filesSnapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    let entries: string[];
    try {
      entries = readdirSync(at);
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(at, entry);
      const stat = statSync(full, { throwIfNoEntry: false });
      if (!stat) continue;
      if (stat.isDirectory()) walk(full);
      else out.push(`${path.relative(dir, full)} ${stat.size}`);
    }
  };
  walk(dir);
  return out.sort();
}

/** The spec's error body: `{errors: "message"}` or `{errors: {field: ["message", …]}}`. */
export function isErrorBody(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const errors = (body as { errors?: unknown }).errors;
  if (typeof errors === 'string') return errors.length > 0;
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return false;
  const fields = Object.values(errors);
  return (
    fields.length > 0 &&
    fields.every((messages) => Array.isArray(messages) && messages.every((m) => typeof m === 'string' && m.length > 0))
  );
}
