import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { IntervalFigures } from '../api';
import { IntervalFiguresView } from './agreement-figures';

const intervals = (binsUsed: number, caveat: string | null): IntervalFigures => ({
  slice_s: 1 / 30,
  slices: 150,
  duration_s: 5,
  table: { both: 24, reference_only: 15, candidate_only: 0, neither: 111 },
  percent_agreement: 90,
  kappa: 0.7,
  reference_prevalence: 0.26,
  candidate_prevalence: 0.16,
  bin_s: 2.5,
  bins: Array.from({ length: binsUsed }, (_, k) => ({
    start_s: k * 2.5,
    end_s: (k + 1) * 2.5,
    reference_percent: 10 * k,
    candidate_percent: 8 * k,
  })),
  pearson_r: 1,
  slope: 0.8,
  bins_used: binsUsed,
  min_bins: 5,
  fit_caveat: caveat,
  disagreements: [],
});

describe('interval figures', () => {
  it('greys r and the slope and says why when the server finds too few bins', () => {
    const caveat = 'Only 2 bins of data: r and the slope need at least 5 to mean anything. Choose a shorter bin.';
    render(<IntervalFiguresView intervals={intervals(2, caveat)} />);
    for (const id of ['figure-r', 'figure-slope']) {
      const figure = screen.getByTestId(id);
      expect(figure.dataset.caveat).toBe('true');
      expect(figure.className).toContain('opacity-50');
      expect(figure.title).toBe(caveat);
    }
    expect(screen.getByTestId('figure-r').textContent).toContain('1');
    expect(screen.getByTestId('fit-caveat').textContent).toBe(caveat);
    // κ is about slices, not bins: it stays a plain figure.
    expect(screen.getByTestId('figure-kappa').dataset.caveat).toBeUndefined();
  });

  it('shows r and the slope plainly with enough bins', () => {
    render(<IntervalFiguresView intervals={intervals(5, null)} />);
    expect(screen.getByTestId('figure-r').dataset.caveat).toBeUndefined();
    expect(screen.getByTestId('figure-slope').className).not.toContain('opacity-50');
    expect(screen.queryByTestId('fit-caveat')).toBeNull();
  });
});
