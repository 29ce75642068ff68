/**
 * The rows a deletion takes out of the live tables, kept as JSON in its trash item, and put back by a restore.
 * Capturing reads every row the deletion cascades to (`to_jsonb`, so every type comes back exactly: timestamps to the
 * microsecond, doubles to the bit, jsonb as it was); restoring inserts them parent first with
 * `jsonb_populate_recordset`, so the count triggers (migrations 0013, 0014) count them again.
 *
 * A migration that adds a NOT NULL column to one of these tables must also fill it in the `rows` of `trash_items`.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';

/** The tables a deletion can take rows from, parents before children, and which set of ids selects their rows. */
const SNAPSHOT_TABLES = [
  { table: 'subjects', key: 'subject_uuid', of: 'subjects' },
  { table: 'videos', key: 'video_uuid', of: 'videos' },
  { table: 'video_seek_indexes', key: 'video_uuid', of: 'videos' },
  { table: 'playback_pieces', key: 'video_uuid', of: 'videos' },
  { table: 'pose_sets', key: 'video_uuid', of: 'videos' },
  { table: 'analyses', key: 'analysis_uuid', of: 'analyses' },
  { table: 'analysis_segments', key: 'analysis_uuid', of: 'analyses' },
  { table: 'batch_runs', key: 'analysis_uuid', of: 'analyses' },
  { table: 'analysis_events', key: 'analysis_uuid', of: 'analyses' },
  { table: 'review_positions', key: 'analysis_uuid', of: 'analyses' },
  { table: 'analysis_scorers', key: 'analysis_uuid', of: 'analyses' },
  { table: 'scorer_events', key: 'analysis_uuid', of: 'analyses' },
  { table: 'annotation_configs', key: 'annotation_config_uuid', of: 'tracks' },
] as const;

export type SnapshotTable = (typeof SNAPSHOT_TABLES)[number]['table'];

/** The ids of everything one deletion takes. */
export interface SnapshotIds {
  subjects: string[];
  videos: string[];
  analyses: string[];
  tracks: string[];
}

const idList = (ids: string[]) => sql`(select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`;

/** The rows of a raw statement (node-postgres and PGlite both answer `{ rows }`). */
export async function selectRows<T>(tx: Database, query: SQL): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows;
}

async function uuids(tx: Database, query: SQL): Promise<string[]> {
  return (await selectRows<{ id: string }>(tx, query)).map((row) => row.id);
}

/** Every id a deletion of these subjects or videos cascades to (runs and tracks of their videos). */
export async function idsUnder(tx: Database, top: { subjects?: string[]; videos?: string[] }): Promise<SnapshotIds> {
  const subjects = top.subjects ?? [];
  const videos = [
    ...new Set([
      ...(top.videos ?? []),
      ...(subjects.length
        ? await uuids(tx, sql`select video_uuid::text as id from videos where subject_uuid in ${idList(subjects)}`)
        : []),
    ]),
  ];
  const analyses = await uuids(
    tx,
    sql`select analysis_uuid::text as id from analyses
        where video_uuid in ${idList(videos)} or subject_uuid in ${idList(subjects)}`,
  );
  const tracks = await uuids(
    tx,
    sql`select annotation_config_uuid::text as id from annotation_configs where video_uuid in ${idList(videos)}`,
  );
  return { subjects, videos, analyses, tracks };
}

/** The rows of every table the ids select, as JSON (inside the deleting transaction, before the delete). */
export async function captureRows(tx: Database, ids: SnapshotIds): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const { table, key, of } of SNAPSHOT_TABLES) {
    if (ids[of].length === 0) continue;
    const [result] = await selectRows<{ rows: unknown[] }>(
      tx,
      sql`select coalesce(jsonb_agg(to_jsonb(t)), '[]'::jsonb) as rows from ${sql.identifier(table)} t
          where t.${sql.identifier(key)} in ${idList(ids[of])}`,
    );
    const captured = result?.rows ?? [];
    if (captured.length > 0) rows[table] = captured;
  }
  return rows;
}

/**
 * Inserts a trash item's rows back, parents first. Counts kept on rows start at zero (the triggers add the children
 * as they come back); `overrides` sets columns of every row of a table (a run goes back under its video's subject
 * of now).
 */
export async function restoreRows(
  tx: Database,
  itemUuid: string,
  overrides: Partial<Record<SnapshotTable, Record<string, unknown>>> = {},
): Promise<void> {
  for (const { table } of SNAPSHOT_TABLES) {
    const set = { ...(table === 'subjects' ? { video_count: 0 } : {}), ...overrides[table] };
    await tx.execute(
      sql`insert into ${sql.identifier(table)}
          select * from jsonb_populate_recordset(null::${sql.identifier(table)}, (
            select coalesce(jsonb_agg(e || ${JSON.stringify(set)}::jsonb), '[]'::jsonb)
            from trash_items, jsonb_array_elements(coalesce(trash_items.rows -> ${table}, '[]'::jsonb)) e
            where trash_items.item_uuid = ${itemUuid}
          ))`,
    );
  }
}

/** What the rows hold, for the trash list. */
export function contentsOf(rows: Record<string, unknown[]>) {
  return {
    videos: rows.videos?.length ?? 0,
    analyses: rows.analyses?.length ?? 0,
    events: rows.analysis_events?.length ?? 0,
    annotation_tracks: rows.annotation_configs?.length ?? 0,
  };
}
