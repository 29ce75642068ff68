import { describe, expect, it } from 'vitest';
import { seriesName, seriesUnit } from '@/features/analysis/series-names';
import type { PoseSet } from './api';
import {
  choiceKey,
  choiceOf,
  formErrors,
  formFor,
  formFromRun,
  partOptions,
  partsOf,
  seriesParameters,
} from './derived-series';

const pair = {
  pose_uuid: 'set-1',
  name: 'pair',
  format: 'dlc_csv',
  individuals: ['mouse1', 'mouse2', 'single'],
  bodyparts: ['nose', 'neck', 'tail', 'object'],
  keypoints: [
    { individual: 'mouse1', bodypart: 'nose' },
    { individual: 'mouse1', bodypart: 'neck' },
    { individual: 'mouse1', bodypart: 'tail' },
    { individual: 'mouse2', bodypart: 'nose' },
    { individual: 'single', bodypart: 'object' },
  ],
  edges: [],
  frame_count: 100,
  has_likelihood: true,
  frame_offset: 0,
  file_name: 'pair.csv',
  created_at: '2026-11-28T00:00:00Z',
} satisfies PoseSet;

describe('the derived-series builder', () => {
  const m1 = (part: string) => ({ individual: 'mouse1', part });

  it('offers every keypoint as "individual · part" when the set has several individuals, the unique parts too', () => {
    expect(partsOf(pair, 'mouse1')).toEqual(['nose', 'neck', 'tail']);
    expect(partsOf(pair, 'single')).toEqual(['object']);
    expect(partOptions(pair).map((option) => option.label)).toEqual([
      'mouse1 · nose',
      'mouse1 · neck',
      'mouse1 · tail',
      'mouse2 · nose',
      'single · object',
    ]);
    // An option's value gives the choice back, whatever the names hold.
    const odd = { individual: 'a "b"', part: 'c,d' };
    expect(choiceOf(choiceKey(odd))).toEqual(odd);
    // One individual: the part names alone.
    const lone = { ...pair, individuals: ['single'], keypoints: [{ individual: 'single', bodypart: 'nose' }] };
    expect(partOptions(lone)).toEqual([{ value: choiceKey({ individual: 'single', part: 'nose' }), label: 'nose' }]);
    expect(formFor(pair)).toMatchObject({ parts: [m1('nose'), m1('neck'), m1('tail')], cutoff: '0.6' });
  });

  it('sends parts of one individual as names, parts of several as {individual, part}', () => {
    const across = {
      ...formFor(pair, 'distance'),
      parts: [m1('nose'), { individual: 'single', part: 'object' }],
    };
    expect(seriesParameters(across, pair)).toMatchObject({
      ok: true,
      parameters: { parts: [m1('nose'), { individual: 'single', part: 'object' }] },
    });
    const read = seriesParameters(across, pair);
    expect(read.ok && 'individual' in read.parameters).toBe(false);
    // Two mice's noses: the same part name of two individuals is two parts.
    expect(
      seriesParameters({ ...across, parts: [m1('nose'), { individual: 'mouse2', part: 'nose' }] }, pair),
    ).toMatchObject({ ok: true, parameters: { parts: [m1('nose'), { individual: 'mouse2', part: 'nose' }] } });
  });

  it('sends the measure’s parts, the individual of a set that has several, and a scale only when given', () => {
    const form = { ...formFor(pair, 'distance'), parts: [m1('nose'), m1('tail'), m1('neck')] };
    expect(seriesParameters(form, pair)).toEqual({
      ok: true,
      parameters: {
        pose_uuid: 'set-1',
        measure: 'distance',
        individual: 'mouse1',
        parts: ['nose', 'tail'],
        likelihood_cutoff: 0.6,
        max_gap_frames: 5,
        scale: null,
      },
    });
    const scaled = seriesParameters(
      { ...form, scalePx: '50', scaleTrue: '2', scaleUnit: 'cm' },
      { individuals: ['x'] },
    );
    expect(scaled).toMatchObject({
      ok: true,
      parameters: { scale: { px_distance: 50, true_distance: 2, unit: 'cm' } },
    });
    expect(scaled.ok && 'individual' in scaled.parameters).toBe(false);
    // An angle is in degrees: a scale typed for another measure is not sent.
    const angle = seriesParameters({ ...formFor(pair, 'angle'), scalePx: '50', scaleTrue: '2' }, pair);
    expect(angle.ok && angle.parameters.scale).toBe(null);
  });

  it('names the fields to fix before asking the server', () => {
    const form = formFor(pair, 'distance');
    expect(seriesParameters({ ...form, parts: [m1('nose'), m1('nose')] }, pair)).toEqual({
      ok: false,
      errors: { parts: ['Choose different body parts.'] },
    });
    const bad = seriesParameters({ ...form, cutoff: '1.5', maxGap: '2.5', scalePx: '10', scaleTrue: '' }, pair);
    expect(bad.ok ? null : Object.keys(bad.errors)).toEqual(['likelihood_cutoff', 'max_gap_frames', 'scale']);
    expect(seriesParameters({ ...form, parts: [m1('nose'), { individual: '', part: '' }] }, pair)).toEqual({
      ok: false,
      errors: { parts: ['Choose every body part.'] },
    });
    // The individual is chosen with each part: the server's messages on it show with the parts.
    expect(
      formErrors({
        'parameters.parts': ['a'],
        'parameters.scale.unit': ['b'],
        'parameters.scale': ['c'],
        'parameters.individual': ['d'],
      }),
    ).toEqual({
      parts: ['a', 'd'],
      scale: ['b', 'c'],
    });
  });

  it('reads a run back into the form, and names it as people say it', () => {
    const run = {
      parameters: {
        pose_uuid: 'set-1',
        measure: 'angle',
        individual: 'mouse1',
        parts: ['nose', 'neck', 'tail'],
        likelihood_cutoff: 0.8,
        max_gap_frames: 0,
        scale: null,
      },
      summary: null,
    };
    expect(formFromRun(run, pair)).toMatchObject({
      measure: 'angle',
      parts: [m1('nose'), m1('neck'), m1('tail')],
      cutoff: '0.8',
      maxGap: '0',
      scalePx: '',
    });
    // Parts of different individuals come back as they were chosen; a bare name without an individual (a run on a
    // set with one) is taken as the set's first individual's.
    expect(
      formFromRun(
        { parameters: { measure: 'distance', parts: [m1('nose'), { individual: 'single', part: 'object' }] } },
        pair,
      ).parts,
    ).toEqual([m1('nose'), { individual: 'single', part: 'object' }]);
    expect(formFromRun({ parameters: { measure: 'speed', parts: ['nose'] } }, pair).parts).toEqual([m1('nose')]);
    expect(seriesName(run.parameters)).toBe('Angle at neck (nose–neck–tail) (mouse1)');
    expect(seriesName({ measure: 'speed', parts: ['nose'], individual: 'single' })).toBe('Speed of nose');
    expect(seriesUnit(run)).toBe('degrees');
    expect(seriesUnit({ parameters: { measure: 'speed', scale: { unit: 'cm' } }, summary: null })).toBe('cm/s');
  });
});
