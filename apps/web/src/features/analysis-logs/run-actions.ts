/** What a run of the log allows: re-runs (the body to POST) and the pages that open it. Pure, so unit-tested. */
import type { AnalysisRun, CreateAnalysisBody } from '@/features/analysis/api';
import { readsPoseSeries } from '@/features/analysis/series-names';

type RunFields = Pick<AnalysisRun, 'analysis_uuid' | 'kind' | 'status' | 'parameters' | 'source_analysis_uuid'>;

/**
 * The run whose series an event detection of `run` reads: an event detection's own source (it shares that
 * series), or a succeeded time series import or pose-derived series itself (ADR 032: events are detected on it).
 * Null for movement detection (its parameters are edited in the Movement Detector) and for a run without a series.
 */
export function eventDetectionSource(run: RunFields): string | null {
  if (run.kind === 'event_detection') return run.source_analysis_uuid;
  if (run.kind === 'timeseries_import' || run.kind === 'pose_series') {
    return run.status === 'succeeded' ? run.analysis_uuid : null;
  }
  return null;
}

/**
 * The body that repeats `run` with the same parameters. An import cannot be repeated without its file, so it
 * gets an event detection with the same parameters on its series. Null when nothing can be repeated.
 */
export function sameParametersBody(run: RunFields): CreateAnalysisBody | null {
  if (run.kind === 'movement_detection' || run.kind === 'location_tracking' || run.kind === 'pose_series') {
    return { kind: run.kind, parameters: run.parameters };
  }
  const source = eventDetectionSource(run);
  return source ? { kind: 'event_detection', source_analysis_uuid: source, parameters: run.parameters } : null;
}

export interface EventParameters {
  event_threshold_k: number;
  event_threshold: number | null;
  refractory_s: number;
}

/** The server's defaults (ADR 006), for runs that somehow lack a value. */
export const EVENT_DEFAULTS: EventParameters = { event_threshold_k: 3, event_threshold: null, refractory_s: 0.5 };

/** The event-detection settings a run used, as the edit dialog starts from. */
export function eventParametersOf(parameters: Record<string, unknown>): EventParameters {
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  return {
    event_threshold_k: number(parameters.event_threshold_k) ?? EVENT_DEFAULTS.event_threshold_k,
    event_threshold: number(parameters.event_threshold),
    refractory_s: number(parameters.refractory_s) ?? EVENT_DEFAULTS.refractory_s,
  };
}

/** The freezing settings an event-detection run carries (ADR 010), to keep in an edited re-run; {} when none. */
export function freezingParametersOf(parameters: Record<string, unknown>): Record<string, number> {
  const kept: Record<string, number> = {};
  if (typeof parameters.freeze_threshold !== 'number') return kept;
  for (const key of ['freeze_threshold', 'min_freeze_s', 'bin_s']) {
    const value = parameters[key];
    if (typeof value === 'number' && Number.isFinite(value)) kept[key] = value;
  }
  return kept;
}

type RunPlace = Pick<AnalysisRun, 'project_uuid' | 'subject_uuid' | 'video_uuid' | 'analysis_uuid'>;

const runQuery = (run: RunPlace, analysisUuid = run.analysis_uuid) =>
  new URLSearchParams({ subject: run.subject_uuid, video: run.video_uuid, run: analysisUuid });

/** The Movement Detector showing a run (`edit`: with its parameters loaded for an edited re-run). */
export function movementDetectorUrl(run: RunPlace, options: { edit?: boolean; analysisUuid?: string } = {}): string {
  const query = runQuery(run, options.analysisUuid);
  if (options.edit) query.set('edit', '1');
  return `/projects/${run.project_uuid}/movement-detector?${query}`;
}

/**
 * The page that shows a run and edits its settings: the Location Tracker for location tracking (it has no events,
 * so neither Quick Score nor Agreement opens it), the Pose page for a pose-derived series and the event detections
 * on one (their answer's `source_series` says so, ADR 037), the Movement Detector for the rest.
 */
export function resultUrl(
  run: RunPlace & Pick<AnalysisRun, 'kind'> & Partial<Pick<AnalysisRun, 'source_series'>>,
  options: { edit?: boolean; analysisUuid?: string } = {},
): string {
  const page =
    run.kind === 'location_tracking'
      ? 'location-tracker'
      : readsPoseSeries({ kind: run.kind, source_series: run.source_series ?? null })
        ? 'pose'
        : null;
  if (!page) return movementDetectorUrl(run, options);
  const query = runQuery(run, options.analysisUuid);
  if (options.edit) query.set('edit', '1');
  return `/projects/${run.project_uuid}/${page}?${query}`;
}

export function quickScoreUrl(run: RunPlace): string {
  return `/projects/${run.project_uuid}/quick-score?${runQuery(run)}`;
}
