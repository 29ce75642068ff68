/**
 * Location tracking runs (issue 22): their parameters (the tracker, its settings, zones, exclusions, scale,
 * bypass ranges, bins) and the summary they store. Checks that need the picture (points inside it, the window no
 * larger than it) are made by `parseLocationParameters` in location.service.ts.
 */
import { z } from 'zod';
import { timeRangesSchema } from '../../lib/time-ranges.js';
import { DEFAULT_LOCATION_ALGORITHM, LOCATION_ALGORITHMS } from './engine/location/algorithms.js';
import { BODY_ALGORITHM, BODY_DEFAULTS, BODY_POLARITIES, BODY_RANGES } from './engine/location/body-parameters.js';
import { FIGURE_FORMATS, FIGURE_NAMES } from './engine/location/figure.js';
import { EZTRACK_DEFAULTS } from './engine/location/tracker.js';
import { likelihoodCutoff, maxGapFrames } from './pose-settings.js';

const number = (field: string) => z.number({ error: `${field} must be a number.` });
const whole = (field: string) => z.int({ error: `${field} must be a whole number.` });
const flag = (field: string) => z.boolean({ error: `${field} must be true or false.` });
const between = (schema: z.ZodNumber, min: number, max: number) =>
  schema.min(min, `Must be between ${min} and ${max}.`).max(max, `Must be between ${min} and ${max}.`);

export const MAX_ZONES = 50;
export const MAX_EXCLUSIONS = 50;
export const MAX_POLYGON_POINTS = 1000;
export const MAX_ZONE_NAME = 64;
export const MAX_REFERENCE_FRAMES = 500;
/** Longer than the diagonal of any picture the app takes. */
export const MAX_JUMP_PX = 100_000;
/**
 * The reference's frames are held in memory while their median is taken: reference_frames × width × height bytes
 * at most (256 MiB: 50 frames of a 4K picture, 500 of 720×576).
 */
export const MAX_REFERENCE_BYTES = 256 * 1024 * 1024;

export const SCALE_UNITS = ['mm', 'cm', 'm', 'in'] as const;
export type ScaleUnit = (typeof SCALE_UNITS)[number];

/** The series export's own columns (location.export.ts): a zone may not take one of these names. */
export const FIXED_SERIES_COLUMNS = [
  'frame',
  'time_s',
  'x',
  'y',
  'distance_px',
  ...SCALE_UNITS.map((u) => `distance_${u}`),
];

const point = z.tuple([number('x'), number('y')], { error: 'Each point is [x, y] in pixels.' });
const points = z
  .array(point, { error: 'Give the polygon as a list of [x, y] points.' })
  .min(3, 'A polygon needs at least 3 points.')
  .max(MAX_POLYGON_POINTS, `A polygon has at most ${MAX_POLYGON_POINTS} points.`);

const zoneSchema = z.strictObject({
  name: z
    .string({ error: 'Give the zone a name.' })
    .trim()
    .min(1, 'Give the zone a name.')
    .max(MAX_ZONE_NAME, `A zone name has at most ${MAX_ZONE_NAME} characters.`),
  points,
});

/** How far a given px_distance may differ from the drawn line's length (ADR 026): rounding, not another line. */
export const SCALE_LINE_TOLERANCE_PX = 0.5;

/**
 * The scale: a line of known length. `line` (optional) keeps the drawn line, so the page can draw it again;
 * with it, px_distance may be left out (it is the line's length) or given within 0.5 px of that length.
 */
export const scaleSchema = z
  .strictObject({
    px_distance: number('px_distance').positive('Must be more than 0.').optional(),
    true_distance: number('true_distance').positive('Must be more than 0.'),
    unit: z.enum(SCALE_UNITS, { error: `unit must be one of: ${SCALE_UNITS.join(', ')}.` }),
    line: z.tuple([point, point], { error: 'Give the line as [[x1, y1], [x2, y2]] in pixels.' }).optional(),
  })
  .superRefine((scale, ctx) => {
    if (!scale.line) {
      if (scale.px_distance === undefined) {
        ctx.addIssue({ code: 'custom', path: ['px_distance'], message: 'Give px_distance, or the line it measures.' });
      }
      return;
    }
    const [[x1, y1], [x2, y2]] = scale.line;
    const length = Math.hypot(x2 - x1, y2 - y1);
    if (!(length > 0)) {
      ctx.addIssue({ code: 'custom', path: ['line'], message: 'The line’s two ends must differ.' });
    } else if (scale.px_distance !== undefined && !(Math.abs(scale.px_distance - length) <= SCALE_LINE_TOLERANCE_PX)) {
      ctx.addIssue({
        code: 'custom',
        path: ['px_distance'],
        message: `Must equal the line’s length (${Number(length.toFixed(3))} px) within ${SCALE_LINE_TOLERANCE_PX} px, or be left out.`,
      });
    }
  })
  .transform(({ line, px_distance, ...rest }): ScaleParameter => {
    if (!line) return { px_distance: px_distance as number, ...rest };
    const [[x1, y1], [x2, y2]] = line;
    return { px_distance: px_distance ?? Math.hypot(x2 - x1, y2 - y1), ...rest, line };
  });

/** The scale as a run keeps it: px_distance always (given, or the line's length), the line when it was drawn. */
export interface ScaleParameter {
  px_distance: number;
  true_distance: number;
  unit: ScaleUnit;
  line?: [[number, number], [number, number]];
}

/** ezTrack's settings (its Individual notebook's names and defaults, engine/location/tracker.ts). */
const eztrackFields = {
  loc_thresh: between(number('loc_thresh'), 0, 100).default(EZTRACK_DEFAULTS.loc_thresh),
  use_window: flag('use_window').default(EZTRACK_DEFAULTS.use_window),
  /** At most the picture's larger side (checked against the video). */
  window_size: whole('window_size').min(1, 'Must be at least 1.').default(EZTRACK_DEFAULTS.window_size),
  window_weight: between(number('window_weight'), 0, 1).default(EZTRACK_DEFAULTS.window_weight),
  method: z
    .enum(['abs', 'light', 'dark'], { error: 'method must be one of: abs, light, dark.' })
    .default(EZTRACK_DEFAULTS.method),
  rmv_wire: flag('rmv_wire').default(EZTRACK_DEFAULTS.rmv_wire),
  /** Side of the opening's square kernel; any size ezTrack's grey opening takes, at most the picture's smaller side. */
  wire_krn: whole('wire_krn').min(1, 'Must be at least 1.').default(EZTRACK_DEFAULTS.wire_krn),
  reference_frames: between(whole('reference_frames'), 1, MAX_REFERENCE_FRAMES).default(
    EZTRACK_DEFAULTS.reference_frames,
  ),
};

/**
 * Where the reference comes from: null (the default) — the median of `reference_frames` frames of the tracked video
 * itself; `{video_uuid}` — the median of as many frames of an empty-arena video of the same project (the same
 * width and height, checked against the videos); `{frames}` — the median of these frames of the tracked video
 * (indices, checked against its frame count). Only the default reference is checked for an animal that sat still.
 */
const referenceSchema = z
  .strictObject(
    {
      video_uuid: z.uuid({ error: 'video_uuid must be the id of a video of this project.' }).optional(),
      frames: z
        .array(whole('Each frame'), { error: 'frames must be a list of frame numbers.' })
        .min(1, 'List at least one frame.')
        .max(MAX_REFERENCE_FRAMES, `At most ${MAX_REFERENCE_FRAMES} frames.`)
        .optional(),
    },
    { error: 'reference must be {video_uuid} or {frames}, or null for frames spread over this video.' },
  )
  .refine((choice) => (choice.video_uuid === undefined) !== (choice.frames === undefined), {
    message: 'Give either video_uuid (an empty-arena video) or frames (frames of this video), not both or neither.',
  })
  .nullable()
  .default(null);

export type ReferenceChoice = z.output<typeof referenceSchema>;

/** body_core's own settings (engine/location/body-parameters.ts: ranges and defaults); reference_frames is shared. */
const bodyFields = Object.fromEntries(
  Object.entries(BODY_RANGES)
    .filter(([name]) => name !== 'reference_frames')
    .map(([name, range]) => [
      name,
      between(range.integer ? whole(name) : number(name), range.min, range.max).default(
        BODY_DEFAULTS[name as keyof typeof BODY_RANGES],
      ),
    ]),
) as { [K in Exclude<keyof typeof BODY_RANGES, 'reference_frames'>]: z.ZodDefault<z.ZodNumber> };

/**
 * Where the positions come from (ADR 037): null (the default) — the video tracker (`algorithm` and its settings); or a
 * body part of a pose set of the video, with the pose-derived series' rules for missing points (ADR 032). `pose_uuid`
 * left out means the video's newest pose set when the run is made (so a protocol can hold the rule for any video);
 * the run keeps the set it used and the individual named.
 */
const poseSourceSchema = z
  .strictObject(
    {
      pose_uuid: z.string({ error: 'pose_uuid must be the id of a pose set of the video.' }).optional(),
      individual: z.string({ error: 'individual must be the name of an individual of the set.' }).optional(),
      part: z
        .string({ error: 'Name the body part whose position is used (part).' })
        .min(1, 'Name the body part whose position is used (part).'),
      likelihood_cutoff: likelihoodCutoff,
      max_gap_frames: maxGapFrames,
    },
    { error: 'source must be {part, pose_uuid?, individual?, likelihood_cutoff?, max_gap_frames?}, or null.' },
  )
  .nullable()
  .default(null);

export type PoseSourceRequest = NonNullable<z.output<typeof poseSourceSchema>>;

export const locationParameters = z
  .strictObject({
    algorithm: z
      .enum(LOCATION_ALGORITHMS, { error: `algorithm must be one of: ${LOCATION_ALGORITHMS.join(', ')}.` })
      .default(DEFAULT_LOCATION_ALGORITHM),
    ...eztrackFields,
    polarity: z
      .enum(BODY_POLARITIES, { error: `polarity must be one of: ${BODY_POLARITIES.join(', ')}.` })
      .default(BODY_DEFAULTS.polarity),
    ...bodyFields,
    reference: referenceSchema,
    source: poseSourceSchema,
    zones: z.array(zoneSchema).max(MAX_ZONES, `At most ${MAX_ZONES} zones.`).default([]),
    exclusions: z
      .array(z.strictObject({ points }))
      .max(MAX_EXCLUSIONS, `At most ${MAX_EXCLUSIONS} exclusion regions.`)
      .default([]),
    scale: scaleSchema.nullable().default(null),
    bypass_ranges: timeRangesSchema.default([]),
    bin_s: number('bin_s')
      .positive('Must be more than 0.')
      .max(86400, 'Must be at most 86400.')
      .nullable()
      .default(null),
    /** A step longer than this is listed as a jump; null: a body length (engine/location/jumps.ts, ADR 026). */
    jump_px: number('jump_px')
      .positive('Must be more than 0.')
      .max(MAX_JUMP_PX, `Must be at most ${MAX_JUMP_PX}.`)
      .nullable()
      .default(null),
  })
  .superRefine((parameters, ctx) => {
    const shared = BODY_RANGES.reference_frames;
    if (
      parameters.source === null &&
      parameters.algorithm === BODY_ALGORITHM &&
      !parameters.reference?.frames &&
      parameters.reference_frames < shared.min
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['reference_frames'],
        message: `${BODY_ALGORITHM} needs at least ${shared.min} reference frames.`,
      });
    }
    const seen = new Map<string, number>();
    parameters.zones.forEach((zone, index) => {
      const key = zone.name.toLowerCase();
      const first = seen.get(key);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['zones', index, 'name'],
          message: `The name "${zone.name}" is already zone ${first + 1}'s; zone names are unique (ignoring case).`,
        });
      } else seen.set(key, index);
      if (FIXED_SERIES_COLUMNS.includes(key)) {
        ctx.addIssue({
          code: 'custom',
          path: ['zones', index, 'name'],
          message: `"${zone.name}" names a column of the series export; choose another name.`,
        });
      }
    });
  });

export type LocationParameters = z.output<typeof locationParameters>;
export type LocationZone = LocationParameters['zones'][number];

const zoneFigures = {
  name: z.string(),
  time_s: z.number().meta({ description: 'Seconds of tracked frames inside the zone (frames × 1/fps)' }),
  percent: z.number().nullable().meta({ description: '% of the tracked frames inside the zone; null without any' }),
  entries: z.int().meta({
    description:
      'Out→in transitions between consecutive tracked frames, plus one when the first tracked frame is inside',
  }),
  latency_s: z.number().nullable().meta({
    description:
      'Seconds from the first analysed (not bypassed) frame — in a bin, from its first analysed frame — to the first tracked frame inside; 0 when that first frame is inside, null if never',
  }),
  distance_px: z.number().meta({ description: 'Steps whose both ends are inside the zone, in pixels' }),
};

export const locationSummarySchema = z
  .object({
    frames: z.int().meta({ description: 'Frames of the video the run went through' }),
    frames_tracked: z.int().meta({ description: 'Frames with a position' }),
    tracked_s: z.number().meta({ description: 'frames_tracked / fps' }),
    distance_px: z.number().meta({
      description: 'Sum of Euclidean steps between consecutive frames that both have a position',
    }),
    distance: z.number().nullable().meta({ description: 'distance_px in the scale unit; null without a scale' }),
    unit: z.enum(SCALE_UNITS).nullable(),
    mean_speed: z.number().nullable().meta({
      description:
        'distance / tracked_s in unit per second (pixels per second without a scale); null when nothing was tracked',
    }),
    zones: z.array(z.object(zoneFigures)),
    jumps: z
      .object({
        threshold_px: z.number().meta({ description: 'A step longer than this is a jump' }),
        basis: z.enum(['parameter', 'tracker', 'frame']).meta({
          description:
            "Where the threshold came from: the run's jump_px, the tracker's own body length (2 √ its mean area of the animal), or a fifth of the picture's smaller side",
        }),
        count: z.int().meta({ description: 'Jumps in the run; the list is GET …/analysis/{id}/jumps/' }),
      })
      .optional()
      .meta({ description: 'Frames where the position moved more than a body length (ADR 026); absent on older runs' }),
    notes: z.array(z.string()).meta({
      description: 'What the run found about its reference (e.g. the animal sat still in most of its frames)',
    }),
    pose: z
      .object({
        pose_name: z.string().meta({ description: 'The pose set the positions came from, as it was named then' }),
        individual: z.string(),
        part: z.string(),
        missing_points: z.int().meta({ description: 'Frames whose point was absent or below the cutoff' }),
        interpolated_points: z.int().meta({ description: 'Of those, the points filled by linear interpolation' }),
      })
      .optional()
      .meta({ description: "Runs whose positions are a pose set's body part (parameters.source, ADR 037)" }),
    bins: z.array(
      z.object({
        start_s: z.number(),
        end_s: z.number(),
        frames_tracked: z.int(),
        distance_px: z.number(),
        distance: z.number().nullable(),
        zones: z.array(z.object(zoneFigures)),
      }),
    ),
  })
  .meta({
    description: 'A location-tracking run: distance, speed and the zones (definitions: engine/location/summary.ts)',
  });

/** `figure/`'s query: which figure, in which format (ADR 025). */
export const figureQuery = z.object({
  name: z.enum(FIGURE_NAMES, { error: `name must be one of: ${FIGURE_NAMES.join(', ')}.` }),
  format: z.enum(FIGURE_FORMATS, { error: `format must be one of: ${FIGURE_FORMATS.join(', ')}.` }).default('png'),
});
