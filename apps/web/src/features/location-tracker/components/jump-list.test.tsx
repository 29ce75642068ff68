import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PlayerController } from '@/components/player/player-controller';
import { json, mockFetch } from '@/test/http';
import { JumpList } from './jump-list';

const ref = { projectUuid: 'p1', subjectUuid: 's1', videoUuid: 'v1' };
const url = '/api/projects/p1/subjects/s1/videos/v1/analysis/a1/jumps/';
const jump = (frame: number, distance_px: number) => ({
  frame,
  from_frame: frame - 1,
  time_s: frame / 10,
  distance_px,
});

function renderList(player: PlayerController) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <JumpList videoRef={ref} analysisUuid="a1" threshold={{ threshold_px: 41.6, basis: 'tracker' }} player={player} />
    </QueryClientProvider>,
  );
}

describe('jump list', () => {
  it('lists a page of jumps, pages on, orders longest first, and shows a jump in the player', async () => {
    const { calls } = mockFetch({
      [`GET ${url}`]: (asked) => {
        const query = new URL(asked, 'http://x').searchParams;
        if (query.get('ordering') === '-distance_px')
          return json({ count: 12, next: null, previous: null, results: [jump(80, 300)] });
        const page = Number(query.get('page'));
        const results = page === 1 ? [jump(12, 55.25), jump(40, 120)] : [jump(90, 60)];
        return json({ count: 12, next: null, previous: null, results });
      },
    });
    const player = { fps: 10, pause: vi.fn(), seekFrame: vi.fn(async (frame: number) => frame) };
    renderList(player as unknown as PlayerController);
    expect(screen.getByText(/more than 42 px \(the animal’s body length as the tracker measured it\)/)).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('jump-row')).toHaveLength(2));
    const cells = within(screen.getAllByTestId('jump-row')[0]!)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual(['12', '0:00:01.200', '55.3', '11']);
    expect(new URL(calls[0]!.url, 'http://x').search).toBe('?page=1&page_size=10&ordering=frame');

    await userEvent.click(screen.getByRole('button', { name: 'Show frame 40' }));
    expect(player.pause).toHaveBeenCalled();
    expect(player.seekFrame).toHaveBeenCalledWith(40);
    expect(screen.getAllByTestId('jump-row')[1]!.getAttribute('data-state')).toBe('selected');

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(screen.getAllByTestId('jump-row').map((row) => row.dataset.frame)).toEqual(['90']));

    await userEvent.selectOptions(screen.getByLabelText('Order'), '-distance_px');
    await waitFor(() => expect(screen.getAllByTestId('jump-row').map((row) => row.dataset.frame)).toEqual(['80']));
    expect(new URL(calls.at(-1)!.url, 'http://x').search).toBe('?page=1&page_size=10&ordering=-distance_px');
  });

  it('says so when the run has no jumps', async () => {
    mockFetch({ [`GET ${url}`]: () => json({ count: 0, next: null, previous: null, results: [] }) });
    renderList({ fps: 10 } as PlayerController);
    await waitFor(() => expect(screen.getByText(/No jumps/)).toBeTruthy());
    expect(screen.queryByRole('table', { name: 'Jumps' })).toBeNull();
  });
});
