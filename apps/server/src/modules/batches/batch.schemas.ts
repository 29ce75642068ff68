/**
 * Batches (issue 23, ADR 035): one protocol version applied to many videos of a project at once, each video's run
 * an ordinary analysis run; their results table, group statistics and plots.
 */
import { z } from 'zod';
import { analysisStatuses, protocolKinds } from '../../db/schema.js';
import { listQuerySchema } from '../../lib/pagination.js';
import { userSummarySchema } from '../analysis/analysis.schemas.js';

/** A batch holds at most this many videos (its detail lists every one). */
export const MAX_BATCH_VIDEOS = 1000;

export const batchListParams = z.object({ project_uuid: z.string() });
export const batchParams = batchListParams.extend({ batch_uuid: z.string() });

const number = (field: string) => z.number({ error: `${field} must be a number.` });

/**
 * Moves and scales the protocol's geometry on one video: a point p becomes o + scale·(p − o) + (dx, dy), o being
 * `origin` (default: the centre of the video's picture). ROIs (whole pixels) are rounded after the transform.
 */
export const geometryAdjustment = z
  .strictObject({
    dx: number('dx').min(-100_000, 'Must be at least -100000.').max(100_000, 'Must be at most 100000.').default(0),
    dy: number('dy').min(-100_000, 'Must be at least -100000.').max(100_000, 'Must be at most 100000.').default(0),
    scale: number('scale').positive('Must be more than 0.').max(100, 'Must be at most 100.').default(1),
    origin: z
      .tuple([number('x'), number('y')], { error: 'origin is [x, y] in pixels.' })
      .nullable()
      .default(null)
      .meta({ description: "The point scaled about, in the video's pixels; null: the centre of its picture" }),
  })
  .meta({
    description:
      "p' = origin + scale·(p − origin) + (dx, dy) for every point of the protocol's ROIs, zones, exclusions and scale line; the scale's px_distance is multiplied by scale. ROI corners are rounded to whole pixels.",
  });

export type GeometryAdjustment = z.output<typeof geometryAdjustment>;

export const videoAdjustment = z
  .strictObject({
    parameters: z.record(z.string(), z.unknown(), { error: 'parameters must be an object.' }).optional().meta({
      description:
        "Overrides of the protocol's parameters for this video, key by key (a list is replaced whole), as a run from a protocol takes them; taken as given (the geometry adjustment does not move them)",
    }),
    geometry: geometryAdjustment.optional(),
  })
  .refine((adjustment) => adjustment.parameters !== undefined || adjustment.geometry !== undefined, {
    message: 'Give parameters, geometry, or both.',
  });

export type VideoAdjustment = z.output<typeof videoAdjustment>;

export const createBatchBody = z.object({
  protocol_uuid: z.string({ error: 'Name the protocol to apply.' }),
  protocol_version: z
    .int({ error: 'protocol_version must be a whole number.' })
    .min(1, 'protocol_version must be 1 or more.')
    .optional()
    .meta({ description: "The protocol's version; its current one when left out" }),
  video_uuids: z
    .array(z.string(), { error: 'video_uuids must be a list of video ids.' })
    .min(1, 'List at least one video.')
    .max(MAX_BATCH_VIDEOS, `At most ${MAX_BATCH_VIDEOS} videos.`)
    .optional()
    .meta({ description: 'A hand-picked list of videos of the project' }),
  subject_uuids: z
    .array(z.string(), { error: 'subject_uuids must be a list of subject ids.' })
    .min(1, 'List at least one subject.')
    .max(MAX_BATCH_VIDEOS, `At most ${MAX_BATCH_VIDEOS} subjects.`)
    .optional()
    .meta({ description: 'Every ready video of these subjects' }),
  group: z
    .string({ error: 'group must be text.' })
    .trim()
    .min(1, 'Give the group’s name.')
    .max(200)
    .optional()
    .meta({ description: 'Every ready video of the subjects whose group is exactly this (after trimming)' }),
  overrides: z
    .record(z.string(), videoAdjustment, { error: 'overrides must be an object keyed by video id.' })
    .optional()
    .meta({ description: 'Per-video adjustments, keyed by video uuid (each video must be in the batch)' }),
});

export type CreateBatchBody = z.output<typeof createBatchBody>;

export const batchCheckResponse = z.object({
  protocol_uuid: z.string(),
  protocol_version: z.int(),
  kind: z.enum(protocolKinds),
  runs: z.array(
    z.object({
      video_uuid: z.string(),
      video_name: z.string(),
      subject_name: z.string(),
      parameters: z.record(z.string(), z.unknown()).meta({
        description: "The parameters the video's run would use: the protocol's, adjusted, defaults filled in",
      }),
      notices: z
        .array(z.string())
        .meta({ description: 'What the run would change in them (a bypass range cut at the end)' }),
    }),
  ),
});

export const batchListQuery = listQuerySchema.pick({ page: true, page_size: true }).extend({
  protocol_uuid: z.string().optional().meta({ description: 'Only batches of this protocol' }),
});

const status = z.enum(analysisStatuses);

export const batchCountsSchema = z.object({
  videos: z.int(),
  queued: z.int(),
  running: z.int(),
  succeeded: z.int(),
  failed: z.int(),
  revoked: z.int(),
});

export const batchSchema = z.object({
  batch_uuid: z.string(),
  project_uuid: z.string(),
  protocol_uuid: z.string(),
  protocol_name: z.string().meta({ description: "The name of the protocol's version the batch applied" }),
  protocol_version: z.int(),
  kind: z.enum(protocolKinds),
  selection: z
    .object({
      video_uuids: z.array(z.string()).optional(),
      subject_uuids: z.array(z.string()).optional(),
      group: z.string().optional(),
    })
    .meta({ description: 'What was asked for; {} = every ready video of the project' }),
  created_by: userSummarySchema.nullable(),
  created_at: z.string(),
  status: z.enum(['running', 'finished']).meta({
    description: 'running while any video’s newest run is queued or running; finished otherwise (see counts)',
  }),
  counts: batchCountsSchema.meta({ description: "The videos by their newest run's status" }),
  progress: z.number().meta({
    description:
      'The share of the batch’s frames done, 0–1: finished runs (any outcome) count whole, running ones by their progress',
  }),
  eta_s: z.number().nullable().meta({
    description:
      'Seconds left, estimated: the frames still to do ÷ the frames done per second since the first run started; null before any progress or when nothing is left',
  }),
});

export const batchRunSchema = z.object({
  video_uuid: z.string(),
  video_name: z.string(),
  subject_uuid: z.string(),
  subject_name: z.string(),
  group: z.string(),
  analysis_uuid: z.string(),
  attempt: z.int().meta({ description: '1 for the first run; a retry adds the next' }),
  status,
  progress: z.number(),
  error: z.string().nullable().meta({ description: 'Why the run failed' }),
  overrides: videoAdjustment.nullable().meta({ description: "This video's adjustments; null: the protocol as it is" }),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

export const batchDetailSchema = batchSchema.extend({
  runs: z.array(batchRunSchema).meta({ description: "Each video's newest run, by subject and video name" }),
});

export const protocolResultsParams = batchListParams.extend({ protocol_uuid: z.string() });

export const resultsQuery = z.object({
  format: z
    .enum(['json', 'csv', 'xlsx'], { error: 'format must be one of: json, csv, xlsx.' })
    .default('json')
    .meta({ description: 'json (a page, for the batch page), or a csv / xlsx download of the whole table' }),
  layout: z
    .enum(['wide', 'long'], { error: 'layout must be one of: wide, long.' })
    .default('wide')
    .meta({ description: 'wide: a row per run, a column per measure; long: a row per run × measure' }),
  page: z.coerce.number().int().min(1, 'Must be 1 or more.').default(1).meta({ description: 'json only' }),
  page_size: z.coerce
    .number()
    .int()
    .min(1, 'Must be 1 or more.')
    .max(1000, 'Must be at most 1000.')
    .default(500)
    .meta({ description: 'json only: rows per page (at most 1000)' }),
});

const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const measureColumnSchema = z.object({
  name: z.string(),
  unit: z.string(),
  meaning: z.string(),
});

export const resultsResponse = z.object({
  kind: z.enum(protocolKinds),
  layout: z.enum(['wide', 'long']),
  columns: z.array(
    z.object({
      name: z.string(),
      role: z.enum(['id', 'measure', 'long']).meta({
        description:
          "id: who and what the run analysed; measure: an outcome (wide); long: the long layout's measure, value, unit",
      }),
      unit: z.string().nullable(),
    }),
  ),
  measures: z
    .array(measureColumnSchema)
    .meta({ description: 'Every outcome measure of the table, with its unit and meaning' }),
  count: z.int().meta({ description: 'Rows of the whole table' }),
  next: z.string().nullable(),
  previous: z.string().nullable(),
  results: z.array(z.array(cell)).meta({ description: "This page's rows, cells in the columns' order" }),
});

export const statisticsQuery = z.object({
  format: z.enum(['json', 'csv', 'xlsx'], { error: 'format must be one of: json, csv, xlsx.' }).default('json'),
  table: z
    .enum(['descriptives', 'tests'], { error: 'table must be one of: descriptives, tests.' })
    .default('descriptives')
    .meta({ description: 'csv only: which table (the xlsx has both)' }),
});

const descriptivesSchema = z.object({
  group: z.string(),
  n: z.int(),
  mean: z.number().nullable(),
  sd: z.number().nullable().meta({ description: 'Sample SD (n − 1); null below 2 values' }),
  sem: z.number().nullable(),
  median: z.number().nullable(),
  q1: z.number().nullable().meta({ description: "R's type-7 quantile" }),
  q3: z.number().nullable(),
  iqr: z.number().nullable(),
});

export const testSchema = z.object({
  test: z
    .string()
    .meta({ description: 'As a methods section names it (the Mann–Whitney name says exact or normal approximation)' }),
  statistic_name: z.enum(['t', 'U', 'F', 'H', 'g']),
  statistic: z.number().nullable(),
  df1: z
    .number()
    .nullable()
    .meta({ description: 'Degrees of freedom (the numerator’s for F); null when the test has none' }),
  df2: z.number().nullable().meta({ description: "F's denominator degrees of freedom" }),
  p: z.number().nullable().meta({ description: 'Two-sided p-value; null for an effect size' }),
  note: z.string().nullable().meta({ description: 'Why the test could not be computed, or what it compares' }),
});

export const statisticsResponse = z.object({
  kind: z.enum(protocolKinds),
  groups: z.array(z.string()).meta({ description: 'The groups compared, in the order tests read them' }),
  runs: z.int().meta({ description: 'Runs in the results table' }),
  runs_without_group: z.int().meta({ description: 'Runs of subjects without a group: left out of every statistic' }),
  measures: z.array(
    z.object({
      name: z.string(),
      unit: z.string(),
      groups: z.array(descriptivesSchema),
      tests: z.array(testSchema),
    }),
  ),
});

export const figureQuery = z.object({
  measure: z
    .string({ error: 'Name the measure to plot.' })
    .meta({ description: "A measure column of the batch's results" }),
  format: z.enum(['png', 'svg'], { error: 'format must be one of: png, svg.' }).default('png'),
});
