import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { videos } from '../../db/schema.js';
import { isUuid } from '../../lib/access.js';
import { notFound } from '../../lib/errors.js';

export type VideoRow = typeof videos.$inferSelect;

/**
 * The video's subject as a run's INSERT executes, read under a share lock: a run created while the video moves
 * (which updates the video and its runs in one transaction) still ends up naming the subject the video is in.
 */
export const subjectOfVideoNow = (videoUuid: string): SQL<string> =>
  sql`(select "subject_uuid" from "videos" where "video_uuid" = ${videoUuid} for share)`;

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
