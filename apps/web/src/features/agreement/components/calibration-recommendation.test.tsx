import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { EventCalibration } from '../api';
import { CalibrationRecommendation } from './calibration-recommendation';

const point = (tp: number) => ({
  event_threshold_k: 3,
  threshold: 30,
  refractory_s: 0.5,
  events: 4,
  tp,
  fp: 4 - tp,
  fn: 2 - tp,
  precision: tp / 4,
  recall: tp / 2,
  f1: tp === 0 ? 0 : (2 * tp) / 6,
  onset_error_mean_s: null,
  mean_abs_error_s: null,
});

const result = (found: boolean): EventCalibration => ({
  target: 'events',
  analysis_uuid: 'run',
  reference: {
    kind: 'upload',
    description: 'Uploaded events',
    analysis_uuid: null,
    annotation_config_uuid: null,
    label: null,
    events: 2,
    ranges: null,
  },
  tolerance_s: 0.2,
  sweep: 'k',
  noise_top: 10,
  points: [point(found ? 2 : 0)],
  best: found ? { index: 0, parameters: { event_threshold_k: 3, event_threshold: null, refractory_s: 0.5 } } : null,
  no_recommendation: found
    ? null
    : 'No setting finds any of the reference’s 2 events within ±0.2 s (F1 0 everywhere), so none is recommended.',
  warnings: [],
  elapsed_ms: 1,
});

describe('calibration recommendation', () => {
  it('offers no Apply for a sweep where nothing is found, and says why', () => {
    render(<CalibrationRecommendation result={result(false)} readOnly={false} applying={false} onApply={vi.fn()} />);
    expect(screen.queryByRole('button', { name: 'Apply' })).toBeNull();
    expect(screen.queryByTestId('calibration-best')).toBeNull();
    expect(screen.getByTestId('calibration-no-recommendation').textContent).toBe(
      'No recommendation. No setting finds any of the reference’s 2 events within ±0.2 s (F1 0 everywhere), so none is recommended.',
    );
  });

  it('applies the best setting that finds events', async () => {
    const onApply = vi.fn();
    render(<CalibrationRecommendation result={result(true)} readOnly={false} applying={false} onApply={onApply} />);
    expect(screen.getByTestId('calibration-best').textContent).toContain('F1 0.667 (TP 2');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onApply).toHaveBeenCalledWith({ event_threshold_k: 3, event_threshold: null, refractory_s: 0.5 });
  });
});
