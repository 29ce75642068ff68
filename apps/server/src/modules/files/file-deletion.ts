import { eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { pendingFileDeletions } from '../../db/schema.js';
import type { JobDefinition } from '../../jobs/job-queue.js';

/**
 * Records storage prefixes to delete, inside the caller's transaction (the one deleting the rows).
 * Call `deletePendingFiles` after the commit; if the process dies first, the job retries them.
 */
export async function scheduleFileDeletion(tx: Database, prefixes: string[]): Promise<void> {
  if (prefixes.length === 0) return;
  await tx.insert(pendingFileDeletions).values(prefixes.map((prefix) => ({ prefix })));
}

/**
 * Deletes rows and their files as one unit: `remove` runs in a transaction together with recording the
 * prefixes, and the files go right after the commit (or on a later retry if that fails).
 */
export async function deleteRowsAndFiles(
  context: AppContext,
  prefixes: string[],
  remove: (tx: Database) => Promise<void>,
): Promise<void> {
  await context.db.transaction(async (tx) => {
    await remove(tx as unknown as Database);
    await scheduleFileDeletion(tx as unknown as Database, prefixes);
  });
  await deletePendingFiles(context);
}

/** Deletes every recorded prefix; failures stay recorded for the next run. */
export async function deletePendingFiles(context: AppContext): Promise<number> {
  const pending = await context.db.select().from(pendingFileDeletions).orderBy(pendingFileDeletions.id).limit(500);
  let deleted = 0;
  for (const row of pending) {
    try {
      await context.storage.deletePrefix(row.prefix);
      await context.db.delete(pendingFileDeletions).where(eq(pendingFileDeletions.id, row.id));
      deleted++;
    } catch (error) {
      context.logger.warn({ err: error, prefix: row.prefix }, 'file deletion failed; will retry');
      await context.db
        .update(pendingFileDeletions)
        .set({ attempts: sql`${pendingFileDeletions.attempts} + 1` })
        .where(inArray(pendingFileDeletions.id, [row.id]));
    }
  }
  return deleted;
}

export const deletePendingFilesJob: JobDefinition<Record<string, never>, AppContext> = {
  name: 'files.delete-pending',
  payload: z.object({}).strict() as z.ZodType<Record<string, never>>,
  retryLimit: 5,
  retryDelaySeconds: 10,
  expireInSeconds: 600,
  async handle(context) {
    await deletePendingFiles(context);
  },
};
