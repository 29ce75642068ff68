import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { videos } from '../../db/schema.js';
import { isUuid } from '../../lib/access.js';
import { notFound } from '../../lib/errors.js';

export type VideoRow = typeof videos.$inferSelect;

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
