import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import {
  defaultParameterValues,
  locationFieldErrors,
  parameterValuesFromRun,
  parseParameterValues,
} from './parameters';

describe('location settings', () => {
  it('default to the body tracker, with ezTrack’s Individual notebook’s values for ezTrack, no bins and jumps past a body length', () => {
    expect(parseParameterValues(defaultParameterValues())).toEqual({
      ok: true,
      parameters: {
        algorithm: 'body_core',
        polarity: 'auto',
        noise_k: 6,
        min_contrast: 12,
        core_fraction: 0.4,
        min_area: 150,
        reach: 1.5,
        method: 'dark',
        use_window: true,
        rmv_wire: true,
        loc_thresh: 99.5,
        window_size: 100,
        window_weight: 0.9,
        wire_krn: 5,
        reference_frames: 50,
        bin_s: null,
        jump_px: null,
        reference: null,
      },
    });
  });

  it('take the reference from frames spread over the video, an empty-arena video, or listed frames', () => {
    const values = defaultParameterValues();
    values.reference = { source: 'video', videoUuid: '', frames: '' };
    expect(parseParameterValues(values)).toEqual({
      ok: false,
      errors: { reference: ['Choose the empty-arena video.'] },
    });
    values.reference.videoUuid = 'a-video';
    expect(parseParameterValues(values)).toMatchObject({
      ok: true,
      parameters: { reference: { video_uuid: 'a-video' } },
    });
    values.reference = { source: 'frames', videoUuid: 'a-video', frames: '0, 120 240;360' };
    expect(parseParameterValues(values)).toMatchObject({
      ok: true,
      parameters: { reference: { frames: [0, 120, 240, 360] } },
    });
    values.reference.frames = '0, 1.5';
    expect(parseParameterValues(values)).toMatchObject({
      ok: false,
      errors: { reference: [expect.stringMatching(/whole numbers/)] },
    });
    values.reference.frames = ' ';
    expect(parseParameterValues(values)).toMatchObject({
      ok: false,
      errors: { reference: [expect.stringMatching(/at least one/)] },
    });
    // A run's stored choice comes back into the controls.
    expect(parameterValuesFromRun({ reference: { frames: [3, 9] } }).reference).toEqual({
      source: 'frames',
      videoUuid: '',
      frames: '3, 9',
    });
    expect(parameterValuesFromRun({ reference: { video_uuid: 'v' } }).reference).toEqual({
      source: 'video',
      videoUuid: 'v',
      frames: '',
    });
    expect(parameterValuesFromRun({ reference: null }).reference.source).toBe('spread');
  });

  it('name each field that is not a number, an empty bin length being “no bins”', () => {
    const values = defaultParameterValues();
    values.numbers.loc_thresh = '9x';
    values.numbers.window_size = ' ';
    expect(parseParameterValues(values)).toEqual({
      ok: false,
      errors: { loc_thresh: ['Enter a number.'], window_size: ['Enter a number.'] },
    });
  });

  it('come back from a run’s parameters, odd values falling back to the default', () => {
    const values = parameterValuesFromRun({
      algorithm: 'eztrack',
      method: 'abs',
      polarity: 'light',
      use_window: false,
      rmv_wire: 'yes',
      loc_thresh: 97,
      bin_s: 60,
      window_size: '12',
    });
    expect(values.algorithm).toBe('eztrack');
    expect(parameterValuesFromRun({ algorithm: 'nope' }).algorithm).toBe('body_core');
    expect(values.method).toBe('abs');
    expect(values.polarity).toBe('light');
    expect(values.use_window).toBe(false);
    expect(values.rmv_wire).toBe(true);
    expect(values.numbers).toMatchObject({ loc_thresh: '97', bin_s: '60', window_size: '100' });
  });

  it('group the server’s errors by the control that shows them', () => {
    const error = new ApiError(
      400,
      {
        errors: {
          'parameters.zones.1.name': ['Already used.'],
          'parameters.zones.0.points.2': ['Outside the picture.'],
          'parameters.window_size': ['Must be at most 320.'],
          start_s: ['Bad.'],
        },
      },
      'POST',
      '/x',
    );
    expect(locationFieldErrors(error)).toEqual({
      zones: ['1.name: Already used.', '0.points.2: Outside the picture.'],
      window_size: ['Must be at most 320.'],
      start_s: ['Bad.'],
    });
    expect(locationFieldErrors(new Error('offline'))).toEqual({});
  });

  it('take the positions from a pose body part: the source, the bins and jumps, and none of the tracker’s settings', () => {
    const values = defaultParameterValues();
    values.position = 'pose';
    expect(parseParameterValues(values)).toEqual({
      ok: false,
      errors: { source: ['Choose the pose set.', 'Choose the body part.'] },
    });
    values.pose = { poseUuid: 'set-1', individual: '', part: 'nose', cutoff: '0.8', maxGap: '3' };
    values.numbers.bin_s = '60';
    const parsed = parseParameterValues(values);
    expect(parsed).toEqual({
      ok: true,
      parameters: {
        bin_s: 60,
        jump_px: null,
        source: { pose_uuid: 'set-1', part: 'nose', likelihood_cutoff: 0.8, max_gap_frames: 3 },
      },
    });
    // A run's source comes back into the controls.
    const back = parameterValuesFromRun({
      source: { pose_uuid: 'set-1', individual: 'mouse2', part: 'nose', likelihood_cutoff: 0.5, max_gap_frames: 0 },
      zones: [],
    });
    expect(back.position).toBe('pose');
    expect(back.pose).toEqual({ poseUuid: 'set-1', individual: 'mouse2', part: 'nose', cutoff: '0.5', maxGap: '0' });
    expect(parameterValuesFromRun({ algorithm: 'eztrack' }).position).toBe('tracker');
  });
});
