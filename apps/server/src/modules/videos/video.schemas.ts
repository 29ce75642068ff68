import { z } from 'zod';
import { playbackStates, videoStatuses } from '../../db/schema.js';
import { NULL_CHARACTER_MESSAGE } from '../../lib/null-characters.js';

export const videoListParams = z.object({ project_uuid: z.string(), subject_uuid: z.string() });
export const videoParams = videoListParams.extend({ video_uuid: z.string() });

/** Accepts an ISO 8601 date-time ("2026-03-01T09:30:00Z") or date ("2026-03-01"); empty clears it. */
export const recordedAtSchema = z.union([z.string().trim(), z.null()]).transform((value, ctx) => {
  if (value === null || value === '') return null;
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
    ctx.addIssue({ code: 'custom', message: 'Enter a date and time like 2026-03-01T09:30:00Z.' });
    return z.NEVER;
  }
  return date;
});

const videoName = z
  .string({ error: 'This field is required.' })
  .trim()
  .min(1, 'This field may not be blank.')
  .max(255, 'Must be at most 255 characters.');

/** The text fields that may come with an upload (multipart fields or tus metadata). */
export const uploadFieldsSchema = z.object({
  // Multipart fields and tus metadata are not JSON bodies, so the app-wide NUL guard does not see them.
  name: z
    .string()
    .trim()
    .max(255, 'Must be at most 255 characters.')
    .refine((value) => !value.includes('\u0000'), NULL_CHARACTER_MESSAGE)
    .optional(),
  recorded_at: recordedAtSchema.optional(),
});

/**
 * For the OpenAPI document only: the multipart form of an upload. The route reads the parts itself (streamed),
 * so the parsed body is always absent and this schema never rejects anything.
 */
export const uploadFormDoc = z.any().meta({
  type: 'object',
  properties: {
    file: { type: 'string', format: 'binary', description: 'The video file' },
    name: { type: 'string', description: 'Display name; defaults to the file name' },
    recorded_at: { type: 'string', description: 'When it was recorded (ISO 8601)' },
  },
  required: ['file'],
});

export const updateVideoBody = z.object({
  name: videoName,
  recorded_at: recordedAtSchema.optional(),
  /** Moves the video to another subject of the same project. */
  subject_uuid: z.string().optional(),
});
export const patchVideoBody = updateVideoBody.partial();

export const batchDestroyBody = z.object({
  video_uuids: z
    .array(z.string(), { error: 'A list of video ids is required.' })
    .min(1, 'Give at least one video.')
    .max(500, 'At most 500 videos at once.'),
});

export const jobStateSchema = z
  .object({
    id: z.string(),
    state: z.string().describe('pg-boss state: created, retry, active, completed, cancelled, failed'),
    attempts: z.number().int(),
  })
  .nullable()
  .describe(
    'The processing job (thumbnail and playback copy), while the job queue remembers it; in lists, only for videos still being processed',
  );

export const videoSchema = z.object({
  video_uuid: z.string().uuid(),
  subject_uuid: z.string().uuid(),
  project_uuid: z.string().uuid(),
  name: z.string(),
  original_filename: z.string(),
  size_bytes: z.number().int(),
  duration_s: z.number().nullable(),
  fps: z.number().nullable(),
  frame_count: z.number().int().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  codec: z.string().nullable(),
  container: z.string().nullable(),
  status: z.enum(videoStatuses),
  error: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  stream_url: z.string().describe('Playable file with HTTP Range; carries a signed token valid for one hour'),
  playback: z
    .enum(['original', 'copy'])
    .describe('"copy" when stream_url serves an H.264 MP4 made for browsers, else the original file'),
  playback_copy: z
    .object({
      state: z
        .enum(playbackStates)
        .describe(
          'not_needed (the original plays in every major browser), pending (not decided yet), making, ready or failed; the video is analysable in every state',
        ),
      progress: z.number().min(0).max(1).describe('Share of the copy made, 0–1 (1 once ready)'),
      error: z.string().nullable().describe('Why the copy could not be made (state failed)'),
    })
    .describe('The browser-playable copy of the original; stream_url serves the original until it is ready'),
  recorded_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  job: jobStateSchema,
});
export type VideoResponse = z.infer<typeof videoSchema>;

export const VIDEO_ORDERING = [
  'name',
  'created_at',
  'updated_at',
  'recorded_at',
  'duration_s',
  'size_bytes',
  'status',
] as const;

export const streamQuery = z.object({ token: z.string().optional() });

/** File extensions accepted for upload; anything else is 415 before a byte is stored. */
export const VIDEO_EXTENSIONS = [
  '.mp4',
  '.m4v',
  '.mov',
  '.avi',
  '.mkv',
  '.webm',
  '.wmv',
  '.asf',
  '.flv',
  '.mpg',
  '.mpeg',
  '.ts',
  '.mts',
  '.m2ts',
  '.3gp',
  '.ogv',
] as const;

export const VIDEO_CONTENT_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.mov': 'video/quicktime',
  '.avi': 'video/x-msvideo',
  '.mkv': 'video/x-matroska',
  '.webm': 'video/webm',
  '.wmv': 'video/x-ms-wmv',
  '.asf': 'video/x-ms-asf',
  '.flv': 'video/x-flv',
  '.mpg': 'video/mpeg',
  '.mpeg': 'video/mpeg',
  '.ts': 'video/mp2t',
  '.mts': 'video/mp2t',
  '.m2ts': 'video/mp2t',
  '.3gp': 'video/3gpp',
  '.ogv': 'video/ogg',
};
