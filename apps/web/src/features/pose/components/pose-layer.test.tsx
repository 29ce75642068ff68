import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createTimeStore } from '@/components/player/time-store';
import { expectedPoint, INDIVIDUALS, PARTS, testFrames, testSet } from '../pose.test-support';
import { PoseWindowCache } from '../pose-windows';
import { PoseLayer } from './pose-layer';

const FPS = 30;
const picture = { width: 640, height: 480 };

/** What should be drawn at `frame`, by the documented rule: present, shown, likelihood ≥ cutoff. */
function expectedDrawing(frame: number, cutoff: number, hidden: Set<string>) {
  const points = new Map<string, { x: number; y: number }>();
  INDIVIDUALS.forEach((individual, i) => {
    PARTS.forEach((part, p) => {
      const point = expectedPoint(i, p, frame);
      if (!point.missing && !hidden.has(part) && point.likelihood >= cutoff)
        points.set(`${individual}/${part}`, { x: point.x, y: point.y });
    });
  });
  const edges = INDIVIDUALS.flatMap((individual) =>
    [
      ['nose', 'neck'],
      ['neck', 'tail'],
    ]
      .filter(([a, b]) => points.has(`${individual}/${a}`) && points.has(`${individual}/${b}`))
      .map(([a, b]) => `${individual}/${a}-${b}`),
  );
  return { points, edges };
}

function drawn() {
  const points = new Map<string, { x: number; y: number }>();
  for (const circle of screen.queryAllByTestId('pose-point')) {
    points.set(`${circle.dataset.individual}/${circle.dataset.part}`, {
      x: Number(circle.getAttribute('cx')),
      y: Number(circle.getAttribute('cy')),
    });
  }
  const edges = screen.queryAllByTestId('pose-edge').map((line) => {
    const from = points.get(`${line.dataset.individual}/${line.dataset.from}`);
    // An edge runs exactly between its two drawn points.
    expect([Number(line.getAttribute('x1')), Number(line.getAttribute('y1'))]).toEqual([from?.x, from?.y]);
    return `${line.dataset.individual}/${line.dataset.from}-${line.dataset.to}`;
  });
  return { points, edges };
}

function setup(view: { cutoff: number; hidden: Set<string> }) {
  const requests: { start: number; count: number }[] = [];
  const cache = new PoseWindowCache(async (start, count) => {
    requests.push({ start, count });
    return testFrames(start, count);
  }, 600);
  const clock = createTimeStore(0);
  const set = testSet();
  const result = render(<PoseLayer picture={picture} set={set} cache={cache} clock={clock} fps={FPS} view={view} />);
  const rerender = (next: { cutoff: number; hidden: Set<string> }) =>
    result.rerender(<PoseLayer picture={picture} set={set} cache={cache} clock={clock} fps={FPS} view={next} />);
  return { clock, requests, rerender };
}

const layer = () => screen.getByTestId('pose-layer');

describe('pose layer', () => {
  it('draws each individual’s points at their video pixels for the frame on screen, with the skeleton', async () => {
    const view = { cutoff: 0, hidden: new Set<string>() };
    const { clock, requests } = setup(view);
    expect(layer().getAttribute('viewBox')).toBe('0 0 640 480');
    await waitFor(() => expect(layer().dataset.loaded).toBe('true'));
    expect(drawn()).toEqual(expectedDrawing(0, 0, view.hidden));

    // Frame 12 (t = 0.4 s), then frame 300 (a later window).
    for (const frame of [12, 300]) {
      act(() => clock.set(frame / FPS));
      await waitFor(() => expect(layer().dataset.loaded).toBe('true'));
      expect(layer().dataset.frame).toBe(String(frame));
      expect(drawn()).toEqual(expectedDrawing(frame, 0, view.hidden));
      expect(drawn().edges.length).toBeGreaterThan(0);
    }
    // Frame 14: the tails are missing, so the neck–tail edges are not drawn.
    act(() => clock.set(14 / FPS));
    expect(drawn().edges).toEqual(['mouse1/nose-neck', 'mouse2/nose-neck']);
    // Windows, not frames: 0 and 1 at the start, 1 and 2 at frame 300.
    expect(requests).toEqual([
      { start: 0, count: 256 },
      { start: 256, count: 256 },
      { start: 512, count: 88 },
    ]);
  });

  it('hides points below the likelihood cutoff and switched-off parts, with their edges', async () => {
    const { clock, rerender } = setup({ cutoff: 0, hidden: new Set() });
    act(() => clock.set(23 / FPS));
    await waitFor(() => expect(layer().dataset.loaded).toBe('true'));
    const all = drawn().points.size;

    const cut = { cutoff: 0.5, hidden: new Set<string>() };
    rerender(cut);
    const afterCutoff = drawn();
    expect(afterCutoff).toEqual(expectedDrawing(23, 0.5, cut.hidden));
    expect(afterCutoff.points.size).toBeLessThan(all);
    expect(afterCutoff.points.size).toBeGreaterThan(0);

    const toggled = { cutoff: 0, hidden: new Set(['neck']) };
    rerender(toggled);
    const afterToggle = drawn();
    expect(afterToggle).toEqual(expectedDrawing(23, 0, toggled.hidden));
    expect([...afterToggle.points.keys()].some((key) => key.endsWith('/neck'))).toBe(false);
    // Every edge touches the neck: none is left.
    expect(afterToggle.edges).toEqual([]);
  });

  it('shows every point of a set without likelihoods, and no lines when the set has no skeleton', async () => {
    const cache = new PoseWindowCache(
      async (start, count) =>
        testFrames(start, count).map((frame) => ({
          frame: frame.frame,
          individuals: Object.fromEntries(
            Object.entries(frame.individuals).map(([individual, parts]) => [
              individual,
              Object.fromEntries(Object.entries(parts).map(([part, p]) => [part, p ? [p[0]!, p[1]!, null] : null])),
            ]),
          ),
        })),
      600,
    );
    const set = testSet({ has_likelihood: false, edges: [] });
    render(
      <PoseLayer
        picture={picture}
        set={set}
        cache={cache}
        clock={createTimeStore(1 / FPS)}
        fps={FPS}
        view={{ cutoff: 0.99, hidden: new Set() }}
      />,
    );
    await waitFor(() => expect(layer().dataset.loaded).toBe('true'));
    expect(drawn().points.size).toBe(INDIVIDUALS.length * PARTS.length);
    expect(drawn().edges).toEqual([]);
  });
});
