/** The trash, emptied: by an admin now, or by the hourly job once an item's `purge_at` has passed. */
import { and, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { projects, trashItems } from '../../db/schema.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import type { ProjectRow } from '../../lib/access.js';
import { deleteRowsAndFiles } from '../files/file-deletion.js';
import { deleteProject } from '../projects/project.service.js';

type TrashRow = typeof trashItems.$inferSelect;

/** Removes a trash item for good: its row, and its files through the complete-delete path. */
async function purgeItem(context: AppContext, item: Pick<TrashRow, 'itemUuid' | 'prefixes'>): Promise<void> {
  await deleteRowsAndFiles(context, item.prefixes, async (tx) => {
    await tx.delete(trashItems).where(eq(trashItems.itemUuid, item.itemUuid));
  });
}

/** `DELETE /projects/{p}/trash/` (owner or admin): everything in the project's trash is removed now. */
export async function emptyTrash(context: AppContext, project: ProjectRow): Promise<{ purged: number }> {
  const items = await context.db
    .select({ itemUuid: trashItems.itemUuid, prefixes: trashItems.prefixes })
    .from(trashItems)
    .where(eq(trashItems.projectUuid, project.projectUuid));
  for (const item of items) await purgeItem(context, item);
  return { purged: items.length };
}

/** Removes every item and project past its `purge_at`, with their files. */
export async function purgeDue(context: AppContext): Promise<{ items: number; projects: number }> {
  let items = 0;
  for (;;) {
    const due = await context.db
      .select({ itemUuid: trashItems.itemUuid, prefixes: trashItems.prefixes })
      .from(trashItems)
      .where(lte(trashItems.purgeAt, sql`now()`))
      .limit(100);
    for (const item of due) await purgeItem(context, item);
    items += due.length;
    if (due.length < 100) break;
  }
  const dueProjects = await context.db
    .select({ projectUuid: projects.projectUuid })
    .from(projects)
    .where(and(isNotNull(projects.deletedAt), lte(projects.purgeAt, sql`now()`)));
  for (const project of dueProjects) await deleteProject(context, project.projectUuid);
  if (items + dueProjects.length > 0) {
    context.logger.info({ items, projects: dueProjects.length }, 'trash purged');
  }
  return { items, projects: dueProjects.length };
}

export const trashPurgeJob: JobDefinition<Record<string, never>, AppContext> = {
  name: 'trash.purge',
  payload: z.object({}).strict() as z.ZodType<Record<string, never>>,
  retryLimit: 3,
  retryDelaySeconds: 60,
  expireInSeconds: 3600,
  async handle(context) {
    await purgeDue(context);
  },
};

/** How often each worker process queues the purge (one waits at a time, whatever the number of processes). */
export const TRASH_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** Queues the purge now and every hour, in a process that runs jobs. */
export function startTrashPurge(context: AppContext): { stop(): void } {
  const queue = () =>
    context.jobs
      .send(trashPurgeJob, {}, { singletonKey: 'trash-purge' })
      .catch((error: unknown) => context.logger.warn({ err: error }, 'queueing the trash purge failed'));
  void queue();
  const timer = setInterval(queue, TRASH_PURGE_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
