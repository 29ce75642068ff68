import { z } from 'zod';
import { timeRangesSchema } from '../../lib/time-ranges.js';

export const scoringKinds = ['run_detected', 'run_reviewed', 'track', 'upload', 'scorer'] as const;
export type ScoringKind = (typeof scoringKinds)[number];

/** Most events one uploaded list may hold (as many as a track may hold ranges). */
export const MAX_UPLOADED_EVENTS = 100_000;

const number = (field: string) => z.number({ error: `${field} must be a number.` });
const between = (schema: z.ZodNumber, min: number, max: number) =>
  schema.min(min, `Must be between ${min} and ${max}.`).max(max, `Must be between ${min} and ${max}.`);

const RUN_KINDS: readonly ScoringKind[] = ['run_detected', 'run_reviewed', 'scorer'];

/**
 * One scoring of the video (ADR 010): a run's events as detected, a run's events as reviewed (optionally one label),
 * a run as one user scored it blind (ADR 014), an annotation track, or events or ranges uploaded for the comparison. Fields that do not belong to the kind are
 * refused rather than ignored, so a request never means something other than it says.
 */
export const scoringSchema = z
  .strictObject({
    kind: z.enum(scoringKinds, { error: `kind must be one of: ${scoringKinds.join(', ')}.` }),
    analysis_uuid: z.string().optional(),
    label: z
      .string()
      .trim()
      .min(1, 'A label cannot be empty.')
      .max(100, 'A label has at most 100 characters.')
      .optional(),
    annotation_config_uuid: z.string().optional(),
    user_id: z
      .int({ error: 'user_id must be a user id.' })
      .optional()
      .meta({ description: 'The kind scorer: whose blind scoring of the run this side reads (ADR 014)' }),
    events: z
      .array(number('Each event time'), { error: 'Give a list of event times in seconds.' })
      .max(MAX_UPLOADED_EVENTS, `At most ${MAX_UPLOADED_EVENTS} events.`)
      .superRefine((times, ctx) => {
        const negative = times.findIndex((time) => time < 0);
        if (negative !== -1) {
          ctx.addIssue({ code: 'custom', message: `Event ${negative + 1} (${times[negative]} s) is before 0 s.` });
        }
      })
      .optional(),
    ranges: timeRangesSchema.optional(),
  })
  .superRefine((side, ctx) => {
    const problem = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
    const isRun = RUN_KINDS.includes(side.kind);
    if (isRun && side.analysis_uuid === undefined)
      problem('analysis_uuid', 'Name the run whose events this side reads.');
    if (!isRun && side.analysis_uuid !== undefined) {
      problem('analysis_uuid', 'analysis_uuid belongs to the kinds run_detected, run_reviewed and scorer.');
    }
    if (side.kind === 'scorer' && side.user_id === undefined) problem('user_id', 'Name the scorer (user_id).');
    if (side.kind !== 'scorer' && side.user_id !== undefined) problem('user_id', 'user_id belongs to the kind scorer.');
    if (side.label !== undefined && side.kind !== 'run_reviewed') {
      problem('label', 'label belongs to the kind run_reviewed (a run’s events as reviewed).');
    }
    if (side.kind === 'track' && side.annotation_config_uuid === undefined) {
      problem('annotation_config_uuid', 'Name the annotation track (annotation_config_uuid).');
    }
    if (side.kind !== 'track' && side.annotation_config_uuid !== undefined) {
      problem('annotation_config_uuid', 'annotation_config_uuid belongs to the kind track.');
    }
    if (side.kind === 'upload') {
      if (side.events === undefined && side.ranges === undefined) {
        problem('events', 'Give the uploaded events (a list of times) or ranges (a list of [start, end]).');
      }
      if (side.events !== undefined && side.ranges !== undefined) problem('events', 'Give events or ranges, not both.');
    } else {
      if (side.events !== undefined) problem('events', 'events belong to the kind upload.');
      if (side.ranges !== undefined) problem('ranges', 'ranges belong to the kind upload.');
    }
  });
export type ScoringInput = z.output<typeof scoringSchema>;

export const agreementBody = z.strictObject({
  reference: scoringSchema,
  candidate: scoringSchema,
  tolerance_s: between(number('tolerance_s'), 0, 60).default(0.2),
  slice_s: number('slice_s').positive('Must be more than 0.').max(3600, 'Must be at most 3600.').optional(),
  bin_s: number('bin_s').positive('Must be more than 0.').max(86400, 'Must be at most 86400.').default(60),
});
export type AgreementBody = z.output<typeof agreementBody>;

/** A sweep from `from` to `to` in steps of `step` (both ends included); `max` absent: any value from `min` up. */
const sweepRange = (field: string, min: number, max?: number) => {
  const bound = (name: string) =>
    max === undefined
      ? number(`${field}.${name}`).min(min, `Must be ${min} or more.`)
      : between(number(`${field}.${name}`), min, max);
  return z
    .strictObject({
      from: bound('from'),
      to: bound('to'),
      step: number(`${field}.step`).positive('The step must be more than 0.'),
    })
    .refine((range) => range.from <= range.to, { message: 'from must not be more than to.', path: ['to'] });
};

const EVENT_FIELDS = ['tolerance_s', 'k', 'threshold', 'refractory_s'] as const;
const FREEZING_FIELDS = ['freeze_threshold', 'min_freeze_s', 'bin_s'] as const;

export const calibrateBody = z
  .strictObject({
    reference: scoringSchema,
    target: z.enum(['events', 'freezing'], { error: 'target must be events or freezing.' }),
    tolerance_s: between(number('tolerance_s'), 0, 60).optional(),
    k: sweepRange('k', 1, 10).optional(),
    threshold: sweepRange('threshold', 0).optional(),
    refractory_s: z
      .array(between(number('refractory_s'), 0, 60), { error: 'Give a list of refractory periods in seconds.' })
      .min(1, 'Give at least one refractory period.')
      .max(20, 'At most 20 refractory periods.')
      .optional(),
    freeze_threshold: sweepRange('freeze_threshold', 0).optional(),
    min_freeze_s: z
      .array(between(number('min_freeze_s'), 0, 3600), { error: 'Give a list of minimum durations in seconds.' })
      .min(1, 'Give at least one minimum duration.')
      .max(20, 'At most 20 minimum durations.')
      .optional(),
    bin_s: number('bin_s').positive('Must be more than 0.').max(86400, 'Must be at most 86400.').optional(),
  })
  .superRefine((body, ctx) => {
    const other = body.target === 'events' ? FREEZING_FIELDS : EVENT_FIELDS;
    for (const field of other) {
      if (body[field] !== undefined) {
        ctx.addIssue({ code: 'custom', path: [field], message: `${field} does not apply to target ${body.target}.` });
      }
    }
    if (body.k !== undefined && body.threshold !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['threshold'], message: 'Sweep k or absolute thresholds, not both.' });
    }
  });
export type CalibrateBody = z.output<typeof calibrateBody>;

// ---- Answers ----

export const scoringSummarySchema = z.object({
  kind: z.enum(scoringKinds),
  description: z.string().meta({ description: 'What this side is, in words (for reports)' }),
  analysis_uuid: z.string().nullable(),
  annotation_config_uuid: z.string().nullable(),
  label: z.string().nullable(),
  events: z.int().meta({ description: 'Events this side compares (a track’s or ranges’ starts)' }),
  ranges: z.int().nullable().meta({ description: 'Ranges this side has (null: events only)' }),
});

const eventAgreementSchema = z.object({
  tp: z.int(),
  fp: z.int(),
  fn: z.int(),
  precision: z.number().nullable(),
  recall: z.number().nullable(),
  f1: z.number().nullable(),
  onset_error: z.object({
    mean_s: z.number().nullable(),
    median_s: z.number().nullable(),
    sd_s: z.number().nullable(),
  }),
  pairs: z.array(z.object({ reference_s: z.number(), candidate_s: z.number(), delta_s: z.number() })),
  missed: z.array(z.number()).meta({ description: 'Reference events left unmatched (false negatives)' }),
  extra: z.array(z.number()).meta({ description: 'Candidate events left unmatched (false positives)' }),
});

const binSchema = z.object({
  start_s: z.number(),
  end_s: z.number(),
  reference_percent: z.number().nullable(),
  candidate_percent: z.number().nullable(),
});

const intervalAgreementSchema = z.object({
  slice_s: z.number(),
  slices: z.int(),
  duration_s: z.number(),
  table: z.object({ both: z.int(), reference_only: z.int(), candidate_only: z.int(), neither: z.int() }),
  percent_agreement: z.number().nullable(),
  kappa: z.number().nullable(),
  reference_prevalence: z.number().nullable().meta({ description: 'Share of slices in the behaviour, 0–1' }),
  candidate_prevalence: z.number().nullable(),
  bin_s: z.number(),
  bins: z.array(binSchema),
  pearson_r: z.number().nullable(),
  slope: z.number().nullable(),
  bins_used: z.int().meta({ description: 'Bins where both sides are known: the points of r and the slope' }),
  min_bins: z.int().meta({ description: 'The fewest bins r and the slope mean anything with (5)' }),
  fit_caveat: z
    .string()
    .nullable()
    .meta({ description: 'Why r and the slope deserve no trust (fewer than min_bins bins), else null' }),
  disagreements: z.array(
    z.object({ start_s: z.number(), end_s: z.number(), side: z.enum(['reference_only', 'candidate_only']) }),
  ),
});

const decisionAgreementSchema = z.object({
  both_kept: z.int(),
  reference_only_kept: z.int(),
  candidate_only_kept: z.int(),
  both_discarded: z.int(),
  percent_agreement: z.number().nullable(),
  kappa: z.number().nullable(),
  differences: z
    .array(
      z.object({
        event_id: z.int(),
        time: z.number().meta({ description: 'The detected time of the event (s)' }),
        reference_kept: z.boolean(),
        candidate_kept: z.boolean(),
        resolved_by: z.string().nullable().meta({ description: 'Who settled it in the consensus, if anyone' }),
      }),
    )
    .meta({ description: 'Detected events the two sides decided differently, by time (at most 1000)' }),
});

export const agreementResponse = z.object({
  reference: scoringSummarySchema,
  candidate: scoringSummarySchema,
  tolerance_s: z.number(),
  events: eventAgreementSchema,
  intervals: intervalAgreementSchema
    .nullable()
    .meta({ description: 'Null unless both sides have ranges (a track, or uploaded ranges)' }),
  decisions: decisionAgreementSchema.nullable().optional().meta({
    description:
      "Both sides scorings of one run (its consensus, or scorers): each detected event kept or discarded by each, Cohen's kappa (ADR 014)",
  }),
  elapsed_ms: z.number().meta({ description: 'Server time spent on the request' }),
});
export type AgreementResponse = z.infer<typeof agreementResponse>;

const eventPointSchema = z.object({
  event_threshold_k: z.number().nullable(),
  threshold: z.number(),
  refractory_s: z.number(),
  events: z.int(),
  tp: z.int(),
  fp: z.int(),
  fn: z.int(),
  precision: z.number().nullable(),
  recall: z.number().nullable(),
  f1: z.number().nullable(),
  onset_error_mean_s: z.number().nullable(),
  mean_abs_error_s: z.number().nullable(),
});

const freezingPointSchema = z.object({
  freeze_threshold: z.number(),
  min_freeze_s: z.number(),
  percent: z.number().nullable(),
  pearson_r: z.number().nullable(),
  slope: z.number().nullable(),
  mean_abs_diff: z.number().nullable(),
});

const calibrationCommon = {
  analysis_uuid: z.string(),
  reference: scoringSummarySchema,
  warnings: z.array(z.string()).meta({ description: 'Why the best setting may not deserve trust' }),
  no_recommendation: z
    .string()
    .nullable()
    .meta({ description: 'Why no setting is recommended (`best` is null): none finds anything; else null' }),
  elapsed_ms: z.number().meta({ description: 'Server time spent on the request' }),
};

export const calibrationResponse = z.discriminatedUnion('target', [
  z.object({
    target: z.literal('events'),
    ...calibrationCommon,
    tolerance_s: z.number(),
    sweep: z.enum(['k', 'threshold']),
    noise_top: z.number(),
    points: z.array(eventPointSchema),
    best: z
      .object({
        index: z.int(),
        parameters: z.object({
          event_threshold_k: z.number(),
          event_threshold: z.number().nullable(),
          refractory_s: z.number(),
        }),
      })
      .nullable()
      .meta({ description: 'The recommended setting; null when no setting matches a reference event (TP 0)' }),
  }),
  z.object({
    target: z.literal('freezing'),
    ...calibrationCommon,
    bin_s: z.number(),
    reference_percent: z.number().nullable(),
    points: z.array(freezingPointSchema),
    best: z
      .object({
        index: z.int(),
        parameters: z.object({
          event_threshold_k: z.number(),
          event_threshold: z.number().nullable(),
          refractory_s: z.number(),
          freeze_threshold: z.number(),
          min_freeze_s: z.number(),
          bin_s: z.number(),
        }),
      })
      .nullable()
      .meta({ description: 'The recommended setting; null when no setting detects any freezing' }),
    bins: z.array(binSchema).meta({
      description: 'Per bin, the reference’s % freezing and that of the setting closest to it (the best one)',
    }),
  }),
]);
export type CalibrationResponse = z.infer<typeof calibrationResponse>;

export const exportFormatQuery = z.object({ format: z.enum(['csv', 'xlsx']).default('csv') });
