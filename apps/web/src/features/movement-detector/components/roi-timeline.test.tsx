import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createTimeStore } from '@/components/player/time-store';
import type { Roi } from '../rois';
import { RoiTimeline } from './roi-timeline';

const rois: Roi[] = [
  { start_s: 0, rect: { x: 0, y: 0, width: 200, height: 240 } },
  { start_s: 2, rect: { x: 10, y: 20, width: 30, height: 40 } },
];

function setup(time = 0) {
  const clock = createTimeStore(time);
  const handlers = { onSeek: vi.fn(), onAdd: vi.fn(), onMove: vi.fn(), onDelete: vi.fn() };
  render(
    <RoiTimeline
      duration={5}
      fps={30}
      picture={{ width: 320, height: 240 }}
      rois={rois}
      bypassRanges={[
        [1, 1.5],
        [3, 4],
      ]}
      clock={clock}
      {...handlers}
    />,
  );
  return { clock, ...handlers };
}

describe('ROI timeline', () => {
  it('places one marker per ROI at its start and shades the bypass ranges', () => {
    setup();
    const markers = screen.getAllByTestId('roi-marker');
    expect(markers.map((m) => m.style.left)).toEqual(['0%', '40%']);
    const spans = screen.getAllByTestId('bypass-span');
    expect(spans.map((s) => s.style.left)).toEqual(['20%', '60%']);
  });

  it('names the ROI in force at the player’s time and follows it', () => {
    const { clock } = setup(0.5);
    expect(screen.getByTestId('active-roi').textContent).toContain('ROI 1 of 2');
    expect(screen.getByTestId('active-roi').textContent).toContain('x 0, y 0, 200 × 240 px');
    act(() => clock.set(2.5));
    expect(screen.getByTestId('active-roi').textContent).toContain('ROI 2 of 2');
    expect(screen.getByTestId('active-roi').textContent).toContain('x 10, y 20, 30 × 40 px');
  });

  it('offers a delete button for every ROI but the first', async () => {
    const { onDelete } = setup();
    expect(screen.queryByRole('button', { name: 'Delete ROI 1' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Delete ROI 2' }));
    expect(onDelete).toHaveBeenCalledWith(1);
  });

  it('adds an ROI with the + button', async () => {
    const { onAdd } = setup();
    await userEvent.click(screen.getByRole('button', { name: 'Add an ROI at the current time' }));
    expect(onAdd).toHaveBeenCalledOnce();
  });

  it('moves a marker a frame with the arrow keys, never the first', () => {
    const { onMove } = setup();
    const second = screen.getByRole('button', { name: /^ROI 2 at 0:00:02\.000/ });
    fireEvent.keyDown(second, { key: 'ArrowRight' });
    fireEvent.keyDown(second, { key: 'ArrowLeft' });
    expect(onMove.mock.calls.map(([index, time]) => [index, Math.floor(time * 30 + 1e-6)])).toEqual([
      [1, 61],
      [1, 59],
    ]);
    fireEvent.keyDown(screen.getByRole('button', { name: 'ROI 1 at 0:00:00.000 (fixed)' }), { key: 'ArrowRight' });
    expect(onMove).toHaveBeenCalledTimes(2);
  });

  it('a click on a marker goes to its start', () => {
    // jsdom has no pointer capture.
    Object.defineProperty(HTMLElement.prototype, 'setPointerCapture', { configurable: true, value: vi.fn() });
    const { onSeek } = setup();
    const second = screen.getByRole('button', { name: /^ROI 2 at 0:00:02\.000/ });
    fireEvent.pointerDown(second, { button: 0, clientX: 10 });
    fireEvent.pointerUp(second, { button: 0, clientX: 10 });
    expect(onSeek).toHaveBeenCalledWith(2);
  });
});
