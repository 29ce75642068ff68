import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from './client.js';

const TIMESTAMPTZ = 1184;
const asText = (value: string) => value;
/** node-postgres's parsers, but timestamptz stays text (`isoTimestamp` turns it into the API's form). */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ ? asText : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * One statement of a hot list, run with its rows as arrays and none of Drizzle's per-cell mapping (under load,
 * mapping a page of rows column by column through Drizzle was a tenth of a list request's CPU). On PostgreSQL the
 * statement is prepared under `name` once per connection; PGlite (in process) runs it as is. Values come back as
 * both drivers parse them (integers and float8 as numbers, jsonb as its value, text and uuid as strings) except
 * timestamptz, which stays PostgreSQL's text: pass it to `isoTimestamp`.
 */
export async function arrayRows(db: Database, name: string, text: string, values: unknown[]): Promise<unknown[][]> {
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  if (client instanceof pg.Pool) {
    const result = await client.query<unknown[]>({ name, text, values, rowMode: 'array', types: pgTypes });
    return result.rows;
  }
  const result = await client.query<unknown[]>(text, values, {
    rowMode: 'array',
    parsers: { [TIMESTAMPTZ]: asText },
  });
  return result.rows;
}

const UTC_TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?\+00$/;

/**
 * PostgreSQL's text of a timestamptz ("2026-11-25 20:48:09.123456+00" in a UTC session) as `Date#toISOString()`
 * writes it ("2026-11-25T20:48:09.123Z"), without making a Date: the microseconds are cut to milliseconds, as
 * JavaScript's Date (and so Drizzle's mapping) cuts them. Any other form (another session time zone, a year outside
 * 0000–9999) goes through a Date, exactly as Drizzle maps it.
 */
export function isoTimestamp(text: string): string {
  if (!UTC_TIMESTAMP.test(text)) return new Date(text).toISOString();
  const fraction = text.length > 22 ? `${text.slice(20, -3)}00`.slice(0, 3) : '000';
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${fraction}Z`;
}

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
