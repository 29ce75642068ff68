import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PlayerController } from '@/components/player/player-controller';
import type { AnalysisRun } from '@/features/analysis/api';
import { mockFetch } from '@/test/http';
import { LocationResult } from './location-result';

// The shared chart draws on a canvas jsdom has not: a stand-in shows the series it is given.
vi.mock('@/components/chart/series-chart', () => ({
  SeriesChart: ({ series, label }: { series: { values: Float64Array }; label: string }) => (
    <output data-testid="chart" aria-label={label}>
      {Array.from(series.values).join(',')}
    </output>
  ),
}));

const ref = { projectUuid: 'p1', subjectUuid: 's1', videoUuid: 'v1' };
const base = `/api/projects/p1/subjects/s1/videos/v1/analysis/a1`;
const zone = (name: string, time_s: number, percent: number | null, entries: number, latency_s: number | null) => ({
  name,
  time_s,
  percent,
  entries,
  latency_s,
  distance_px: 10,
});

function run(): AnalysisRun {
  return {
    analysis_uuid: 'a1',
    kind: 'location_tracking',
    status: 'succeeded',
    parameters: { scale: { px_distance: 100, true_distance: 50, unit: 'cm' } },
    summary: {
      location: {
        frames: 5,
        frames_tracked: 4,
        tracked_s: 0.4,
        distance_px: 15,
        distance: 7.5,
        unit: 'cm',
        mean_speed: 18.75,
        zones: [zone('Centre', 0.3, 75, 2, 0), zone('Corner', 0, 0, 0, null)],
        notes: ['The animal sat still in most reference frames.'],
        bins: [
          {
            start_s: 0,
            end_s: 0.3,
            frames_tracked: 3,
            distance_px: 5,
            distance: 2.5,
            zones: [zone('Centre', 0.2, 66.7, 1, 0), zone('Corner', 0, 0, 0, null)],
          },
          {
            start_s: 0.3,
            end_s: 0.5,
            frames_tracked: 1,
            distance_px: 10,
            distance: 5,
            zones: [zone('Centre', 0.1, 100, 1, 0.1), zone('Corner', 0, 0, 0, null)],
          },
        ],
      },
    },
  } as unknown as AnalysisRun;
}

function renderResult() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <LocationResult videoRef={ref} run={run()} player={{ fps: 10 } as PlayerController} />
    </QueryClientProvider>,
  );
}

describe('location result', () => {
  it('shows the figures, the zone table, the bins and the distance travelled in the scale’s unit', async () => {
    // The track: x of the 5 frames, then y; frame 2 has no position.
    const x = [0, 3, Number.NaN, 10, 16];
    const y = [0, 4, Number.NaN, 0, 8];
    mockFetch({
      [`GET ${base}/series/`]: () =>
        new Response(new Float64Array([...x, ...y]).buffer, { headers: { 'x-fps': '10' } }),
    });
    renderResult();
    expect(screen.getByTestId('location-notes').textContent).toBe('The animal sat still in most reference frames.');
    const facts = screen.getByTestId('location-summary');
    expect(facts.textContent).toContain('4 of 5');
    expect(facts.textContent).toContain('7.5 cm');
    expect(facts.textContent).toContain('18.75 cm/s');

    const rows = within(screen.getByRole('table', { name: 'Zones' }))
      .getAllByRole('row')
      .slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Centre', '0.3', '75', '2', '0', '5'],
      ['Corner', '0', '0', '0', 'never', '5'],
    ]);
    expect(
      screen.getAllByTestId('bin-row').map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['0:00:00.000–0:00:00.300', '3', '2.5', '0.2 · 1', '0 · 0'],
      ['0:00:00.300–0:00:00.500', '1', '5', '0.1 · 1', '0 · 0'],
    ]);
    // Steps 5 and 10 px (the lost frame breaks the steps beside it), at 0.5 cm per px.
    await waitFor(() => expect(screen.getByTestId('chart').textContent).toBe('0,2.5,2.5,2.5,7.5'));
    expect(screen.getByTestId('chart').getAttribute('aria-label')).toBe('distance (cm)');
  });

  it('downloads the series as CSV and XLSX through the export endpoint', async () => {
    const { calls } = mockFetch({
      [`GET ${base}/series/`]: () => new Response(new Float64Array(0).buffer),
      [`GET ${base}/export/`]: () => new Response('frame\n', { headers: { 'content-type': 'text/csv' } }),
    });
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    renderResult();
    await userEvent.click(screen.getByRole('button', { name: 'Series CSV' }));
    await userEvent.click(screen.getByRole('button', { name: 'Series XLSX' }));
    const exports = calls
      .filter((call) => call.url.includes('/export/'))
      .map((call) => new URL(call.url, 'http://x').search);
    expect(exports).toEqual(['?table=series&format=csv', '?table=series&format=xlsx']);
  });
});
