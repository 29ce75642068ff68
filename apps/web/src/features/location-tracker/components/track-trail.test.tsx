import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createTimeStore } from '@/components/player/time-store';
import { TrackTrail } from './track-trail';

describe('track trail', () => {
  it('puts the point at the shown frame’s position, with the last second of its path behind it', () => {
    // 10 fps, 15 frames: x = 10·f, y = 5; frame 12 has no position.
    const x = new Float64Array(15).map((_, f) => (f === 12 ? Number.NaN : 10 * f));
    const y = new Float64Array(15).fill(5);
    y[12] = Number.NaN;
    const clock = createTimeStore(0);
    render(<TrackTrail picture={{ width: 320, height: 240 }} track={{ x, y, fps: 10 }} clock={clock} />);
    const point = () => screen.queryByTestId('track-point');
    expect(point()?.getAttribute('cx')).toBe('0');
    expect(screen.getByTestId('track-trail').querySelector('polyline')).toBeNull();

    act(() => clock.set(1.4));
    expect(point()?.getAttribute('cx')).toBe('140');
    // Frames 4–14 but 12: the path of the last second.
    const path = screen.getByTestId('track-trail').querySelector('polyline')!.getAttribute('points')!.split(' ');
    expect(path[0]).toBe('40,5');
    expect(path).toHaveLength(10);

    act(() => clock.set(1.2));
    expect(point()).toBeNull();
    expect(screen.getByTestId('track-trail').dataset.frame).toBe('12');
  });
});
