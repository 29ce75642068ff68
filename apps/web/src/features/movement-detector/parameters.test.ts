import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { defaultParameterValues, parameterValuesFromRun, parseParameterValues, serverFieldErrors } from './parameters';

describe('movement parameters', () => {
  it('default to the server’s defaults, optional ones empty', () => {
    expect(defaultParameterValues()).toEqual({
      threshold: '20',
      opening: '0',
      closing: '0',
      small_object_removal: '0',
      event_threshold_k: '3',
      event_threshold: '',
      refractory_s: '0.5',
      freeze_threshold: '',
      min_freeze_s: '1',
      bin_s: '60',
    });
  });

  it('parse to numbers, empty optional fields to null', () => {
    const parsed = parseParameterValues({ ...defaultParameterValues(), threshold: ' 35 ', freeze_threshold: '4.5' });
    expect(parsed).toEqual({
      ok: true,
      parameters: {
        threshold: 35,
        opening: 0,
        closing: 0,
        small_object_removal: 0,
        event_threshold_k: 3,
        event_threshold: null,
        refractory_s: 0.5,
        freeze_threshold: 4.5,
        min_freeze_s: 1,
        bin_s: 60,
      },
    });
  });

  it('ask for a number where a required field is empty or not a number', () => {
    expect(parseParameterValues({ ...defaultParameterValues(), threshold: '', bin_s: 'abc' })).toEqual({
      ok: false,
      errors: { threshold: ['Enter a number.'], bin_s: ['Enter a number.'] },
    });
  });

  it('leave range checks to the server', () => {
    const parsed = parseParameterValues({ ...defaultParameterValues(), threshold: '999' });
    expect(parsed.ok && parsed.parameters.threshold).toBe(999);
  });

  it('come back from a run’s stored parameters, unknown keys ignored', () => {
    const values = parameterValuesFromRun({
      threshold: 12,
      event_threshold: 40,
      freeze_threshold: null,
      rois: [],
      something_else: 5,
    });
    expect(values).toMatchObject({ threshold: '12', event_threshold: '40', freeze_threshold: '', bin_s: '60' });
    expect('something_else' in values).toBe(false);
  });

  it('take the server’s field errors by parameter name', () => {
    const error = new ApiError(
      400,
      {
        errors: {
          'parameters.threshold': ['Must be between 0 and 255.'],
          'parameters.rois': ['ROI 2 lies outside the 320×240 picture.'],
          length_s: ['A preview covers at most 10 s.'],
        },
      },
      'POST',
      '/api/x',
    );
    expect(serverFieldErrors(error)).toEqual({
      threshold: ['Must be between 0 and 255.'],
      rois: ['ROI 2 lies outside the 320×240 picture.'],
      length_s: ['A preview covers at most 10 s.'],
    });
    expect(serverFieldErrors(new ApiError(400, { errors: 'The video is not ready yet.' }, 'POST', '/api/x'))).toEqual(
      {},
    );
    expect(serverFieldErrors(new Error('network'))).toEqual({});
  });
});
