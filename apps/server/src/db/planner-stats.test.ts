import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshPlannerStatistics } from './planner-stats.js';

describe('refreshPlannerStatistics (embedded database)', () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = new PGlite();
    await pglite.exec(`
      create table items (id serial primary key, project int not null, name text not null);
      create index items_project_name on items (project, name, id);
      create table untouched (id int);`);
  });
  afterAll(() => pglite.close());

  const plan = async () =>
    (
      await pglite.query<{ 'QUERY PLAN': string }>(
        'explain select * from items where project = 3 order by name, id limit 50 offset 100',
      )
    ).rows
      .map((row) => row['QUERY PLAN'])
      .join('\n');

  it('analyzes tables that gained rows, so a page walks the index in order instead of sorting', async () => {
    await pglite.exec(
      `insert into items (project, name) select g % 10, 'n' || lpad(g::text, 6, '0') from generate_series(1, 20000) g`,
    );
    expect(await plan()).toMatch(/Sort/);
    expect(await refreshPlannerStatistics(pglite)).toEqual(['public.items']);
    const analyzed = await pglite.query<{ last_analyze: Date | null }>(
      "select last_analyze from pg_stat_user_tables where relname = 'items'",
    );
    expect(analyzed.rows[0]!.last_analyze).not.toBeNull();
    expect(await plan()).toMatch(/Index (Only )?Scan using items_project_name/);
    expect(await plan()).not.toMatch(/Sort/);
  });

  it('leaves tables alone until they change past the threshold (50 rows + 10 %)', async () => {
    expect(await refreshPlannerStatistics(pglite)).toEqual([]);
    await pglite.exec(`insert into items (project, name) select 1, 'x' || g from generate_series(1, 100) g`);
    expect(await refreshPlannerStatistics(pglite)).toEqual([]);
    await pglite.exec(`delete from items where id <= 3000`);
    expect(await refreshPlannerStatistics(pglite)).toEqual(['public.items']);
  });
});
