import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { GeometryMove } from '../adjustment';
import { GeometryOverlay } from './geometry-overlay';

const picture = { width: 320, height: 240 };
const ROI = { start_s: 0, x: 0, y: 0, width: 200, height: 240 };

/** The overlay with its move kept; in jsdom the SVG has no layout, so screen pixels are the picture's. */
function Harness({ moves }: { moves: GeometryMove[] }) {
  const [move, setMove] = useState<GeometryMove>({ dx: 0, dy: 0, scale: 1, origin: [100, 120] });
  return (
    <GeometryOverlay
      picture={picture}
      kind="movement_detection"
      parameters={{ rois: [ROI] }}
      move={move}
      onChange={(next) => {
        moves.push(next);
        setMove(next);
      }}
    />
  );
}

const at = (x: number, y: number) => ({ clientX: x, clientY: y, button: 0, pointerId: 1 });

describe('dragging a protocol’s geometry over a video', () => {
  it('moves it all with a drag inside its box, and with the arrow keys', () => {
    const moves: GeometryMove[] = [];
    render(<Harness moves={moves} />);
    const overlay = screen.getByTestId('geometry-overlay');
    fireEvent.pointerDown(overlay, at(100, 120));
    fireEvent.pointerMove(overlay, at(130, 140));
    fireEvent.pointerUp(overlay, at(130, 140));
    expect(moves.at(-1)).toEqual({ dx: 30, dy: 20, scale: 1, origin: [100, 120] });
    const rect = screen.getByTestId('roi-active').querySelector('rect')!;
    expect([rect.getAttribute('x'), rect.getAttribute('y')]).toEqual(['30', '20']);
    fireEvent.keyDown(overlay, { key: 'ArrowLeft', shiftKey: true });
    expect(moves.at(-1)?.dx).toBe(20);
    // A drag that starts outside the geometry moves nothing.
    const before = moves.length;
    fireEvent.pointerDown(overlay, at(310, 10));
    fireEvent.pointerMove(overlay, at(300, 20));
    expect(moves).toHaveLength(before);
  });

  it('scales it about its centre with the corner handle', () => {
    const moves: GeometryMove[] = [];
    render(<Harness moves={moves} />);
    const overlay = screen.getByTestId('geometry-overlay');
    // The corner (200, 240) is √(100² + 120²) from the centre; dragged to (250, 300) it is 1.5 times as far.
    fireEvent.pointerDown(overlay, at(200, 240));
    fireEvent.pointerMove(overlay, at(250, 300));
    expect(moves.at(-1)).toEqual({ dx: 0, dy: 0, scale: 1.5, origin: [100, 120] });
    const rect = screen.getByTestId('roi-active').querySelector('rect')!;
    expect(['x', 'y', 'width', 'height'].map((name) => rect.getAttribute(name))).toEqual(['-50', '-60', '300', '360']);
  });
});
