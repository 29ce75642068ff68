import { type SQL, sql } from 'drizzle-orm';

// The video lookup lives below the modules (the project-scope hook needs it): this module's own name for it.
export { getVideoOrThrow, type VideoRow } from '../../lib/scope-lookups.js';

/**
 * The video's subject as a run's INSERT executes, read under a share lock: a run created while the video moves
 * (which updates the video and its runs in one transaction) still ends up naming the subject the video is in.
 */
export const subjectOfVideoNow = (videoUuid: string): SQL<string> =>
  sql`(select "subject_uuid" from "videos" where "video_uuid" = ${videoUuid} for share)`;
