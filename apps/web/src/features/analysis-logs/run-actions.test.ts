import { describe, expect, it } from 'vitest';
import {
  EVENT_DEFAULTS,
  eventDetectionSource,
  eventParametersOf,
  freezingParametersOf,
  movementDetectorUrl,
  quickScoreUrl,
  resultUrl,
  sameParametersBody,
} from './run-actions';

const run = (patch: Partial<Parameters<typeof sameParametersBody>[0]> = {}) => ({
  analysis_uuid: 'run-1',
  kind: 'movement_detection' as const,
  status: 'succeeded' as const,
  parameters: { threshold: 25 },
  source_analysis_uuid: null,
  ...patch,
});

describe('re-runs', () => {
  it('repeats a movement detection with its parameters, whatever its status', () => {
    expect(sameParametersBody(run({ status: 'failed' }))).toEqual({
      kind: 'movement_detection',
      parameters: { threshold: 25 },
    });
  });

  it('repeats a location tracking with its zones and settings', () => {
    const location = run({ kind: 'location_tracking', parameters: { zones: [], loc_thresh: 99 } });
    expect(sameParametersBody(location)).toEqual({
      kind: 'location_tracking',
      parameters: { zones: [], loc_thresh: 99 },
    });
    expect(eventDetectionSource(location)).toBeNull();
  });

  it('repeats a pose-derived series with its measure and parts; events are detected on its own series', () => {
    const parameters = { pose_uuid: 'pose-1', measure: 'speed', individual: 'single', parts: ['nose'] };
    const derived = run({ kind: 'pose_series', parameters });
    expect(sameParametersBody(derived)).toEqual({ kind: 'pose_series', parameters });
    expect(eventDetectionSource(derived)).toBe('run-1');
    expect(eventDetectionSource({ ...derived, status: 'running' })).toBeNull();
  });

  it('repeats an event detection on the series it read', () => {
    const events = run({ kind: 'event_detection', source_analysis_uuid: 'run-0', parameters: { refractory_s: 2 } });
    expect(sameParametersBody(events)).toEqual({
      kind: 'event_detection',
      source_analysis_uuid: 'run-0',
      parameters: { refractory_s: 2 },
    });
    expect(eventDetectionSource(events)).toBe('run-0');
  });

  it('turns a succeeded import into an event detection on its own series, and offers nothing for a failed one', () => {
    const imported = run({ kind: 'timeseries_import', parameters: { event_threshold_k: 4 } });
    expect(sameParametersBody(imported)).toEqual({
      kind: 'event_detection',
      source_analysis_uuid: 'run-1',
      parameters: { event_threshold_k: 4 },
    });
    expect(sameParametersBody({ ...imported, status: 'failed' })).toBeNull();
    expect(eventDetectionSource({ ...imported, status: 'failed' })).toBeNull();
  });

  it('edits movement parameters in the Movement Detector, not in the event dialog', () => {
    expect(eventDetectionSource(run())).toBeNull();
  });

  it('starts the event dialog from the run values, filling what is missing with the defaults', () => {
    expect(eventParametersOf({ event_threshold_k: 2, event_threshold: 7.5, refractory_s: 0 })).toEqual({
      event_threshold_k: 2,
      event_threshold: 7.5,
      refractory_s: 0,
    });
    expect(eventParametersOf({ event_threshold_k: 'x' })).toEqual(EVENT_DEFAULTS);
  });
});

describe('links', () => {
  const place = { project_uuid: 'p', subject_uuid: 's', video_uuid: 'v', analysis_uuid: 'r' };

  it('opens a run in the Movement Detector, for viewing or for an edited re-run', () => {
    expect(movementDetectorUrl(place)).toBe('/projects/p/movement-detector?subject=s&video=v&run=r');
    expect(movementDetectorUrl(place, { edit: true })).toBe(
      '/projects/p/movement-detector?subject=s&video=v&run=r&edit=1',
    );
    expect(movementDetectorUrl(place, { analysisUuid: 'src' })).toBe(
      '/projects/p/movement-detector?subject=s&video=v&run=src',
    );
  });

  it('opens a location run in the Location Tracker, any other in the Movement Detector', () => {
    expect(resultUrl({ ...place, kind: 'location_tracking' })).toBe(
      '/projects/p/location-tracker?subject=s&video=v&run=r',
    );
    expect(resultUrl({ ...place, kind: 'location_tracking' }, { edit: true })).toBe(
      '/projects/p/location-tracker?subject=s&video=v&run=r&edit=1',
    );
    expect(resultUrl({ ...place, kind: 'movement_detection' })).toBe(movementDetectorUrl(place));
    expect(resultUrl({ ...place, kind: 'pose_series' }, { edit: true })).toBe(
      '/projects/p/pose?subject=s&video=v&run=r&edit=1',
    );
  });

  it('opens an event detection where its series is shown: a pose series’ on the Pose page (ADR 037)', () => {
    const onPose = {
      ...place,
      kind: 'event_detection' as const,
      source_series: { analysis_uuid: 'src', kind: 'pose_series' as const, pose: null },
    };
    expect(resultUrl(onPose)).toBe('/projects/p/pose?subject=s&video=v&run=r');
    const onMovement = { ...onPose, source_series: { ...onPose.source_series, kind: 'movement_detection' as const } };
    expect(resultUrl(onMovement)).toBe(movementDetectorUrl(place));
    expect(resultUrl({ ...place, kind: 'event_detection', source_series: null })).toBe(movementDetectorUrl(place));
  });

  it('opens a run in Quick Score', () => {
    expect(quickScoreUrl(place)).toBe('/projects/p/quick-score?subject=s&video=v&run=r');
  });
});

describe('freezing kept in an edited re-run', () => {
  it('keeps the freezing settings of a run that asked for a summary, and nothing otherwise', () => {
    expect(freezingParametersOf({ event_threshold_k: 3, freeze_threshold: 12, min_freeze_s: 2, bin_s: 30 })).toEqual({
      freeze_threshold: 12,
      min_freeze_s: 2,
      bin_s: 30,
    });
    expect(freezingParametersOf({ event_threshold_k: 3, freeze_threshold: null, min_freeze_s: 1, bin_s: 60 })).toEqual(
      {},
    );
    expect(freezingParametersOf({ event_threshold_k: 3 })).toEqual({});
  });
});
