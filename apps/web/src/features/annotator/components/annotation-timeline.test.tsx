import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Range } from '../bouts';
import { LANE_GAP, LANE_HEIGHT, RULER_HEIGHT } from '../timeline-draw';
import { AnnotationTimeline, type AnnotationTimelineProps } from './annotation-timeline';

const WIDTH = 1000;
const video = { fps: 30, end: 100, duration: 100 };
const clock = { get: () => 0, subscribe: () => () => {} };

/** The canvas of jsdom draws nothing: a context that accepts every call, and a 1000 px wide box. */
beforeEach(() => {
  const context = new Proxy({}, { get: () => () => {} });
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(context as unknown as CanvasRenderingContext2D);
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockReturnValue({
    x: 0,
    y: 0,
    left: 0,
    top: 0,
    width: WIDTH,
    height: 200,
    right: WIDTH,
    bottom: 200,
    toJSON: () => ({}),
  });
});
afterEach(() => vi.restoreAllMocks());

function setup(overrides: Partial<AnnotationTimelineProps> = {}) {
  const props: AnnotationTimelineProps = {
    tracks: [
      { id: 'g', name: 'Grooming', color: '#e11d48', hotkey: 'g' },
      { id: 'r', name: 'Rearing', color: '#2563eb', hotkey: 'r' },
    ],
    ranges: { g: [[10, 20]] as Range[], r: [] },
    marking: {},
    selected: null,
    view: { start: 0, span: 100 },
    onViewChange: vi.fn(),
    video,
    playhead: clock,
    readOnly: false,
    onSeek: vi.fn(),
    onSelect: vi.fn(),
    onDraw: vi.fn(),
    onEdgeDrag: vi.fn(),
    ...overrides,
  };
  render(<AnnotationTimeline {...props} />);
  return { props, canvas: screen.getByTestId('timeline-canvas') };
}

/** x for a time (the view spans 0–100 s over 1000 px) and y for a lane. */
const at = (seconds: number, lane: number) => ({
  clientX: seconds * 10,
  clientY: RULER_HEIGHT + lane * (LANE_HEIGHT + LANE_GAP) + LANE_HEIGHT / 2,
  button: 0,
  pointerId: 1,
  pointerType: 'mouse',
});

describe('the timeline under the mouse', () => {
  it('a click on a bout selects it and seeks there; a click on an empty lane clears the selection', () => {
    const { props, canvas } = setup();
    fireEvent.pointerDown(canvas, at(15, 0));
    fireEvent.pointerUp(canvas, at(15, 0));
    expect(props.onSelect).toHaveBeenLastCalledWith({ track: 'g', range: [10, 20] });
    expect(props.onSeek).toHaveBeenLastCalledWith(15);
    fireEvent.pointerDown(canvas, at(50, 1));
    fireEvent.pointerUp(canvas, at(50, 1));
    expect(props.onSelect).toHaveBeenLastCalledWith(null);
  });

  it('a drag on a lane draws a bout on that track', () => {
    const { props, canvas } = setup();
    fireEvent.pointerDown(canvas, at(40, 1));
    fireEvent.pointerMove(canvas, at(45, 1));
    fireEvent.pointerMove(canvas, at(52, 1));
    fireEvent.pointerUp(canvas, at(52, 1));
    expect(props.onDraw).toHaveBeenCalledWith('r', 40, 52);
  });

  it("a drag from a bout's edge moves that edge: the video follows it, the release commits it", () => {
    const { props, canvas } = setup();
    fireEvent.pointerDown(canvas, at(20, 0));
    fireEvent.pointerMove(canvas, at(25, 0));
    expect(props.onEdgeDrag).toHaveBeenLastCalledWith('g', [10, 20], 'end', 25, false);
    fireEvent.pointerMove(canvas, at(30, 0));
    fireEvent.pointerUp(canvas, at(30, 0));
    expect(props.onEdgeDrag).toHaveBeenLastCalledWith('g', [10, 20], 'end', 30, true);
    expect(props.onDraw).not.toHaveBeenCalled();
  });

  it('a drag on the ruler pans the view', () => {
    const { props, canvas } = setup({ view: { start: 20, span: 50 } });
    fireEvent.pointerDown(canvas, { ...at(30, 0), clientY: 5 });
    fireEvent.pointerMove(canvas, { ...at(20, 0), clientY: 5 });
    expect(props.onViewChange).toHaveBeenLastCalledWith({ start: 25, span: 50 });
  });

  it('Ctrl+wheel zooms around the pointer', () => {
    const { props, canvas } = setup();
    fireEvent.wheel(canvas, { deltaY: -100, ctrlKey: true, clientX: 500 });
    const view = vi.mocked(props.onViewChange).mock.calls.at(-1)![0];
    expect(view.span).toBeLessThan(100);
    // 50 s stays under the pointer.
    expect(view.start + view.span / 2).toBeCloseTo(50);
  });

  it('for a viewer a drag pans instead of drawing, and edges do not move', () => {
    const { props, canvas } = setup({ readOnly: true, view: { start: 20, span: 50 } });
    fireEvent.pointerDown(canvas, at(20, 0));
    fireEvent.pointerMove(canvas, at(10, 0));
    fireEvent.pointerUp(canvas, at(10, 0));
    expect(props.onDraw).not.toHaveBeenCalled();
    expect(props.onEdgeDrag).not.toHaveBeenCalled();
    expect(props.onViewChange).toHaveBeenCalled();
  });
});
