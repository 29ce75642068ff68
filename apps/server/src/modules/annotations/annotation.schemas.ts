import { z } from 'zod';
import { errorSchema } from '../../lib/openapi.js';
import { timeRangeSetSchema, timeRangesSchema } from '../../lib/time-ranges.js';
import { userSummarySchema } from '../analysis/analysis.schemas.js';

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
