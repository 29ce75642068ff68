import { describe, expect, it } from 'vitest';
import { calibrateBody } from './calibrate-request';

const form = {
  target: 'events' as const,
  mode: 'k' as const,
  from: '1',
  to: '10',
  step: '0.1',
  refractory: '0.25, 0.5',
  tolerance: '0.2',
  freezeFrom: '',
  freezeTo: '',
  freezeStep: '',
  minimums: '0.5, 1, 2',
  bin: '60',
};
const track = { kind: 'track' as const, trackUuid: 't1' };

describe('the Calibrate panel’s request', () => {
  it('sweeps k or absolute thresholds with the refractory periods typed', () => {
    expect(calibrateBody(form, track)).toEqual({
      body: {
        reference: { kind: 'track', annotation_config_uuid: 't1' },
        target: 'events',
        k: { from: 1, to: 10, step: 0.1 },
        refractory_s: [0.25, 0.5],
        tolerance_s: 0.2,
      },
    });
    const absolute = calibrateBody({ ...form, mode: 'threshold', from: '0', to: '500', step: '25' }, track);
    expect(absolute).toMatchObject({ body: { threshold: { from: 0, to: 500, step: 25 } } });
  });

  it('leaves the freeze thresholds to the server when none are typed', () => {
    expect(calibrateBody({ ...form, target: 'freezing' }, track)).toEqual({
      body: {
        reference: { kind: 'track', annotation_config_uuid: 't1' },
        target: 'freezing',
        min_freeze_s: [0.5, 1, 2],
        bin_s: 60,
      },
    });
    const typed = calibrateBody(
      { ...form, target: 'freezing', freezeFrom: '0', freezeTo: '20', freezeStep: '5' },
      track,
    );
    expect(typed).toMatchObject({ body: { freeze_threshold: { from: 0, to: 20, step: 5 } } });
  });

  it('says which field cannot be sent', () => {
    expect(calibrateBody({ ...form, refractory: 'half', step: '' }, { kind: 'track' })).toEqual({
      errors: {
        reference: ['Choose the reference scoring.'],
        step: ['A number.'],
        refractory_s: ['Numbers separated by commas.'],
      },
    });
  });
});
