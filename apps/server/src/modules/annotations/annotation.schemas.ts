import { z } from 'zod';
import { errorSchema } from '../../lib/openapi.js';
import { timeRangeSetSchema, timeRangesSchema } from '../../lib/time-ranges.js';
import { userSummarySchema } from '../analysis/analysis.schemas.js';
import { COMPARISONS } from './annotation.rule.js';

export const annotationVideoParams = z.object({
  project_uuid: z.string(),
  subject_uuid: z.string(),
  video_uuid: z.string(),
});
export const annotationConfigParams = annotationVideoParams.extend({ annotation_config_uuid: z.string() });
export const annotationProjectParams = z.object({ project_uuid: z.string() });

const name = z
  .string({ error: 'A track needs a name.' })
  .trim()
  .min(1, 'A track needs a name.')
  .max(100, 'A track name has at most 100 characters.')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'A track name cannot hold tabs, line breaks or other control characters.');
const color = z
  .string({ error: 'A colour is #rrggbb.' })
  .regex(/^#[0-9a-fA-F]{6}$/, 'A colour is #rrggbb, e.g. #e11d48.')
  .transform((value) => value.toLowerCase());
/** A hot key is one letter or digit; the page keeps Space, arrows, , . / and Delete for itself. */
const hotkey = z
  .string({ error: 'A hot key is one letter or digit.' })
  .regex(/^[a-zA-Z0-9]$/, 'A hot key is one letter (a–z) or digit (0–9).')
  .transform((value) => value.toLowerCase())
  .nullable();
const order = z.int({ error: 'order must be a whole number.' }).min(0, 'order cannot be negative.').max(100_000);

export const createConfigBody = z.object({
  name,
  color: color.optional(),
  hotkey: hotkey.optional(),
  order: order.optional(),
});
export const putConfigBody = z.object({ name, color, hotkey: hotkey.default(null), order: order.optional() });
export const patchConfigBody = z
  .object({ name: name.optional(), color: color.optional(), hotkey: hotkey.optional(), order: order.optional() })
  .refine((body) => Object.values(body).some((value) => value !== undefined), 'Give at least one field to change.');
export type ConfigChanges = z.output<typeof patchConfigBody>;

export const configSchema = z.object({
  annotation_config_uuid: z.string(),
  name: z.string(),
  color: z.string(),
  hotkey: z.string().nullable(),
  order: z.int(),
  range_count: z.int(),
  total_duration_s: z.number(),
  version: z.int().meta({ description: 'The version of the ranges; bumped by every accepted change of them' }),
  created_by: userSummarySchema.nullable(),
  created_at: z.string(),
});
export const configListSchema = z.array(configSchema);

const rangeList = z.array(z.tuple([z.number(), z.number()]));

export const rangesResponse = z.object({
  annotation_config_uuid: z.string(),
  ranges: rangeList.meta({ description: '[start, end] pairs in seconds, sorted, none overlapping' }),
  version: z.int(),
});

const version = z.int({ error: 'version is required: the version of the ranges you changed.' });

export const putRangesBody = z.object({ ranges: timeRangesSchema, version });
export const patchRangesBody = z
  .object({ version, add: timeRangeSetSchema.optional(), remove: timeRangeSetSchema.optional() })
  .refine((body) => (body.add?.length ?? 0) + (body.remove?.length ?? 0) > 0, 'Give ranges to add or remove.');
export type RangesPatch = z.output<typeof patchRangesBody>;

/** 409: someone saved since the version the change was based on; the current state comes with the answer. */
export const rangesConflict = errorSchema.extend({
  version: z.int().meta({ description: 'The current version' }),
  ranges: rangeList.meta({ description: 'The current ranges' }),
});

export const trackExportQuery = z.object({ format: z.enum(['csv'], { error: 'format must be csv.' }).default('csv') });
export const videoExportQuery = z.object({
  format: z.enum(['boris'], { error: 'format must be boris.' }).default('boris'),
});

export const presetSchema = z.object({
  name: z.string(),
  color: z.string(),
  hotkey: z.string().nullable(),
  order: z.int(),
  video_count: z.int().meta({ description: 'Videos of the project with a track of this name' }),
});
export const presetsResponse = z.object({ tracks: z.array(presetSchema) });

const seconds = (field: string) =>
  z
    .number({ error: `${field} must be a number of seconds.` })
    .min(0, 'Must be 0 or more.')
    .max(86_400, 'Must be at most 86400.')
    .default(0);

/**
 * `POST …/annotations/fill-from-series/`: bouts where a run's series meets a rule (annotation.rule.ts), written into
 * a track of the video (`annotation_config_uuid` with the `version` it was read at) or a new one (`name`, `color?`).
 */
export const fillFromSeriesBody = z
  .strictObject({
    source_analysis_uuid: z
      .string({ error: 'Name the run whose series the rule reads (source_analysis_uuid).' })
      .meta({ description: 'A run of this video with one value per frame (a pose-derived series, a movement run…)' }),
    comparison: z
      .enum(COMPARISONS, { error: `comparison must be one of: ${COMPARISONS.join(', ')}.` })
      .meta({ description: 'lt <, le ≤, gt >, ge ≥: a frame meets the rule when `value <comparison> threshold`' }),
    threshold: z.number({ error: 'threshold must be a number.' }),
    min_duration_s: seconds('min_duration_s').meta({
      description: 'Bouts shorter than this are left out (after merging)',
    }),
    merge_gap_s: seconds('merge_gap_s').meta({ description: 'Gaps shorter than this between two bouts are closed' }),
    annotation_config_uuid: z.string().optional().meta({ description: 'The track to fill, or…' }),
    version: z
      .int({ error: 'version must be a whole number.' })
      .optional()
      .meta({ description: "With annotation_config_uuid: the version of the track's ranges the request is based on" }),
    mode: z.enum(['replace', 'merge'], { error: 'mode must be replace or merge.' }).default('replace').meta({
      description:
        "With annotation_config_uuid: `replace` — the track's bouts become the rule's; `merge` — the rule's bouts are added, overlapping ones joined",
    }),
    name: name.optional().meta({ description: '…a new track of this name' }),
    color: color.optional(),
  })
  .superRefine((body, ctx) => {
    const existing = body.annotation_config_uuid !== undefined;
    if (existing === (body.name !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['annotation_config_uuid'],
        message: 'Give either annotation_config_uuid (a track of the video) or name (a new track), not both.',
      });
    }
    if (existing && body.version === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['version'],
        message: 'version is required: the version of the ranges you saw.',
      });
    }
    if (!existing && body.color !== undefined && body.name === undefined) {
      ctx.addIssue({ code: 'custom', path: ['color'], message: 'A colour goes with a new track (name).' });
    }
  });
export type FillFromSeriesBody = z.output<typeof fillFromSeriesBody>;

export const fillFromSeriesResponse = z.object({
  track: configSchema,
  ranges: rangeList.meta({ description: "The track's bouts now, sorted" }),
  version: z.int(),
  bouts: z.int().meta({ description: 'Bouts the rule found (before a merge with the bouts already there)' }),
});
