import { act, fireEvent, render, screen } from '@testing-library/react';
import type uPlot from 'uplot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// jsdom has neither a 2D canvas nor Path2D, and uPlot reads matchMedia when it loads: minimal stand-ins for the
// browser's APIs, installed before the chart module is imported. The context counts what is drawn.
const canvas = vi.hoisted(() => {
  const counts = { stroke: 0, fillRect: 0 };
  const makeContext = (element: HTMLCanvasElement) => {
    const state: Record<string | symbol, unknown> = { canvas: element };
    return new Proxy(state, {
      get(target, prop) {
        if (prop in target) return target[prop];
        if (prop === 'measureText')
          return (text: string) => ({
            width: text.length * 6,
            actualBoundingBoxAscent: 8,
            actualBoundingBoxDescent: 2,
          });
        if (prop === 'stroke' || prop === 'fillRect')
          return () => {
            counts[prop]++;
          };
        return () => {};
      },
      set(target, prop, value) {
        target[prop] = value;
        return true;
      },
    });
  };
  HTMLCanvasElement.prototype.getContext = function getContext(this: HTMLCanvasElement) {
    return makeContext(this);
  } as unknown as HTMLCanvasElement['getContext'];
  class FakePath2D {
    moveTo() {}
    lineTo() {}
    rect() {}
    arc() {}
    closePath() {}
    addPath() {}
  }
  (globalThis as { Path2D?: unknown }).Path2D = FakePath2D;
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
  })) as unknown as typeof window.matchMedia;
  return counts;
});

// The real uPlot, with each instance recorded so the test can watch the calls the component makes on it.
const instances = vi.hoisted(() => [] as uPlot[]);
vi.mock('uplot', async (importOriginal) => {
  const actual = (await importOriginal<{ default: typeof uPlot }>()).default;
  const Recording = function Recording(...args: ConstructorParameters<typeof uPlot>) {
    const instance = new actual(...args);
    instances.push(instance);
    return instance;
  };
  Object.assign(Recording, actual);
  return { default: Recording };
});

// The real tracer, counted: a return to the full view must reuse its path.
vi.mock('./chart-paths', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./chart-paths')>();
  return { traceLine: vi.fn(actual.traceLine) };
});

const { DRAW_MEASURE, SeriesChart } = await import('./series-chart');
const { useSeriesChart } = await import('./use-series-chart');
const { createTimeStore } = await import('@/components/player/time-store');
const { traceLine } = await import('./chart-paths');

/** Lets uPlot's queued commit (a microtask) draw. */
const settle = () => act(async () => await new Promise((resolve) => setTimeout(resolve, 0)));

function makeSeries(n: number, fps = 10) {
  const values = Float64Array.from({ length: n }, (_, i) => (i % 50 === 7 ? Number.NaN : (i * 37) % 101));
  return { values, times: null, fps };
}

function watch(u: uPlot) {
  return {
    setData: vi.spyOn(u, 'setData'),
    redraw: vi.spyOn(u, 'redraw'),
    setScale: vi.spyOn(u, 'setScale'),
    setSize: vi.spyOn(u, 'setSize'),
    destroy: vi.spyOn(u, 'destroy'),
  };
}

beforeEach(() => {
  instances.length = 0;
  canvas.stroke = 0;
  canvas.fillRect = 0;
  performance.clearMeasures?.(DRAW_MEASURE);
});

afterEach(() => {
  document.documentElement.className = '';
});

describe('SeriesChart', () => {
  it('mounts an accessible chart and measures its first draw', async () => {
    const series = makeSeries(1000);
    render(<SeriesChart series={series} events={[{ time: 1 }, { time: 2, discarded: true }]} label="changed pixels" />);
    const chart = screen.getByTestId('series-chart');
    expect(chart.getAttribute('role')).toBe('img');
    expect(chart.getAttribute('aria-label')).toContain('1,000 points');
    expect(chart.getAttribute('aria-label')).toContain('2 events (1 discarded)');
    expect(chart.querySelector('canvas')).not.toBeNull();
    await settle();
    expect(canvas.stroke).toBeGreaterThan(0);
    const measures = performance.getEntriesByName(DRAW_MEASURE);
    expect(measures).toHaveLength(1);
    expect(measures[0]!.duration).toBeGreaterThanOrEqual(0);
  });

  it('moves the playback cursor without touching the data or the canvas', async () => {
    const series = makeSeries(1000);
    const { rerender } = render(<SeriesChart series={series} currentTime={0} />);
    await settle();
    const u = instances[0]!;
    const spies = watch(u);
    const line = screen.getByTestId('series-chart').querySelector<HTMLElement>('[data-testid="series-chart-cursor"]')!;
    const strokesBefore = canvas.stroke;

    const transforms = new Set<string>();
    for (let t = 1; t <= 60; t++) {
      rerender(<SeriesChart series={series} currentTime={t} />);
      transforms.add(line.style.transform);
    }
    await settle();
    expect(spies.setData).not.toHaveBeenCalled();
    expect(spies.redraw).not.toHaveBeenCalled();
    expect(spies.setScale).not.toHaveBeenCalled();
    expect(spies.setSize).not.toHaveBeenCalled();
    expect(canvas.stroke).toBe(strokesBefore);
    expect(instances).toHaveLength(1);
    expect(transforms.size).toBe(60);
    expect(line.style.display).toBe('');

    // Outside the time window (the series spans 0 to 99.9 s) the line hides.
    rerender(<SeriesChart series={series} currentTime={500} />);
    expect(line.style.display).toBe('none');
  });

  it('redraws overlays from cached paths when events, bypass ranges or the threshold change', async () => {
    const series = makeSeries(1000);
    const { rerender } = render(<SeriesChart series={series} events={[]} threshold={50} />);
    await settle();
    const u = instances[0]!;
    const spies = watch(u);

    rerender(<SeriesChart series={series} events={[{ time: 3, selected: true }]} threshold={50} />);
    expect(spies.redraw).toHaveBeenLastCalledWith(false, false);
    rerender(
      <SeriesChart series={series} events={[{ time: 3, selected: true }]} bypassRanges={[[4, 9]]} threshold={50} />,
    );
    await settle();
    expect(canvas.fillRect).toBeGreaterThan(0);
    expect(spies.redraw).toHaveBeenCalledTimes(2);
    expect(spies.redraw.mock.calls.every((call) => call[0] === false)).toBe(true);

    // A threshold above the data widens the y range so the line stays in view.
    rerender(<SeriesChart series={series} bypassRanges={[[4, 9]]} threshold={5000} />);
    await settle();
    expect(u.scales.y?.max).toBeGreaterThan(5000);
    expect(spies.setData).not.toHaveBeenCalled();
    expect(instances).toHaveLength(1);
  });

  it('keeps the chart for the same arrays and replaces it for new data', async () => {
    const series = makeSeries(500);
    const { rerender, unmount } = render(<SeriesChart series={series} />);
    await settle();
    const first = watch(instances[0]!);
    rerender(<SeriesChart series={{ ...series }} />);
    expect(instances).toHaveLength(1);

    rerender(<SeriesChart series={makeSeries(800)} />);
    await settle();
    expect(first.destroy).toHaveBeenCalledTimes(1);
    expect(instances).toHaveLength(2);
    expect(performance.getEntriesByName(DRAW_MEASURE)).toHaveLength(2);

    const second = watch(instances[1]!);
    unmount();
    expect(second.destroy).toHaveBeenCalledTimes(1);
  });

  it('seeks on a click and not at the end of a drag', async () => {
    const onSeek = vi.fn();
    const series = makeSeries(1001, 10); // 0 … 100 s
    render(<SeriesChart series={series} onSeek={onSeek} />);
    await settle();
    const over = instances[0]!.over;
    over.getBoundingClientRect = () => ({ left: 100, top: 0, width: 400, height: 200 }) as DOMRect;

    // A shaky click (the pointer moves a pixel) still seeks.
    fireEvent.mouseDown(over, { button: 0, clientX: 200, clientY: 50 });
    fireEvent.mouseMove(over, { clientX: 201, clientY: 50 });
    fireEvent.click(over, { button: 0, clientX: 201, clientY: 50 });
    expect(onSeek).toHaveBeenCalledTimes(1);
    expect(onSeek.mock.calls[0]![0]).toBeCloseTo(((201 - 100) / 400) * 100, 6);

    fireEvent.mouseDown(over, { button: 0, clientX: 200, clientY: 50 });
    fireEvent.mouseMove(over, { clientX: 260, clientY: 50 });
    fireEvent.click(over, { button: 0, clientX: 260, clientY: 50 });
    expect(onSeek).toHaveBeenCalledTimes(1);
  });

  it('shows a compare series in the legend and spans both series’ times', async () => {
    const series = makeSeries(101, 10); // 0 … 10 s
    const compare = { values: Float64Array.of(1, 2, 3), times: Float64Array.of(-2, 5, 20), fps: 30, label: 'Run B' };
    render(<SeriesChart series={series} compare={compare} label="score" />);
    await settle();
    const chart = screen.getByTestId('series-chart');
    expect(chart.textContent).toContain('Run B');
    expect(chart.getAttribute('aria-label')).toContain('compared with Run B');
    const x = instances[0]!.scales.x!;
    expect(x.min).toBeLessThanOrEqual(-2);
    expect(x.max).toBeGreaterThanOrEqual(20);
  });

  it('zooms, and re-traces on returning to the full view only if the view changed size', async () => {
    const series = makeSeries(5000, 10); // 0 … 499.9 s
    render(<SeriesChart series={series} />);
    await settle();
    const u = instances[0]!;
    const traced = () => vi.mocked(traceLine).mock.calls.length;
    const afterFirstDraw = traced();
    expect(afterFirstDraw).toBeGreaterThan(0);

    await act(async () => u.setScale('x', { min: 100, max: 150 }));
    await settle();
    expect(u.scales.x?.min).toBe(100);
    expect(screen.getByRole('button', { name: /reset zoom/i })).toBeTruthy();
    const afterZoom = traced();
    expect(afterZoom).toBeGreaterThan(afterFirstDraw);

    fireEvent.click(screen.getByRole('button', { name: /reset zoom/i }));
    await settle();
    expect(u.scales.x?.min).toBe(0);
    expect(u.scales.x?.max).toBeCloseTo(499.9, 9);
    expect(traced()).toBe(afterZoom);
    expect(screen.queryByRole('button', { name: /reset zoom/i })).toBeNull();

    await act(async () => u.setSize({ width: 400, height: 240 }));
    await settle();
    expect(traced()).toBeGreaterThan(afterZoom);
  });

  it('repaints when the theme class on <html> changes', async () => {
    render(<SeriesChart series={makeSeries(100)} />);
    await settle();
    const spies = watch(instances[0]!);
    document.documentElement.classList.add('dark');
    await settle();
    expect(spies.redraw).toHaveBeenCalledWith(false, false);
  });

  it('follows a player: the cursor moves with its clock without rendering, and a click seeks it', async () => {
    const clock = createTimeStore(0);
    const player = { clock, seekTime: vi.fn(async (t: number) => t) };
    let renders = 0;
    function Counted() {
      renders++;
      return <SeriesChart series={makeSeries(1001, 10)} player={player} />;
    }
    render(<Counted />);
    await settle();
    const u = instances[0]!;
    const spies = watch(u);
    const line = screen.getByTestId('series-chart').querySelector<HTMLElement>('[data-testid="series-chart-cursor"]')!;
    const rendersBefore = renders;
    const transforms = new Set<string>();
    for (let t = 1; t <= 30; t++) {
      act(() => clock.set(t));
      transforms.add(line.style.transform);
    }
    expect(transforms.size).toBe(30);
    expect(renders).toBe(rendersBefore);
    expect(spies.redraw).not.toHaveBeenCalled();

    u.over.getBoundingClientRect = () => ({ left: 0, top: 0, width: 1000, height: 200 }) as DOMRect;
    fireEvent.mouseDown(u.over, { button: 0, clientX: 250, clientY: 50 });
    fireEvent.click(u.over, { button: 0, clientX: 250, clientY: 50 });
    expect(player.seekTime).toHaveBeenCalledTimes(1);
    expect(player.seekTime.mock.calls[0]![0]).toBeCloseTo(25, 6);
  });

  it('shows a fixed window, moves it with one setScale on the same chart, and does not zoom on a drag', async () => {
    const series = makeSeries(36_000, 10); // one hour at 10 Hz
    let seen: uPlot | null = null;
    function Windowed({ from }: { from: number }) {
      const { hostRef } = useSeriesChart({
        series,
        height: 200,
        window: [from, from + 4],
        onChart: (u) => {
          seen = u;
          return undefined;
        },
      });
      return <div ref={hostRef} />;
    }
    const { rerender } = render(<Windowed from={100} />);
    await settle();
    const u = instances[0]!;
    expect(seen).toBe(u);
    expect(u.scales.x?.min).toBe(100);
    expect(u.scales.x?.max).toBe(104);
    const spies = watch(u);
    const traced = vi.mocked(traceLine).mock.calls.length;

    rerender(<Windowed from={2000} />);
    await settle();
    expect(instances).toHaveLength(1);
    expect(spies.setScale).toHaveBeenCalledWith('x', { min: 2000, max: 2004 });
    expect(u.scales.x?.min).toBe(2000);
    expect(u.scales.x?.max).toBe(2004);
    // Only the window's points are traced: about 40 of the 36,000.
    const call = vi.mocked(traceLine).mock.calls.at(-1)!;
    expect(vi.mocked(traceLine).mock.calls.length).toBeGreaterThan(traced);
    expect(call[4] - call[3]).toBeLessThan(50);
    expect(u.cursor.drag?.setScale).toBe(false);
  });
});
