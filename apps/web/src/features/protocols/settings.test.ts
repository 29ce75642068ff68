import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { readSettings, SHOWN_BY_FORM, settingsOf, settingsServerErrors } from './settings';

const refused = (errors: Record<string, string[]>) =>
  new ApiError(400, { errors }, 'POST', '/api/projects/p/protocols/');

describe('a protocol’s settings in the tools’ forms', () => {
  it('a new movement protocol reads back as the server’s defaults, with no ROI and no bypass', () => {
    const read = readSettings(settingsOf('movement_detection', {}));
    expect(read).toEqual({
      ok: true,
      parameters: {
        threshold: 20,
        opening: 0,
        closing: 0,
        small_object_removal: 0,
        event_threshold_k: 3,
        event_threshold: null,
        refractory_s: 0.5,
        freeze_threshold: null,
        min_freeze_s: 1,
        bin_s: 60,
        bypass_ranges: [],
      },
    });
  });

  it('keeps what the form does not edit (the ROIs) and sends the edited numbers and bypass ranges whole', () => {
    const rois = [{ start_s: 0, x: 10, y: 20, width: 100, height: 80 }];
    const state = settingsOf('movement_detection', { rois, threshold: 35, bypass_ranges: [[1, 2]], extra: 'kept' });
    if (state.kind !== 'movement_detection') throw new Error('kind');
    expect(state.values.threshold).toBe('35');
    expect(state.bypass).toEqual([[1, 2]]);
    const edited = { ...state, values: { ...state.values, threshold: '12' }, bypass: [] };
    const read = readSettings(edited);
    expect(read.ok && read.parameters).toMatchObject({ rois, threshold: 12, bypass_ranges: [], extra: 'kept' });
  });

  it('says which field is not a number before anything is sent', () => {
    const state = settingsOf('movement_detection', {});
    if (state.kind !== 'movement_detection') throw new Error('kind');
    expect(readSettings({ ...state, values: { ...state.values, opening: 'abc' } })).toEqual({
      ok: false,
      errors: { opening: ['Enter a number.'] },
    });
  });

  it('keeps a location protocol’s zones, scale and reference and edits its tracker settings', () => {
    const kept = {
      zones: [
        {
          name: 'Centre',
          points: [
            [0, 0],
            [10, 0],
            [10, 10],
          ],
        },
      ],
      exclusions: [],
      scale: { px_distance: 100, true_distance: 20, unit: 'cm' },
      reference: { frames: [0, 30] },
    };
    const state = settingsOf('location_tracking', { ...kept, algorithm: 'eztrack', loc_thresh: 99 });
    if (state.kind !== 'location_tracking') throw new Error('kind');
    expect(state.values.algorithm).toBe('eztrack');
    const read = readSettings({
      ...state,
      values: { ...state.values, numbers: { ...state.values.numbers, loc_thresh: '98' } },
    });
    expect(read.ok && read.parameters).toMatchObject({ ...kept, algorithm: 'eztrack', loc_thresh: 98 });
  });

  it('keeps an event protocol’s freezing settings and checks k within 1–10 as the re-run dialog does', () => {
    const state = settingsOf('event_detection', {
      event_threshold_k: 4,
      freeze_threshold: 50,
      min_freeze_s: 2,
      bin_s: 30,
    });
    if (state.kind !== 'event_detection') throw new Error('kind');
    expect(state.form).toEqual({ k: '4', threshold: '', refractory: '0.5' });
    expect(readSettings(state)).toEqual({
      ok: true,
      parameters: {
        event_threshold_k: 4,
        event_threshold: null,
        refractory_s: 0.5,
        freeze_threshold: 50,
        min_freeze_s: 2,
        bin_s: 30,
      },
    });
    expect(readSettings({ ...state, form: { ...state.form, k: '11' } })).toEqual({
      ok: false,
      errors: { event_threshold_k: ['Give a number from 1 to 10.'] },
    });
  });

  it('puts a refused save’s messages under the fields the form shows', () => {
    expect(
      settingsServerErrors('movement_detection', refused({ 'parameters.threshold': ['Must be between 0 and 255.'] })),
    ).toEqual({ threshold: ['Must be between 0 and 255.'] });
    expect(
      settingsServerErrors(
        'location_tracking',
        refused({ 'parameters.zones.0.name': ['Too long.'], 'parameters.noise_k': ['Must be between 2 and 50.'] }),
      ),
    ).toEqual({ zones: ['0.name: Too long.'], noise_k: ['Must be between 2 and 50.'] });
    expect(settingsServerErrors('event_detection', refused({ 'parameters.refractory_s': ['Too long.'] }))).toEqual({
      refractory_s: ['Too long.'],
    });
    expect(SHOWN_BY_FORM.location_tracking.has('zones')).toBe(false);
    expect(SHOWN_BY_FORM.movement_detection.has('bypass_ranges')).toBe(true);
  });
});
