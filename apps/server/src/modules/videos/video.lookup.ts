import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { videos } from '../../db/schema.js';
import { isUuid } from '../../lib/access.js';
import { notFound } from '../../lib/errors.js';
import { subjectStoragePrefix } from '../subjects/subject.lookup.js';

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

/** Storage prefix of everything a video owns: original, playback copy, thumbnail, analysis outputs. */
export const videoStoragePrefix = (projectUuid: string, subjectUuid: string, videoUuid: string) =>
  `${subjectStoragePrefix(projectUuid, subjectUuid)}videos/${videoUuid}/`;

/** Keys of a video's own files. The original keeps its extension (`original.avi`) so tools can tell the type. */
export const videoKeys = (prefix: string, originalExtension: string) => ({
  original: `${prefix}original${originalExtension}`,
  thumbnail: `${prefix}thumbnail.jpg`,
  playback: `${prefix}playback.mp4`,
});

/** Where the pieces of a playback copy wait for the join (removed after it). */
export const playbackPiecesPrefix = (videoPrefix: string) => `${videoPrefix}playback-pieces/`;
export const playbackPieceKey = (videoPrefix: string, index: number) =>
  `${playbackPiecesPrefix(videoPrefix)}${index}.mp4`;
