/** How a run reads in Analysis Logs: names, parameters and summary figures as people say them. */
import type { AnalysisKind, AnalysisRun, AnalysisStatus, AnalysisSummary } from '@/features/analysis/api';
import { KIND_LABELS } from '@/features/analysis/labels';
import { partLabel, posePartsOf } from '@/features/analysis/series-names';
import {
  ALGORITHMS,
  BIN_FIELD,
  BODY_FIELDS,
  EZTRACK_FIELDS,
  JUMP_FIELD,
  METHODS,
  POLARITIES,
  REFERENCE_FIELD,
} from '@/features/location-tracker/parameters';
import { formatDuration } from '@/lib/format';

export const ANALYSIS_KINDS = [
  'movement_detection',
  'event_detection',
  'timeseries_import',
] as const satisfies readonly AnalysisKind[];
export const ANALYSIS_STATUSES = [
  'queued',
  'running',
  'succeeded',
  'failed',
  'revoked',
] as const satisfies readonly AnalysisStatus[];

/** A number without float noise: 0.1 + 0.2 reads 0.3, integers stay whole. */
export function formatNumber(value: number, decimals = 3): string {
  if (!Number.isFinite(value)) return String(value);
  return String(Number(value.toFixed(decimals)));
}

const seconds = (value: number) => `${formatNumber(value)} s`;
const offWhenZero = (value: unknown, on: (n: number) => string) =>
  typeof value === 'number' ? (value === 0 ? 'Off' : on(value)) : formatValue(value);

type Roi = { start_s: number; x: number; y: number; width: number; height: number };
const isRoi = (value: unknown): value is Roi =>
  typeof value === 'object' && value !== null && ['start_s', 'x', 'y', 'width', 'height'].every((k) => k in value);

/** At most this many bypass ranges are spelled out; the rest are counted. */
export const MAX_LISTED_RANGES = 10;

/** Known parameters in the order the Movement Detector presents them, with their readable names and values. */
const PARAMETERS: Record<string, { label: string; format?: (value: unknown) => string }> = {
  rois: {
    label: 'Regions of interest',
    format: (value) => {
      if (!Array.isArray(value)) return formatValue(value);
      if (value.length === 0) return 'Whole frame';
      return value
        .map((roi) =>
          isRoi(roi)
            ? `From ${seconds(roi.start_s)}: ${roi.width}×${roi.height} px at (${roi.x}, ${roi.y})`
            : formatValue(roi),
        )
        .join('\n');
    },
  },
  bypass_ranges: {
    label: 'Bypass ranges',
    format: (value) => {
      if (!Array.isArray(value)) return formatValue(value);
      if (value.length === 0) return 'None';
      const listed = value
        .slice(0, MAX_LISTED_RANGES)
        .map((range) =>
          Array.isArray(range) && typeof range[0] === 'number' && typeof range[1] === 'number'
            ? `${formatNumber(range[0])}–${formatNumber(range[1])} s`
            : formatValue(range),
        );
      const rest = value.length - listed.length;
      return rest > 0 ? `${listed.join(', ')} and ${rest} more` : listed.join(', ');
    },
  },
  threshold: { label: 'Pixel change threshold' },
  opening: { label: 'Opening', format: (value) => offWhenZero(value, (n) => `${n}×${n} px`) },
  closing: { label: 'Closing', format: (value) => offWhenZero(value, (n) => `${n}×${n} px`) },
  small_object_removal: {
    label: 'Small-object removal',
    format: (value) => offWhenZero(value, (n) => `Regions under ${n} px`),
  },
  event_threshold_k: {
    label: 'Event threshold (k)',
    format: (value) => (typeof value === 'number' ? `${formatNumber(value)} × noise top` : formatValue(value)),
  },
  event_threshold: {
    label: 'Absolute event threshold',
    format: (value) => (value === null || value === undefined ? 'Not set (k is used)' : formatValue(value)),
  },
  refractory_s: {
    label: 'Refractory period',
    format: (value) => (typeof value === 'number' ? seconds(value) : formatValue(value)),
  },
  freeze_threshold: {
    label: 'Freezing threshold',
    format: (value) => (value === null || value === undefined ? 'Off' : formatValue(value)),
  },
  min_freeze_s: {
    label: 'Minimum freezing duration',
    format: (value) => (typeof value === 'number' ? seconds(value) : formatValue(value)),
  },
  bin_s: {
    label: 'Freezing time bin',
    format: (value) => (typeof value === 'number' ? seconds(value) : formatValue(value)),
  },
  // A pose-derived series (ADR 032, 037): a body part is a name (of `individual`) or {individual, part}.
  measure: { label: 'Measure' },
  individual: { label: 'Individual' },
  parts: {
    label: 'Body parts',
    format: (value) =>
      Array.isArray(value)
        ? value
            .map((entry) => (typeof entry === 'string' ? entry : partLabel(posePartsOf({ parts: [entry] })[0]!)))
            .join(', ')
        : formatValue(value),
  },
};

const choice = (options: readonly { value: string; label: string }[]) => (value: unknown) =>
  options.find((option) => option.value === value)?.label ?? formatValue(value);

type Zone = { name?: unknown; points?: unknown };
const pointCount = (points: unknown) => (Array.isArray(points) ? points.length : 0);

/** The Location Tracker's settings (ADR 024–027), in the order its page presents them. */
const LOCATION_PARAMETERS: Record<string, { label: string; format?: (value: unknown) => string }> = {
  algorithm: { label: 'Tracker', format: choice(ALGORITHMS) },
  zones: {
    label: 'Zones',
    format: (value) => {
      if (!Array.isArray(value)) return formatValue(value);
      if (value.length === 0) return 'None';
      return (value as Zone[])
        .map((zone) => `${typeof zone?.name === 'string' ? zone.name : '?'}: ${pointCount(zone?.points)} points`)
        .join('\n');
    },
  },
  exclusions: {
    label: 'Exclusion regions',
    format: (value) => (Array.isArray(value) ? (value.length === 0 ? 'None' : `${value.length}`) : formatValue(value)),
  },
  scale: {
    label: 'Scale',
    format: (value) => {
      const scale = value as { px_distance?: unknown; true_distance?: unknown; unit?: unknown } | null;
      if (!scale) return 'None (pixels)';
      if (typeof scale.px_distance !== 'number' || typeof scale.true_distance !== 'number') return formatValue(value);
      return `${formatNumber(scale.px_distance)} px = ${formatNumber(scale.true_distance)} ${String(scale.unit)}`;
    },
  },
  reference: {
    label: 'Reference',
    format: (value) => {
      const reference = value as { video_uuid?: unknown; frames?: unknown } | null;
      if (!reference) return 'Frames spread over the video';
      if (typeof reference.video_uuid === 'string') return `Empty-arena video ${shortId(reference.video_uuid)}`;
      if (Array.isArray(reference.frames)) return `Frames ${reference.frames.join(', ')}`;
      return formatValue(value);
    },
  },
  [REFERENCE_FIELD.name]: { label: REFERENCE_FIELD.label },
  [BIN_FIELD.name]: {
    label: BIN_FIELD.label,
    format: (value) => (typeof value === 'number' ? seconds(value) : value == null ? 'No bins' : formatValue(value)),
  },
  [JUMP_FIELD.name]: {
    label: JUMP_FIELD.label,
    format: (value) => (value == null ? 'A body length' : formatValue(value)),
  },
  polarity: { label: 'Animal vs arena (body tracker)', format: choice(POLARITIES) },
  ...Object.fromEntries(BODY_FIELDS.map((field) => [field.name, { label: field.label }])),
  method: { label: 'Animal vs arena (ezTrack)', format: choice(METHODS) },
  use_window: { label: 'Use a window' },
  rmv_wire: { label: 'Remove wires' },
  ...Object.fromEntries(EZTRACK_FIELDS.map((field) => [field.name, { label: field.label }])),
};

/** Any stored value as text (for parameters this app does not know yet). */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') return value || '—';
  return JSON.stringify(value);
}

export interface DisplayRow {
  key: string;
  label: string;
  value: string;
}

/**
 * Every parameter of a run (or a protocol), the known ones first in a fixed order, then the others by name. A
 * location-tracking run's are named as the Location Tracker names them (its `bin_s` cuts results, not freezing).
 */
export function parameterRows(parameters: Record<string, unknown>, kind?: AnalysisKind): DisplayRow[] {
  const specs = kind === 'location_tracking' ? LOCATION_PARAMETERS : PARAMETERS;
  const known = Object.keys(specs).filter((key) => key in parameters);
  const others = Object.keys(parameters)
    .filter((key) => !(key in specs))
    .sort();
  return [...known, ...others].map((key) => {
    const spec = specs[key];
    const value = parameters[key];
    return { key, label: spec?.label ?? key, value: spec?.format ? spec.format(value) : formatValue(value) };
  });
}

/** The figures a finished run reports, in words. */
export function summaryRows(summary: AnalysisSummary): DisplayRow[] {
  const freezing = summary.freezing;
  return [
    { key: 'events', label: 'Events', value: String(summary.events) },
    {
      key: 'event_rate_per_min',
      label: 'Event rate',
      value: summary.event_rate_per_min === null ? '—' : `${formatNumber(summary.event_rate_per_min, 2)} per minute`,
    },
    // Null for a location-tracking run, which has no event threshold.
    {
      key: 'threshold',
      label: 'Threshold used',
      value: summary.threshold === null ? '—' : formatNumber(summary.threshold, 2),
    },
    {
      key: 'noise_top',
      label: 'Noise top',
      value: summary.noise_top === null ? '—' : formatNumber(summary.noise_top, 2),
    },
    {
      key: 'samples',
      label: 'Samples',
      value: `${summary.valid_samples} valid of ${summary.samples}`,
    },
    { key: 'duration_s', label: 'Series length', value: formatDuration(summary.duration_s) },
    {
      key: 'freezing',
      label: 'Freezing',
      value: !freezing
        ? 'Not measured'
        : freezing.percent === null
          ? 'No valid frames'
          : `${formatNumber(freezing.percent, 1)} % (${freezing.freezing_frames} of ${freezing.valid_frames} frames${
              freezing.bins.length > 1 ? `, ${freezing.bins.length} bins` : ''
            })`,
    },
    {
      key: 'frames_per_second',
      label: 'Analysis speed',
      value: summary.frames_per_second === null ? '—' : `${Math.round(summary.frames_per_second)} frames/s`,
    },
  ];
}

/** A short, recognisable form of a run id. */
export const shortId = (uuid: string) => uuid.slice(0, 8);

/** The row's accessible name: what ran on which video. */
export const runLabel = (run: Pick<AnalysisRun, 'kind' | 'video_name' | 'subject_name'>) =>
  `${KIND_LABELS[run.kind]} of ${run.video_name} (${run.subject_name})`;
