import { describe, expect, it } from 'vitest';
import { type FillForm, fillBody, ruleName } from './fill-rule';

const form: FillForm = {
  source: 'run-1',
  comparison: 'lt',
  threshold: '20',
  minDuration: '0.5',
  mergeGap: '',
  target: 'new',
  name: 'Nose at object',
  mode: 'replace',
};

describe('the fill-from-series form', () => {
  it('sends a new track by name, an existing one with its version and what to do with its bouts', () => {
    expect(fillBody(form, undefined)).toEqual({
      ok: true,
      body: {
        source_analysis_uuid: 'run-1',
        comparison: 'lt',
        threshold: 20,
        min_duration_s: 0.5,
        merge_gap_s: 0,
        name: 'Nose at object',
      },
    });
    expect(fillBody({ ...form, target: 'track-9', mode: 'merge' }, 4)).toEqual({
      ok: true,
      body: {
        source_analysis_uuid: 'run-1',
        comparison: 'lt',
        threshold: 20,
        min_duration_s: 0.5,
        merge_gap_s: 0,
        annotation_config_uuid: 'track-9',
        version: 4,
        mode: 'merge',
      },
    });
  });

  it('names what to fix', () => {
    const bad = fillBody({ ...form, source: '', threshold: 'x', minDuration: '-1', name: ' ' }, undefined);
    expect(bad.ok ? null : Object.keys(bad.errors)).toEqual([
      'source_analysis_uuid',
      'threshold',
      'min_duration_s',
      'name',
    ]);
    const loading = fillBody({ ...form, target: 'track-9' }, undefined);
    expect(loading.ok ? null : Object.keys(loading.errors)).toEqual(['annotation_config_uuid']);
  });

  it('names a track by its rule', () => {
    expect(ruleName('Distance nose–object', 'le', '2', 'cm')).toBe('Distance nose–object ≤ 2 cm');
  });
});
