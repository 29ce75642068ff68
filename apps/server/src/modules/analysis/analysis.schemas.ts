import { z } from 'zod';
import { analysisKinds, analysisStatuses } from '../../db/schema.js';
import { timeRangesSchema } from '../../lib/time-ranges.js';
import type { FreezingParameters } from './engine/freezing.js';
import { locationSummarySchema } from './location.schemas.js';

/** Who made a run or last changed an event. */
export const userSummarySchema = z.object({ id: z.int(), display_name: z.string() });

export const analysisVideoParams = z.object({
  project_uuid: z.string(),
  subject_uuid: z.string(),
  video_uuid: z.string(),
});
export const analysisParams = analysisVideoParams.extend({ analysis_uuid: z.string() });
export const projectAnalysisParams = z.object({ project_uuid: z.string() });

const number = (field: string) => z.number({ error: `${field} must be a number.` });
const whole = (field: string) => z.int({ error: `${field} must be a whole number.` });
const between = (schema: z.ZodNumber, min: number, max: number) =>
  schema.min(min, `Must be between ${min} and ${max}.`).max(max, `Must be between ${min} and ${max}.`);

const roiSchema = z.strictObject({
  start_s: number('start_s').min(0, 'An ROI cannot start before 0 s.'),
  x: whole('x').min(0, 'x cannot be negative.'),
  y: whole('y').min(0, 'y cannot be negative.'),
  width: whole('width').min(1, 'width must be at least 1 pixel.'),
  height: whole('height').min(1, 'height must be at least 1 pixel.'),
});

/** Event detection (product brief): k × the noise top, or an absolute threshold; onsets a refractory period apart. */
export const eventParameterFields = {
  event_threshold_k: between(number('event_threshold_k'), 1, 10).default(3),
  event_threshold: number('event_threshold').min(0, 'Must be 0 or more.').nullable().default(null),
  refractory_s: between(number('refractory_s'), 0, 60).default(0.5),
};

/**
 * ezTrack-style freezing (ADR 006), a summary beside the events: off while freeze_threshold is null. Event-detection
 * runs take it too, so a freezing setting found by calibration (ADR 010) can be applied to a stored series.
 */
export const freezingParameterFields = {
  freeze_threshold: number('freeze_threshold').min(0, 'Must be 0 or more.').nullable().default(null),
  min_freeze_s: between(number('min_freeze_s'), 0, 3600).default(1),
  bin_s: number('bin_s').positive('Must be more than 0.').max(86400, 'Must be at most 86400.').default(60),
};

export const eventDetectionParameters = z.strictObject({ ...eventParameterFields, ...freezingParameterFields });

/** The freezing summary a run's parameters ask for, or null. */
export function freezingOf(parameters: {
  freeze_threshold?: number | null;
  min_freeze_s?: number;
  bin_s?: number;
}): FreezingParameters | null {
  if (parameters.freeze_threshold == null) return null;
  return {
    freeze_threshold: parameters.freeze_threshold,
    min_freeze_s: parameters.min_freeze_s ?? 1,
    bin_s: parameters.bin_s ?? 60,
  };
}

/** Intensity-change movement detection (product brief) with its freezing summary; every default explicit. */
export const movementParameters = z
  .strictObject({
    rois: z.array(roiSchema).max(100, 'At most 100 ROIs.').default([]),
    bypass_ranges: timeRangesSchema.default([]),
    threshold: between(whole('threshold'), 0, 255).default(20),
    opening: between(whole('opening'), 0, 10000).default(0),
    closing: between(whole('closing'), 0, 10000).default(0),
    small_object_removal: between(whole('small_object_removal'), 0, 100_000_000).default(0),
    ...eventParameterFields,
    ...freezingParameterFields,
  })
  .superRefine((parameters, ctx) => {
    const rois = parameters.rois;
    if (rois.length > 0 && rois[0]!.start_s !== 0) {
      ctx.addIssue({ code: 'custom', path: ['rois'], message: 'The first ROI must start at 0 s.' });
    }
    for (let i = 1; i < rois.length; i++) {
      if (!(rois[i]!.start_s > rois[i - 1]!.start_s)) {
        ctx.addIssue({ code: 'custom', path: ['rois'], message: `ROI ${i + 1} must start after ROI ${i}.` });
      }
    }
  });

export type MovementDetectionParameters = z.output<typeof movementParameters>;
export type EventDetectionParameterValues = z.output<typeof eventDetectionParameters>;

export const createAnalysisBody = z.object({
  // location_tracking parameters: location.schemas.ts (`algorithm`, its settings, zones, exclusions, scale…).
  kind: z.enum(analysisKinds, { error: `kind must be one of: ${analysisKinds.join(', ')}.` }),
  parameters: z.record(z.string(), z.unknown()).default({}),
  source_analysis_uuid: z.string().optional(),
});

export const previewBody = z.object({
  kind: z
    .enum(['movement_detection', 'location_tracking'], {
      error: 'kind must be one of: movement_detection, location_tracking.',
    })
    .default('movement_detection'),
  parameters: z.record(z.string(), z.unknown()).default({}),
  start_s: z.number().min(0, 'Must be 0 or more.').default(0),
  length_s: z.number().positive('Must be more than 0.').max(10, 'A preview covers at most 10 s.').default(3),
});

/** What the server changed in what it was asked, and why (a bypass range cut at the video's end). */
const noticesSchema = z.array(z.string()).meta({
  description:
    "What was changed in the request and why: a bypass range past the video's end is cut there (or left out when it starts after the end)",
});

const movementPreviewResponse = z.object({
  kind: z.literal('movement_detection'),
  start_s: z.number(),
  fps: z.number(),
  /** Frame numbers and values of the window (null: a bypassed frame). */
  frames: z.array(z.int()),
  values: z.array(z.number().nullable()),
  events: z.array(z.number()).meta({ description: 'Event times in seconds' }),
  threshold: z.number(),
  image: z.string().meta({ description: 'The last frame as a PNG data URL: changed pixels red, ROIs drawn' }),
  elapsed_ms: z.number(),
  notices: noticesSchema,
});

const locationPreviewResponse = z.object({
  kind: z.literal('location_tracking'),
  start_s: z.number(),
  fps: z.number(),
  frames: z.array(z.int()),
  x: z.array(z.number().nullable()).meta({ description: 'x of each frame in video pixels; null: no position' }),
  y: z.array(z.number().nullable()),
  image: z.string().meta({
    description:
      "The window's last frame as a PNG data URL: zones, exclusions, the window's track and the tracked point",
  }),
  reference: z.object({
    cached: z
      .boolean()
      .meta({ description: 'The reference was read from the cache (made by an earlier preview or run)' }),
    notes: z
      .array(z.string())
      .meta({ description: "What the check of the reference found (as a run's summary notes)" }),
  }),
  elapsed_ms: z.number(),
  notices: noticesSchema,
});

export const previewResponse = z.discriminatedUnion('kind', [movementPreviewResponse, locationPreviewResponse]);

const freezingSchema = z
  .object({
    percent: z.number().nullable(),
    freezing_frames: z.int(),
    valid_frames: z.int(),
    bins: z.array(z.object({ start_s: z.number(), end_s: z.number(), percent: z.number().nullable() })),
  })
  .nullable();

export const analysisSummarySchema = z
  .object({
    samples: z.int(),
    valid_samples: z.int(),
    duration_s: z.number(),
    events: z.int(),
    event_rate_per_min: z.number().nullable(),
    threshold: z.number().nullable().meta({ description: 'The event threshold; null for location tracking' }),
    noise_top: z.number().nullable().meta({ description: 'The noise top of the series; null for location tracking' }),
    freezing: freezingSchema,
    frames_per_second: z.number().nullable().meta({ description: 'Analysis speed: frames processed per second' }),
    location: locationSummarySchema.optional().meta({ description: 'Location tracking runs only' }),
  })
  .nullable();

export const eventCountsSchema = z
  .object({
    detected: z
      .int()
      .meta({ description: 'Events the detection found when the run finished; review never changes it' }),
    detected_rate_per_min: z
      .number()
      .nullable()
      .meta({ description: 'detected per minute of the analysed video, to 0.001' }),
    kept: z.int().meta({ description: 'After review: events not discarded (added ones included, deleted ones gone)' }),
    kept_rate_per_min: z.number().nullable().meta({ description: 'kept per minute of the analysed video, to 0.001' }),
    discarded: z.int().meta({ description: 'After review: discarded events' }),
    flagged: z.int().meta({ description: 'After review: flagged events, discarded or not' }),
    added: z.int().meta({ description: 'After review: events added by hand, kept or discarded' }),
    reviewed: z.int().meta({ description: 'Events someone reviewed in Quick Score' }),
    unlabelled: z.int().meta({ description: 'After review: kept events without a label' }),
    by_label: z.record(z.string(), z.int()).meta({ description: 'After review: kept events per label' }),
  })
  .meta({ description: "A succeeded run's events: as detected, and after review (ADR 015)" });

export const analysisSchema = z.object({
  analysis_uuid: z.string(),
  project_uuid: z.string(),
  subject_uuid: z.string(),
  video_uuid: z.string(),
  subject_name: z.string(),
  video_name: z.string(),
  kind: z.enum(analysisKinds),
  parameters: z.record(z.string(), z.unknown()),
  source_analysis_uuid: z.string().nullable(),
  status: z.enum(analysisStatuses),
  progress: z.number(),
  error: z.string().nullable(),
  software_version: z.string(),
  created_by: userSummarySchema.nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  duration_s: z.number().nullable(),
  summary: analysisSummarySchema,
  event_count: z.int().nullable().meta({
    description: 'Every event of a succeeded run, discarded ones included (what Quick Score steps through)',
  }),
  event_counts: eventCountsSchema.nullable(),
});

export const createdAnalysisSchema = analysisSchema.extend({ notices: noticesSchema });

export const analysisListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(500).default(50),
  kind: z.enum(analysisKinds).optional(),
  status: z.enum(analysisStatuses).optional(),
  subject: z.string().optional(),
  video: z.string().optional(),
  has_events: z
    .enum(['true', 'false'], { error: 'Must be true or false.' })
    .optional()
    .meta({ description: 'Only runs that found at least one event (true) or none (false)' }),
});

export const runSelectorQuery = z.object({ analysis_uuid: z.string().optional() });

export const eventSchema = z.object({
  id: z.int(),
  time: z.number(),
  original_time: z.number().nullable(),
  label: z.string().nullable(),
  flagged: z.boolean(),
  discarded: z.boolean(),
  updated_by: userSummarySchema.nullable(),
  updated_at: z.string().nullable(),
  reviewed_by: userSummarySchema.nullable().meta({
    description:
      'Who decided on the event first in Quick Score (its first change, or the first step past it), never rewritten by a later look',
  }),
  reviewed_at: z.string().nullable().meta({ description: 'When that first decision was made' }),
  last_viewed_by: userSummarySchema.nullable().meta({
    description: 'Who last looked at the event in Quick Score (stepped past it or changed it)',
  }),
  last_viewed_at: z.string().nullable(),
  resolved_by: userSummarySchema.nullable().meta({
    description: 'Who settled a difference between scorers on this event in the consensus (ADR 014)',
  }),
  resolved_at: z.string().nullable(),
});

export const eventsResponse = z.object({
  analysis_uuid: z.string(),
  version: z.int(),
  events: z.array(eventSchema),
});

const eventId = z.int({ error: 'id must be an event id.' });
const label = z.string().trim().max(100, 'A label has at most 100 characters.').nullable();
export const eventChangeSchema = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('move'), id: eventId, time: z.number() }),
    z.object({
      action: z.literal('add'),
      time: z.number(),
      label: label.optional(),
      flagged: z.boolean().optional(),
    }),
    z.object({ action: z.enum(['discard', 'restore', 'flag', 'unflag', 'delete', 'review']), id: eventId }),
    z.object({ action: z.literal('label'), id: eventId, label }),
  ],
  { error: 'Each change needs an action: move, add, discard, restore, flag, unflag, label, delete or review.' },
);
export type EventChange = z.output<typeof eventChangeSchema>;

export const updateEventsBody = z.object({
  analysis_uuid: z.string().optional(),
  version: z.int({ error: 'version is required: the version of the events you changed.' }),
  changes: z.array(eventChangeSchema).min(1, 'Give at least one change.').max(10_000, 'At most 10000 changes at once.'),
  answer: z
    .enum(['all', 'changed'], { error: 'answer must be "all" or "changed".' })
    .default('all')
    .meta({ description: '"changed": answer only the events this call touched (a long run answers quickly)' }),
});

export const updateEventsResponse = eventsResponse.extend({
  added_ids: z.array(z.int()).meta({ description: 'The ids given to the added events, in the order of their changes' }),
});

export const reviewPositionSchema = z.object({
  analysis_uuid: z.string(),
  event_id: z.int().nullable().meta({ description: 'The event the caller was on; null before the first visit' }),
  updated_at: z.string().nullable(),
});
export const reviewPositionBody = z.object({
  event_id: z.int({ error: 'event_id must be an event id.' }),
});

export const timeseriesUrlResponse = z.object({ url: z.string(), expires_at: z.string() });

export const exportQuery = z.object({
  table: z.enum(['series', 'events']).default('events'),
  format: z.enum(['csv', 'xlsx']).default('csv'),
});
export const seriesQuery = z.object({ part: z.enum(['values', 'times']).default('values') });
export const summaryExportQuery = z.object({ format: z.enum(['csv', 'xlsx']).default('csv') });
