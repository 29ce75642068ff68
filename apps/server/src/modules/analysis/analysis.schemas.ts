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
  kind: z
    .enum(analysisKinds, { error: `kind must be one of: ${analysisKinds.join(', ')}.` })
    .optional()
    .meta({ description: "Required without protocol_uuid; with it, the protocol's kind (must match when given)" }),
  parameters: z.record(z.string(), z.unknown()).default({}).meta({
    description: "With protocol_uuid: overrides of the protocol's parameters, key by key (a list is replaced whole)",
  }),
  source_analysis_uuid: z.string().optional(),
  protocol_uuid: z
    .string()
    .optional()
    .meta({ description: 'Make the run from this protocol of the project (ADR 031)' }),
  protocol_version: z
    .int({ error: 'protocol_version must be a whole number.' })
    .min(1, 'protocol_version must be 1 or more.')
    .optional()
    .meta({ description: "The protocol's version to use; its current version when left out" }),
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
    pose_series: z
      .object({
        pose_name: z.string().meta({ description: 'The pose set the series was derived from, as it was named then' }),
        unit: z.string().meta({ description: 'px/s (speed), px (distance) or degrees (angle)' }),
        missing_points: z.int().meta({
          description: "Points of the measure's body parts missing before interpolation (absent or below the cutoff)",
        }),
        interpolated_points: z.int().meta({ description: 'Of those, the points filled by linear interpolation' }),
      })
      .optional()
      .meta({ description: 'Pose-derived series only (ADR 032)' }),
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
  source_series: z
    .object({
      analysis_uuid: z.string().meta({ description: 'The run that made the values' }),
      kind: z.enum(analysisKinds),
      pose: z
        .object({
          measure: z.string().meta({ description: 'speed, distance or angle' }),
          parts: z
            .array(z.object({ individual: z.string(), part: z.string() }))
            .meta({ description: "The measure's body parts in order, each with its individual" }),
          unit: z.string().meta({ description: "px/s, px, degrees, or the scale's unit (cm/s, cm…)" }),
        })
        .nullable()
        .meta({ description: 'A pose-derived series: what it measures (null for any other kind)' }),
    })
    .nullable()
    .meta({
      description:
        "What the series of a run with a source is (an event detection reads its source's series; a detection on a detection, the first run up the chain that is not one): null without a source or when that run is gone (ADR 037)",
    }),
  protocol_uuid: z
    .string()
    .nullable()
    .meta({ description: 'The protocol the run was made from, as recorded (kept when the protocol is deleted)' }),
  protocol_version: z.int().nullable().meta({ description: "The protocol's version the run used" }),
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
  protocol: z
    .string()
    .optional()
    .meta({ description: 'Only runs made from this protocol (any version; deleted protocols too)' }),
  has_events: z
    .enum(['true', 'false'], { error: 'Must be true or false.' })
    .optional()
    .meta({ description: 'Only runs that found at least one event (true) or none (false)' }),
});

export const timeseriesUrlResponse = z.object({ url: z.string(), expires_at: z.string() });

export const exportQuery = z.object({
  table: z.enum(['series', 'events']).default('events'),
  format: z.enum(['csv', 'xlsx']).default('csv'),
});
export const seriesQuery = z.object({ part: z.enum(['values', 'times']).default('values') });
export const summaryExportQuery = z.object({ format: z.enum(['csv', 'xlsx']).default('csv') });
