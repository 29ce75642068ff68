/**
 * The subject and video a project-scoped path names, looked up for the project-scope hook (project-scope.ts).
 * They live here, below the modules, so that lib/ imports no module; the subjects and videos modules re-export
 * them as their own lookups.
 */
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { subjects, videos } from '../db/schema.js';
import { isUuid } from './access.js';
import { notFound } from './errors.js';

export type SubjectRow = typeof subjects.$inferSelect;
export type VideoRow = typeof videos.$inferSelect;

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

/** The video of a subject, or 404 (also for a video of another subject). Call after the access check. */
export async function getVideoOrThrow(context: AppContext, subjectUuid: string, videoUuid: string): Promise<VideoRow> {
  if (!isUuid(videoUuid)) throw notFound();
  const [video] = await context.db
    .select()
    .from(videos)
    .where(and(eq(videos.subjectUuid, subjectUuid), eq(videos.videoUuid, videoUuid)))
    .limit(1);
  if (!video) throw notFound();
  return video;
}
