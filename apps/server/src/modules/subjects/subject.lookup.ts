import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { subjects } from '../../db/schema.js';
import { isUuid } from '../../lib/access.js';
import { notFound } from '../../lib/errors.js';

export type SubjectRow = typeof subjects.$inferSelect;

/** The subject of a project, or 404 (also for a subject of another project). Call after the access check. */
export async function getSubjectOrThrow(
  context: AppContext,
  projectUuid: string,
  subjectUuid: string,
): Promise<SubjectRow> {
  if (!isUuid(subjectUuid)) throw notFound();
  const [subject] = await context.db
    .select()
    .from(subjects)
    .where(and(eq(subjects.projectUuid, projectUuid), eq(subjects.subjectUuid, subjectUuid)))
    .limit(1);
  if (!subject) throw notFound();
  return subject;
}
