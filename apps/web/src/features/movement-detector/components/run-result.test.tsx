import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { AnalysisRun } from '@/features/analysis/api';
import { mockFetch } from '@/test/http';

// jsdom has neither a 2D canvas nor Path2D, and uPlot reads matchMedia when it loads: minimal stand-ins for the
// browser's APIs, installed before the shared chart is imported (as its own test does).
vi.hoisted(() => {
  HTMLCanvasElement.prototype.getContext = function getContext(this: HTMLCanvasElement) {
    const state: Record<string | symbol, unknown> = { canvas: this };
    return new Proxy(state, {
      get: (target, prop) =>
        prop in target
          ? target[prop]
          : prop === 'measureText'
            ? (text: string) => ({ width: text.length * 6, actualBoundingBoxAscent: 8, actualBoundingBoxDescent: 2 })
            : () => {},
      set: (target, prop, value) => {
        target[prop] = value;
        return true;
      },
    });
  } as unknown as HTMLCanvasElement['getContext'];
  (globalThis as { Path2D?: unknown }).Path2D = class {
    moveTo() {}
    lineTo() {}
    rect() {}
    arc() {}
    closePath() {}
    addPath() {}
  };
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
  })) as unknown as typeof window.matchMedia;
});

const { RunResult } = await import('./run-result');
const { PlayerController } = await import('@/components/player/player-controller');

const ref = { projectUuid: 'p1', subjectUuid: 's1', videoUuid: 'v1' };
const videoBase = '/api/projects/p1/subjects/s1/videos/v1/analysis/';

/** A finished event detection whose series (a flat line at its noise top) is `source_series`'s. */
function detection(source: AnalysisRun['source_series']): AnalysisRun {
  return {
    analysis_uuid: 'd1',
    project_uuid: 'p1',
    subject_uuid: 's1',
    video_uuid: 'v1',
    kind: 'event_detection',
    status: 'succeeded',
    parameters: { event_threshold_k: 3, event_threshold: null, refractory_s: 0.5 },
    source_analysis_uuid: source?.analysis_uuid ?? null,
    source_series: source,
    summary: {
      samples: 4,
      valid_samples: 4,
      duration_s: 0.4,
      events: 0,
      event_rate_per_min: 0,
      threshold: 6,
      noise_top: 2,
      freezing: null,
      frames_per_second: null,
    },
    event_counts: null,
    created_at: '2026-11-28T00:00:00Z',
  } as unknown as AnalysisRun;
}

function renderResult(run: AnalysisRun) {
  mockFetch({
    [`GET ${videoBase}d1/series/`]: () =>
      new Response(new Float64Array([2, 2, 2, 2]).buffer, { headers: { 'x-fps': '10' } }),
    [`GET ${videoBase}retrieve-events/`]: () =>
      new Response(JSON.stringify({ analysis_uuid: 'd1', version: 1, events: [] }), {
        headers: { 'content-type': 'application/json' },
      }),
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const player = new PlayerController({ fps: 10, frameCount: 4, duration: 0.4 });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <RunResult videoRef={ref} run={run} compareRun={null} player={player} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('a detection’s result names the series it read', () => {
  it('a detection on a pose series: its measure, parts and unit — never "changed pixels"', async () => {
    renderResult(
      detection({
        analysis_uuid: 's1',
        kind: 'pose_series',
        pose: {
          measure: 'distance',
          parts: [
            { individual: 'mouse1', part: 'nose' },
            { individual: 'single', part: 'object' },
          ],
          unit: 'cm',
        },
      }),
    );
    const chart = await screen.findByTestId('series-chart');
    expect(chart.textContent).toContain('Distance mouse1 · nose–single · object (cm)');
    expect(chart.getAttribute('aria-label')).toContain('Distance mouse1 · nose–single · object (cm)');
    expect(document.body.textContent).not.toContain('changed pixels');
    // A flat series at its noise top says nothing about pixels when it is not a movement run's.
    expect(screen.queryByTestId('still-note')).toBeNull();
  });

  it('a detection on a movement run: changed pixels, and the note on a still video', async () => {
    renderResult(detection({ analysis_uuid: 'm1', kind: 'movement_detection', pose: null }));
    const chart = await screen.findByTestId('series-chart');
    expect(chart.textContent).toContain('changed pixels');
    await waitFor(() => expect(screen.getByTestId('still-note')).toBeTruthy());
  });

  it('a detection on an imported series: a value', async () => {
    renderResult(detection({ analysis_uuid: 'i1', kind: 'timeseries_import', pose: null }));
    const chart = await screen.findByTestId('series-chart');
    expect(chart.textContent).toContain('value');
    expect(document.body.textContent).not.toContain('changed pixels');
  });
});
