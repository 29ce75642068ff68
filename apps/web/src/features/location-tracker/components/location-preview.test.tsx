import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { LocationPreview } from '@/features/analysis/api';
import { LocationPreviewPanel, listedRows } from './location-preview';

function preview(overrides: Partial<LocationPreview> = {}): LocationPreview {
  // 30 fps from frame 60: 90 frames, x = frame, y = 2·frame, frame 100 without a position.
  const frames = Array.from({ length: 90 }, (_, i) => 60 + i);
  return {
    kind: 'location_tracking',
    start_s: 2,
    fps: 30,
    frames,
    x: frames.map((f) => (f === 100 ? null : f)),
    y: frames.map((f) => (f === 100 ? null : 2 * f)),
    image: 'data:image/png;base64,iVBORw0KGgo=',
    reference: { cached: false, notes: [] },
    elapsed_ms: 412.4,
    notices: [],
    ...overrides,
  };
}

describe('location preview', () => {
  it('lists rows evenly over the window, the first and the last (the pictured frame) among them', () => {
    expect(listedRows(3)).toEqual([0, 1, 2]);
    expect(listedRows(90)).toEqual([0, 13, 25, 38, 51, 64, 76, 89]);
  });

  it('shows the picture, a few positions (a click seeks there) and whether the reference was reused', () => {
    const onSeek = vi.fn();
    const { rerender } = render(
      <LocationPreviewPanel shown={{ preview: preview(), roundTripMs: 500 }} pending={false} onSeek={onSeek} />,
    );
    expect(screen.getByTestId('preview-image').getAttribute('src')).toMatch(/^data:image\/png/);
    const rows = within(screen.getByTestId('preview-positions')).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(8);
    expect(rows.at(-1)!.textContent).toContain('149');
    expect(rows.at(-1)!.textContent).toContain('298.0');
    fireEvent.click(within(rows[1]!).getByRole('button', { name: '73' }));
    expect(onSeek).toHaveBeenCalledWith(73 / 30);
    expect(screen.getByTestId('preview-elapsed').textContent).toMatch(/89 of 90 frames tracked.*computed and kept/);

    const note = 'The animal sat still through most of the reference’s frames.';
    rerender(
      <LocationPreviewPanel
        shown={{ preview: preview({ reference: { cached: true, notes: [note] } }), roundTripMs: 90 }}
        pending={false}
        onSeek={onSeek}
      />,
    );
    expect(screen.getByText(note)).toBeTruthy();
    expect(screen.getByTestId('preview-elapsed').textContent).toMatch(/reference reused/);
  });
});
