import type { PGlite } from '@electric-sql/pglite';

/** How often the embedded database's planner statistics are checked (and refreshed where tables changed). */
export const PLANNER_STATS_INTERVAL_MS = 30_000;

/**
 * PGlite runs PostgreSQL in single-user mode inside this process: no autovacuum daemon ever runs ANALYZE, so the
 * planner knows no row counts or value distributions and picks bitmap scans plus sorts where an index already has
 * the order a list needs. This does autovacuum's analyze part: tables that were never analyzed and hold rows, or
 * whose rows changed by more than autovacuum's default threshold (50 + 10 % of the table) since, are analyzed.
 * Returns the tables it analyzed.
 */
export async function refreshPlannerStatistics(pglite: PGlite): Promise<string[]> {
  // Single-user mode flushes the cumulative statistics only when asked; the flush happens at the next statement.
  await pglite.query('select pg_stat_force_next_flush()');
  await pglite.query('select 1');
  const { rows } = await pglite.query<{ name: string }>(
    `select format('%I.%I', n.nspname, c.relname) as name
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       left join pg_stat_user_tables s on s.relid = c.oid
      where c.relkind in ('r', 'p')
        and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_toast%'
        and ((c.reltuples < 0 and pg_relation_size(c.oid) > 0)
             or coalesce(s.n_mod_since_analyze, 0) > 50 + 0.1 * greatest(c.reltuples, 0))`,
  );
  for (const { name } of rows) await pglite.exec(`analyze ${name}`);
  return rows.map((row) => row.name);
}

/** Refreshes the statistics now and then every `intervalMs` until the returned stop function is called. */
export function keepPlannerStatistics(
  pglite: PGlite,
  onError: (error: unknown) => void,
  intervalMs = PLANNER_STATS_INTERVAL_MS,
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = refreshPlannerStatistics(pglite).catch(onError);
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
