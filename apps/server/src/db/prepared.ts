import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from './client.js';

/**
 * One statement of a hot list, run with its rows as arrays and none of Drizzle's per-cell mapping (under load,
 * mapping a page of rows column by column through Drizzle was a tenth of a list request's CPU). On PostgreSQL the
 * statement is prepared under `name` once per connection; PGlite (in process) runs it as is. Values come back as
 * both drivers parse them: integers and float8 as numbers, jsonb as its value, text and uuid as strings. Select
 * timestamps as epoch milliseconds (`epochMs`) and make them Dates in JavaScript: parsing timestamp text was the
 * costly part of a row.
 */
export async function arrayRows(db: Database, name: string, text: string, values: unknown[]): Promise<unknown[][]> {
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  if (client instanceof pg.Pool) {
    const result = await client.query<unknown[]>({ name, text, values, rowMode: 'array' });
    return result.rows;
  }
  const result = await client.query<unknown[]>(text, values, { rowMode: 'array' });
  return result.rows;
}

/**
 * A timestamptz column as whole epoch milliseconds, rounded down as JavaScript's Date rounds the microseconds of the
 * timestamp's text (what Drizzle's mapping gives): `new Date(value)` equals the Date Drizzle would have made.
 */
export const epochMs = (column: string) => `floor(extract(epoch from ${column}) * 1000)::float8`;

const prepared = new WeakMap<Database, Map<string, unknown>>();

/**
 * A statement Drizzle builds once per database and key (`build` calls `.prepare(name)` on a query with
 * `sql.placeholder`s): hot paths skip building the same SQL on every request.
 */
export function preparedOnce<T>(db: Database, key: string, build: (db: Database) => T): T {
  let byKey = prepared.get(db);
  if (!byKey) {
    byKey = new Map();
    prepared.set(db, byKey);
  }
  let statement = byKey.get(key) as T | undefined;
  if (statement === undefined) {
    statement = build(db);
    byKey.set(key, statement);
  }
  return statement;
}
