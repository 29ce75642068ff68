import { describe, expect, it } from 'vitest';
import type { AnalysisRun } from './api';
import {
  countsChangedPixels,
  posePartsOf,
  posePartsText,
  readsPoseSeries,
  seriesLabel,
  seriesName,
} from './series-names';

type Named = Pick<AnalysisRun, 'kind' | 'parameters' | 'summary' | 'source_series'>;
const run = (patch: Partial<Named>): Named => ({
  kind: 'movement_detection',
  parameters: {},
  summary: null,
  source_series: null,
  ...patch,
});
const onSeries = (source: NonNullable<AnalysisRun['source_series']>) =>
  run({ kind: 'event_detection', source_series: source });

describe('naming a run’s series (one function for every page)', () => {
  it('names a pose series by its measure and parts; parts of different individuals say whose', () => {
    expect(seriesName({ measure: 'speed', individual: 'single', parts: ['nose'] })).toBe('Speed of nose');
    expect(seriesName({ measure: 'distance', individual: 'mouse2', parts: ['nose', 'tail'] })).toBe(
      'Distance nose–tail (mouse2)',
    );
    const across = {
      measure: 'distance',
      parts: [
        { individual: 'mouse1', part: 'nose' },
        { individual: 'single', part: 'object' },
      ],
    };
    expect(seriesName(across)).toBe('Distance mouse1 · nose–single · object');
    // A bare name belongs to the run's individual, beside a part of another.
    const social = {
      measure: 'distance',
      individual: 'mouse1',
      parts: ['nose', { individual: 'mouse2', part: 'nose' }],
    };
    expect(posePartsOf(social)).toEqual([
      { individual: 'mouse1', part: 'nose' },
      { individual: 'mouse2', part: 'nose' },
    ]);
    expect(seriesName(social)).toBe('Distance mouse1 · nose–mouse2 · nose');
    // The parts in words, as the result's facts list them.
    expect(posePartsText(posePartsOf(social))).toBe('mouse1 · nose, mouse2 · nose');
    expect(posePartsText(posePartsOf({ individual: 'mouse2', parts: ['nose', 'tail'] }))).toBe('nose, tail (mouse2)');
    expect(posePartsText(posePartsOf({ individual: 'single', parts: ['nose'] }))).toBe('nose');
    expect(
      seriesName({
        measure: 'angle',
        parts: [
          { individual: 'mouse1', part: 'nose' },
          { individual: 'single', part: 'object' },
          { individual: 'mouse2', part: 'nose' },
        ],
      }),
    ).toBe('Angle at single · object (mouse1 · nose–single · object–mouse2 · nose)');
  });

  it('labels every kind’s series, and an event detection’s by the series its answer says it reads', () => {
    expect(seriesLabel(run({ kind: 'movement_detection' }))).toBe('changed pixels');
    expect(seriesLabel(run({ kind: 'timeseries_import' }))).toBe('value');
    expect(
      seriesLabel(
        run({
          kind: 'pose_series',
          parameters: { measure: 'speed', individual: 'single', parts: ['nose'], scale: { unit: 'cm' } },
        }),
      ),
    ).toBe('Speed of nose (cm/s)');
    const onPose = onSeries({
      analysis_uuid: 's',
      kind: 'pose_series',
      pose: {
        measure: 'distance',
        parts: [
          { individual: 'mouse1', part: 'nose' },
          { individual: 'single', part: 'object' },
        ],
        unit: 'cm',
      },
    });
    expect(seriesLabel(onPose)).toBe('Distance mouse1 · nose–single · object (cm)');
    expect(countsChangedPixels(onPose)).toBe(false);
    expect(readsPoseSeries(onPose)).toBe(true);
    const onMovement = onSeries({ analysis_uuid: 's', kind: 'movement_detection', pose: null });
    expect(seriesLabel(onMovement)).toBe('changed pixels');
    expect(countsChangedPixels(onMovement)).toBe(true);
    expect(readsPoseSeries(onMovement)).toBe(false);
    expect(seriesLabel(onSeries({ analysis_uuid: 's', kind: 'timeseries_import', pose: null }))).toBe('value');
    // A detection whose source is gone says no more than "value".
    expect(seriesLabel(run({ kind: 'event_detection' }))).toBe('value');
    expect(countsChangedPixels(run({ kind: 'event_detection' }))).toBe(false);
  });
});
