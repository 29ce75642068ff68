import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AnalysisRun } from '@/features/analysis/api';
import { mockFetch } from '@/test/http';
import { LocationFigures } from './location-figures';

const ref = { projectUuid: 'p1', subjectUuid: 's1', videoUuid: 'v1' };
const figureUrl = '/api/projects/p1/subjects/s1/videos/v1/analysis/a1/figure/';

function renderFigures() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <LocationFigures videoRef={ref} run={{ analysis_uuid: 'a1' } as AnalysisRun} />
    </QueryClientProvider>,
  );
}

describe('location figures', () => {
  it('shows each figure from its SVG and downloads it as PNG or SVG under the server’s name', async () => {
    const { calls } = mockFetch({
      [`GET ${figureUrl}`]: (url) => {
        const query = new URL(url, 'http://x').searchParams;
        return new Response(`<svg xmlns="http://www.w3.org/2000/svg" id="${query.get('name')}"/>`, {
          headers: {
            'content-type': query.get('format') === 'png' ? 'image/png' : 'image/svg+xml',
            'content-disposition': `attachment; filename="M1_box_location-2026-11-27_${query.get('name')}.${query.get('format')}"`,
          },
        });
      },
    });
    const made: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      made.push(blob);
      return `blob:${made.length}`;
    });
    URL.revokeObjectURL = vi.fn();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    renderFigures();
    const track = screen.getByRole('figure', { name: 'Track figure' });
    const heat = screen.getByRole('figure', { name: 'Heat map figure' });
    await waitFor(() => expect(within(track).getByRole('img').getAttribute('src')).toMatch(/^blob:/));
    await waitFor(() => expect(within(heat).getByRole('img').getAttribute('src')).toMatch(/^blob:/));
    expect(await Promise.all(made.map((blob) => blob.text()))).toEqual(
      expect.arrayContaining([expect.stringContaining('id="track"'), expect.stringContaining('id="heatmap"')]),
    );

    await userEvent.click(within(track).getByRole('button', { name: 'Download PNG' }));
    await userEvent.click(within(heat).getByRole('button', { name: 'Download SVG' }));
    await waitFor(() => expect(clicked).toHaveLength(2));
    expect(clicked).toEqual(['M1_box_location-2026-11-27_track.png', 'M1_box_location-2026-11-27_heatmap.svg']);
    const queries = calls.map((call) => new URL(call.url, 'http://x').search);
    expect(queries).toEqual(
      expect.arrayContaining(['?name=track&format=png', '?name=heatmap&format=svg', '?name=track&format=svg']),
    );
  });

  it('says so when a figure cannot be drawn', async () => {
    mockFetch({});
    renderFigures();
    await waitFor(() => expect(screen.getAllByText(/could not be drawn/)).toHaveLength(2));
  });
});
