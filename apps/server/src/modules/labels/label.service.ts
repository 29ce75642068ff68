/**
 * The project's labels, offered by Quick Score's label menu: every label its events carry (remembered as they are
 * given) and those saved on their own. One indexed table, so the menu never scans the project's events.
 */
import { and, asc, count, eq, ilike, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { projectLabels } from '../../db/schema.js';
import { likePattern, toPage } from '../../lib/pagination.js';
import type { labelListQuery } from './label.schemas.js';

type LabelRow = typeof projectLabels.$inferSelect;

const serialize = (row: LabelRow) => ({ name: row.name, created_at: row.createdAt.toISOString() });

/**
 * Adds labels the project does not have yet (names compare without case; the first spelling stays) and answers how
 * many were new.
 */
export async function rememberLabels(db: Database, projectUuid: string, names: string[], userId: number | null) {
  const fresh = names.map((name) => name.trim()).filter((name) => name !== '');
  if (fresh.length === 0) return 0;
  const added = await db
    .insert(projectLabels)
    .values(fresh.map((name) => ({ projectUuid, name, createdById: userId })))
    .onConflictDoNothing()
    .returning({ name: projectLabels.name });
  return added.length;
}

export async function listLabels(
  context: AppContext,
  projectUuid: string,
  query: z.output<typeof labelListQuery>,
  requestUrl: string,
) {
  const where = and(
    eq(projectLabels.projectUuid, projectUuid),
    query.search ? ilike(projectLabels.name, likePattern(query.search)) : undefined,
  );
  const [total] = await context.db.select({ count: count() }).from(projectLabels).where(where);
  const rows = await context.db
    .select()
    .from(projectLabels)
    .where(where)
    .orderBy(asc(sql`lower(${projectLabels.name})`))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  return toPage(requestUrl, context.config.publicUrl, { ...query }, total?.count ?? 0, rows.map(serialize));
}

/** Saves a label; one that exists already (in any case) is answered as it is, with `created: false`. */
export async function createLabel(context: AppContext, projectUuid: string, name: string, userId: number) {
  const added = await rememberLabels(context.db, projectUuid, [name], userId);
  const [row] = await context.db
    .select()
    .from(projectLabels)
    .where(and(eq(projectLabels.projectUuid, projectUuid), sql`lower(${projectLabels.name}) = lower(${name})`));
  return { label: serialize(row!), created: added > 0 };
}
