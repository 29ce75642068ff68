import { z } from 'zod';
import { poseFormats } from './engine/pose-data.js';

export const poseVideoParams = z.object({
  project_uuid: z.string(),
  subject_uuid: z.string(),
  video_uuid: z.string(),
});
export const poseSetParams = poseVideoParams.extend({ pose_uuid: z.string() });

export const poseSetSchema = z.object({
  pose_uuid: z.string(),
  name: z.string(),
  format: z.enum(poseFormats).describe('What the file was, read from its structure'),
  individuals: z
    .array(z.string())
    .describe('"single" for a single-animal file (and for DeepLabCut\'s unique body parts)'),
  bodyparts: z.array(z.string()).describe('Every body part of the set, in file order'),
  keypoints: z
    .array(z.object({ individual: z.string(), bodypart: z.string() }))
    .describe('The (individual, body part) pairs the file has, in its column order'),
  edges: z
    .array(z.tuple([z.string(), z.string()]))
    .describe("Skeleton edges: SLEAP's own, or DeepLabCut's from the config.yaml sent with the file; else empty"),
  frame_count: z.int().describe("The video's frame count: the set is stored frame by frame over the whole video"),
  has_likelihood: z.boolean().describe('False for hand-labelled files (x, y only): likelihoods are null'),
  frame_offset: z.int().describe("The video frame of the file's frame 0"),
  file_name: z.string().nullable(),
  created_at: z.string(),
});
export type PoseSetResponse = z.infer<typeof poseSetSchema>;
export const poseSetListSchema = z.object({ results: z.array(poseSetSchema) });

const point = z.array(z.number().nullable()).nullable().describe('[x, y, likelihood]; null for a missing point');
export const poseFramesSchema = z.object({
  frames: z.array(
    z.object({
      frame: z.int(),
      individuals: z.record(z.string(), z.record(z.string(), point)),
    }),
  ),
});
export type PoseFramesResponse = {
  frames: { frame: number; individuals: Record<string, Record<string, (number | null)[] | null>> }[];
};

export const poseFramesQuery = z.object({
  start: z.coerce
    .number({ error: 'start is a frame number.' })
    .int('start is a whole number.')
    .min(0, 'start cannot be negative.')
    .default(0),
  count: z.coerce
    .number({ error: 'count is a number of frames.' })
    .int('count is a whole number.')
    .min(1, 'count is at least 1.')
    .max(1000, 'count is at most 1000 frames a request.')
    .default(100),
});

export const poseExportQuery = z.object({
  format: z.enum(['dlc', 'tidy'], { error: 'format is dlc or tidy.' }).default('dlc'),
});
