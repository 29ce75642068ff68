import { z } from 'zod';
import { trashKindValues } from '../../db/schema.js';
import { userSummarySchema } from '../projects/project.schemas.js';

export const trashKinds = trashKindValues;
export type TrashKind = (typeof trashKinds)[number];

export const trashParams = z.object({ project_uuid: z.string() });
export const trashItemParams = z.object({ project_uuid: z.string(), item_uuid: z.string() });

export const trashListQuery = z.object({
  page: z.coerce.number().int().min(1, 'Must be 1 or more.').default(1),
  page_size: z.coerce.number().int().min(1, 'Must be 1 or more.').max(500, 'Must be at most 500.').default(50),
  kind: z.enum(trashKinds, { error: `Choose one of: ${trashKinds.join(', ')}.` }).optional(),
});

/** What a deleted item took with it (and brings back when restored). */
export const trashContentsSchema = z.object({
  videos: z.number().int(),
  analyses: z.number().int(),
  events: z.number().int(),
  annotation_tracks: z.number().int(),
});

export const trashItemSchema = z.object({
  item_uuid: z.string().uuid().describe("The deleted object's own uuid"),
  kind: z.enum(trashKinds),
  name: z.string().describe('The name it had (a run: its kind and video)'),
  deleted_by: userSummarySchema.nullable().describe('Who deleted it (null when that account is gone)'),
  deleted_at: z.string(),
  purge_at: z.string().describe('When it and its files are removed for good'),
  subject_uuid: z.string().uuid().nullable().describe('The subject it was under (the subject itself for a subject)'),
  video_uuid: z.string().uuid().nullable().describe('The video it was under (the video itself for a video)'),
  contains: trashContentsSchema,
});
export type TrashItemResponse = z.infer<typeof trashItemSchema>;

/** `DELETE /projects/{p}/?confirm_name=…`: the project's name, typed by the user. */
export const deleteProjectQuery = z.object({
  confirm_name: z.string().max(400, 'Must be at most 400 characters.').optional(),
});

export const emptyTrashResponse = z.object({ purged: z.number().int().describe('Items removed for good') });
