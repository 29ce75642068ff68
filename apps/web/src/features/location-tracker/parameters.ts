/**
 * The location-tracking settings the user sets, with the server's ranges and defaults (apps/server
 * location.schemas.ts; ezTrack's Individual notebook for its fields). Numbers are kept as typed text, so a
 * half-typed value stays as the user left it; ranges are the server's to check, its messages come back per field.
 */
import { type FieldErrors, serverFieldErrors } from '@/features/movement-detector/parameters';

export type { FieldErrors };

/** The trackers the server knows, the default first. */
export const ALGORITHMS = [
  {
    value: 'body_core',
    label: 'Body centre (default)',
    help: 'Finds the animal’s body and follows its centre, not the darkest change: the tail, a tether or a hand do not pull the point away. No tuning needed.',
  },
  {
    value: 'eztrack',
    label: 'ezTrack',
    help: 'ezTrack’s Location Tracking, reproduced exactly: the centre of mass of what differs from the empty arena, so its numbers equal those of a published ezTrack pipeline.',
  },
] as const;
export type Algorithm = (typeof ALGORITHMS)[number]['value'];

export type NumberName =
  | 'loc_thresh'
  | 'window_size'
  | 'window_weight'
  | 'wire_krn'
  | 'reference_frames'
  | 'noise_k'
  | 'min_contrast'
  | 'core_fraction'
  | 'min_area'
  | 'reach'
  | 'bin_s'
  | 'jump_px';
export type Method = 'dark' | 'light' | 'abs';
export type Polarity = 'auto' | 'dark' | 'light';

export interface NumberField {
  name: NumberName;
  label: string;
  help: string;
  min: number;
  max?: number;
  step: number | 'any';
  /** Null: optional, empty by default. */
  defaultValue: number | null;
  /** What an empty optional field means (default "off"). */
  emptyMeans?: string;
}

/** ezTrack's numeric settings, in its notebook's order. */
export const EZTRACK_FIELDS: readonly NumberField[] = [
  {
    name: 'loc_thresh',
    label: 'Location threshold (percentile)',
    help: 'Differences below this percentile of the frame’s pixels are ignored; only the strongest change is kept (0–100, default 99.5).',
    min: 0,
    max: 100,
    step: 'any',
    defaultValue: 99.5,
  },
  {
    name: 'window_size',
    label: 'Window size (px)',
    help: 'Side of the square around the previous position where the animal is looked for first (1 to the picture’s larger side, default 100).',
    min: 1,
    step: 1,
    defaultValue: 100,
  },
  {
    name: 'window_weight',
    label: 'Window weight',
    help: 'How much change outside the window is weakened: 1 ignores it, 0 keeps it (0–1, default 0.9).',
    min: 0,
    max: 1,
    step: 'any',
    defaultValue: 0.9,
  },
  {
    name: 'wire_krn',
    label: 'Wire kernel (px)',
    help: 'Side of the opening that erases thin things such as a tether or cable, wider than them and narrower than the animal (default 5).',
    min: 1,
    step: 1,
    defaultValue: 5,
  },
];

/** Shared by both trackers: the reference is the per-pixel median of these frames. */
export const REFERENCE_FIELD: NumberField = {
  name: 'reference_frames',
  label: 'Reference frames',
  help: 'Frames, spread evenly over the video, whose per-pixel median is the empty arena (1–500, at least 3 for the body tracker; default 50).',
  min: 1,
  max: 500,
  step: 1,
  defaultValue: 50,
};

/** The body tracker's settings (server: engine/location/body-parameters.ts), each with its range and default. */
export const BODY_FIELDS: readonly NumberField[] = [
  {
    name: 'noise_k',
    label: 'Noise multiple',
    help: 'A block of pixels has changed when it differs from the arena by more than this many noise deviations (2–50, default 6).',
    min: 2,
    max: 50,
    step: 'any',
    defaultValue: 6,
  },
  {
    name: 'min_contrast',
    label: 'Minimum contrast',
    help: '…and by at least this many grey levels, for almost noiseless videos (1–128, default 12).',
    min: 1,
    max: 128,
    step: 'any',
    defaultValue: 12,
  },
  {
    name: 'core_fraction',
    label: 'Core fraction',
    help: 'The body’s core: its pixels at least this fraction of the largest distance from its edge; thin parts (tail, tether) fall outside (0.1–0.9, default 0.4).',
    min: 0.1,
    max: 0.9,
    step: 'any',
    defaultValue: 0.4,
  },
  {
    name: 'min_area',
    label: 'Minimum area (px)',
    help: 'The smallest changed region that can be the animal, in pixels (4–1000000, default 150).',
    min: 4,
    max: 1_000_000,
    step: 1,
    defaultValue: 150,
  },
  {
    name: 'reach',
    label: 'Reach (body lengths)',
    help: 'How far from its previous position, in body lengths, a region still counts as the same animal (0.25–10, default 1.5).',
    min: 0.25,
    max: 10,
    step: 'any',
    defaultValue: 1.5,
  },
];

export const POLARITIES: readonly { value: Polarity; label: string }[] = [
  { value: 'auto', label: 'Find out from the video' },
  { value: 'dark', label: 'Dark animal on a lighter arena' },
  { value: 'light', label: 'Light animal on a darker arena' },
];

export const BIN_FIELD: NumberField = {
  name: 'bin_s',
  label: 'Bin length (s)',
  help: 'Cut the results into bins of this many seconds (distance and zones per bin). Empty: no bins.',
  min: 0,
  max: 86400,
  step: 'any',
  defaultValue: null,
};

/** Where the result's jumps list starts (server: engine/location/jumps.ts, ADR 026). */
export const JUMP_FIELD: NumberField = {
  name: 'jump_px',
  label: 'Jump distance (px)',
  help: 'The result lists the frames where the point moved farther than this since the previous tracked frame, to check them. Empty: a body length (the body tracker measures it; for ezTrack a fifth of the picture’s smaller side).',
  min: 0,
  max: 100000,
  step: 'any',
  defaultValue: null,
  emptyMeans: 'a body length',
};

const NUMBER_FIELDS = [...EZTRACK_FIELDS, REFERENCE_FIELD, ...BODY_FIELDS, BIN_FIELD, JUMP_FIELD];

export const METHODS: readonly { value: Method; label: string }[] = [
  { value: 'dark', label: 'Dark animal on a lighter arena' },
  { value: 'light', label: 'Light animal on a darker arena' },
  { value: 'abs', label: 'Either (any difference)' },
];

/**
 * Where the reference (the empty arena) comes from: frames spread over this video (the default), an empty-arena
 * video of the project (same width and height), or frames of this video the user lists.
 */
export type ReferenceSource = 'spread' | 'video' | 'frames';

export interface ReferenceValues {
  source: ReferenceSource;
  videoUuid: string;
  /** Frame numbers as typed: "0, 120, 240". */
  frames: string;
}

/** Where the positions come from (ADR 037): the video tracker, or a body part of one of the video's pose sets. */
export type PositionFrom = 'tracker' | 'pose';

/** The pose body part whose points are the positions, with the pose series' rules for missing points (as typed). */
export interface PoseSourceValues {
  poseUuid: string;
  /** Empty: the set's only individual. */
  individual: string;
  part: string;
  cutoff: string;
  maxGap: string;
}

export interface ParameterValues {
  position: PositionFrom;
  pose: PoseSourceValues;
  algorithm: Algorithm;
  reference: ReferenceValues;
  method: Method;
  polarity: Polarity;
  use_window: boolean;
  rmv_wire: boolean;
  numbers: Record<NumberName, string>;
}

export function defaultParameterValues(): ParameterValues {
  return {
    position: 'tracker',
    pose: { poseUuid: '', individual: '', part: '', cutoff: '0.6', maxGap: '5' },
    algorithm: ALGORITHMS[0].value,
    reference: { source: 'spread', videoUuid: '', frames: '' },
    method: 'dark',
    polarity: 'auto',
    use_window: true,
    rmv_wire: true,
    numbers: Object.fromEntries(
      NUMBER_FIELDS.map((field) => [field.name, field.defaultValue === null ? '' : String(field.defaultValue)]),
    ) as Record<NumberName, string>,
  };
}

/** A run's stored parameters back into the controls; missing or odd values give the default. */
export function parameterValuesFromRun(parameters: Record<string, unknown>): ParameterValues {
  const values = defaultParameterValues();
  const source = parameters.source as Record<string, unknown> | null | undefined;
  if (source && typeof source === 'object') {
    values.position = 'pose';
    values.pose = {
      poseUuid: typeof source.pose_uuid === 'string' ? source.pose_uuid : '',
      individual: typeof source.individual === 'string' ? source.individual : '',
      part: typeof source.part === 'string' ? source.part : '',
      cutoff: typeof source.likelihood_cutoff === 'number' ? String(source.likelihood_cutoff) : values.pose.cutoff,
      maxGap: typeof source.max_gap_frames === 'number' ? String(source.max_gap_frames) : values.pose.maxGap,
    };
  }
  const algorithm = ALGORITHMS.find((item) => item.value === parameters.algorithm);
  if (algorithm) values.algorithm = algorithm.value;
  const method = METHODS.find((item) => item.value === parameters.method);
  if (method) values.method = method.value;
  const polarity = POLARITIES.find((item) => item.value === parameters.polarity);
  if (polarity) values.polarity = polarity.value;
  const reference = parameters.reference as { video_uuid?: unknown; frames?: unknown } | null | undefined;
  if (typeof reference?.video_uuid === 'string')
    values.reference = { ...values.reference, source: 'video', videoUuid: reference.video_uuid };
  if (Array.isArray(reference?.frames)) {
    values.reference = { ...values.reference, source: 'frames', frames: reference.frames.join(', ') };
  }
  if (typeof parameters.use_window === 'boolean') values.use_window = parameters.use_window;
  if (typeof parameters.rmv_wire === 'boolean') values.rmv_wire = parameters.rmv_wire;
  for (const field of NUMBER_FIELDS) {
    const value = parameters[field.name];
    if (typeof value === 'number' && Number.isFinite(value)) values.numbers[field.name] = String(value);
  }
  return values;
}

/** The settings as the API takes them, or the fields that are not numbers. */
export function parseParameterValues(
  values: ParameterValues,
): { ok: true; parameters: Record<string, unknown> } | { ok: false; errors: FieldErrors } {
  if (values.position === 'pose') return parsePoseSource(values);
  const parameters: Record<string, unknown> = {
    algorithm: values.algorithm,
    method: values.method,
    polarity: values.polarity,
    use_window: values.use_window,
    rmv_wire: values.rmv_wire,
  };
  const errors: FieldErrors = {};
  for (const field of NUMBER_FIELDS) {
    const text = values.numbers[field.name].trim();
    if (text === '' && field.defaultValue === null) parameters[field.name] = null;
    else if (text === '' || !Number.isFinite(Number(text))) errors[field.name] = ['Enter a number.'];
    else parameters[field.name] = Number(text);
  }
  const reference = parseReference(values.reference);
  if ('error' in reference) errors.reference = [reference.error];
  else parameters.reference = reference.value;
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, parameters };
}

/** Frame numbers typed as "0, 120 240": whole numbers separated by commas or spaces; null when one is not. */
export function parseFrameList(text: string): number[] | null {
  const items = text.split(/[\s,;]+/).filter((item) => item !== '');
  if (!items.every((item) => /^\d+$/.test(item))) return null;
  return items.map(Number);
}

function parseReference(
  values: ReferenceValues,
): { value: null | { video_uuid: string } | { frames: number[] } } | { error: string } {
  if (values.source === 'video') {
    return values.videoUuid ? { value: { video_uuid: values.videoUuid } } : { error: 'Choose the empty-arena video.' };
  }
  if (values.source === 'frames') {
    const frames = parseFrameList(values.frames);
    if (frames === null) return { error: 'Frame numbers are whole numbers, separated by commas.' };
    if (frames.length === 0) return { error: 'List at least one frame (or add the current one).' };
    return { value: { frames } };
  }
  return { value: null };
}

/**
 * The server's field errors by the control that shows them: `zones.2.name` and `zones.0.points.1` under
 * `zones`, `scale.true_distance` under `scale`, the settings by their own name.
 */
export function locationFieldErrors(error: unknown): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, messages] of Object.entries(serverFieldErrors(error))) {
    const name = key.split('.')[0] ?? key;
    const detail = key.includes('.')
      ? (messages ?? []).map((message) => `${key.slice(name.length + 1)}: ${message}`)
      : messages;
    out[name] = [...(out[name] ?? []), ...(detail ?? [])];
  }
  return out;
}

/**
 * Positions from a pose body part: the source, and the settings that still apply (bins, jumps); the tracker's own
 * settings and its reference are not sent (the server keeps none of them for such a run).
 */
function parsePoseSource(
  values: ParameterValues,
): { ok: true; parameters: Record<string, unknown> } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const parameters: Record<string, unknown> = {};
  for (const field of [BIN_FIELD, JUMP_FIELD]) {
    const text = values.numbers[field.name].trim();
    if (text === '') parameters[field.name] = null;
    else if (!Number.isFinite(Number(text))) errors[field.name] = ['Enter a number.'];
    else parameters[field.name] = Number(text);
  }
  const { pose } = values;
  const problems: string[] = [];
  if (!pose.poseUuid) problems.push('Choose the pose set.');
  if (!pose.part) problems.push('Choose the body part.');
  const cutoff = Number(pose.cutoff);
  if (pose.cutoff.trim() === '' || !(cutoff >= 0 && cutoff <= 1))
    problems.push('The likelihood cutoff is a number from 0 to 1.');
  if (!/^\d+$/.test(pose.maxGap.trim())) problems.push('The gaps to fill are a whole number of frames.');
  if (problems.length > 0) errors.source = problems;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  parameters.source = {
    pose_uuid: pose.poseUuid,
    ...(pose.individual ? { individual: pose.individual } : {}),
    part: pose.part,
    likelihood_cutoff: cutoff,
    max_gap_frames: Number(pose.maxGap),
  };
  return { ok: true, parameters };
}
