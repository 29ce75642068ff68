import { describe, expect, it } from 'vitest';
import { type AxisMap, toPixel } from './chart-data';
import { type PathSink, traceLine } from './chart-paths';
import { randomInt, randomValues, seededRandom } from './chart-test-utils';

type Command = { op: 'M' | 'L'; x: number; y: number };

function recorder(): PathSink & { commands: Command[] } {
  const commands: Command[] = [];
  return {
    commands,
    moveTo: (x, y) => commands.push({ op: 'M', x, y }),
    lineTo: (x, y) => commands.push({ op: 'L', x, y }),
  };
}

/** Maximal runs of consecutive finite values in values[i0..i1]. */
function finiteRuns(values: Float64Array, i0: number, i1: number): number {
  let runs = 0;
  let inRun = false;
  for (let i = i0; i <= i1; i++) {
    const finite = !Number.isNaN(values[i]!);
    if (finite && !inRun) runs++;
    inRun = finite;
  }
  return runs;
}

const yMap: AxisMap = { min: -60, max: 210, offset: 300, size: -280 };

describe('traceLine without decimation', () => {
  it('draws every finite point at its pixel and lifts the pen at gaps', () => {
    const times = Float64Array.of(0, 1, 2, 3, 4, 5);
    const values = Float64Array.of(5, 7, Number.NaN, 9, 11, 13);
    const xMap: AxisMap = { min: 0, max: 5, offset: 10, size: 100 };
    const sink = recorder();
    const vertices = traceLine(sink, times, values, 0, 5, xMap, yMap);
    expect(vertices).toBe(5);
    expect(sink.commands.map((c) => c.op).join('')).toBe('MLMLL');
    const expected = [0, 1, 3, 4, 5].map((i) => ({ x: toPixel(times[i]!, xMap), y: toPixel(values[i]!, yMap) }));
    sink.commands.forEach((command, k) => {
      expect(command.x).toBeCloseTo(expected[k]!.x, 9);
      expect(command.y).toBeCloseTo(expected[k]!.y, 9);
    });
  });

  it('only traces the index window it is given', () => {
    const times = Float64Array.of(0, 1, 2, 3);
    const values = Float64Array.of(1, 2, 3, 4);
    const sink = recorder();
    expect(traceLine(sink, times, values, 1, 2, { min: 0, max: 3, offset: 0, size: 30 }, yMap)).toBe(2);
    expect(traceLine(recorder(), times, values, 3, 1, { min: 0, max: 3, offset: 0, size: 30 }, yMap)).toBe(0);
    expect(traceLine(recorder(), times, values, -5, 99, { min: 0, max: 3, offset: 0, size: 30 }, yMap)).toBe(4);
  });
});

describe('traceLine with per-pixel decimation', () => {
  it('keeps each pixel column’s lowest and highest value, never bridges a gap, and stays small', () => {
    const random = seededRandom(11);
    for (let run = 0; run < 200; run++) {
      // Powers of two keep the pixel arithmetic exact, so the reference can bin with toPixel.
      const columns = 2 ** randomInt(random, 0, 6);
      const perPixel = 2 ** randomInt(random, 2, 5);
      const n = columns * perPixel;
      const times = Float64Array.from({ length: n }, (_, i) => i / perPixel);
      const values = randomValues(random, n, 0.05);
      const offset = randomInt(random, 0, 50);
      const xMap: AxisMap = { min: 0, max: columns, offset, size: columns };
      const i0 = randomInt(random, 0, n - 1);
      const i1 = randomInt(random, i0, n - 1);
      if (i1 - i0 + 1 <= 2 * columns) continue;

      const sink = recorder();
      const vertices = traceLine(sink, times, values, i0, i1, xMap, yMap);
      expect(vertices).toBe(sink.commands.length);

      // Reference: the finite values of each pixel column.
      const byColumn = new Map<number, number[]>();
      for (let i = i0; i <= i1; i++) {
        if (Number.isNaN(values[i]!)) continue;
        const column = Math.floor(toPixel(times[i]!, xMap));
        byColumn.set(column, [...(byColumn.get(column) ?? []), values[i]!]);
      }
      const drawn = new Map<number, number[]>();
      for (const command of sink.commands) drawn.set(command.x, [...(drawn.get(command.x) ?? []), command.y]);

      expect([...drawn.keys()].sort((a, b) => a - b)).toEqual([...byColumn.keys()].sort((a, b) => a - b));
      for (const [column, columnValues] of byColumn) {
        const ys = drawn.get(column)!;
        // yMap is flipped: the highest value is the smallest pixel y.
        expect(Math.max(...ys)).toBe(toPixel(Math.min(...columnValues), yMap));
        expect(Math.min(...ys)).toBe(toPixel(Math.max(...columnValues), yMap));
      }
      const moves = sink.commands.filter((c) => c.op === 'M').length;
      expect(moves).toBe(finiteRuns(values, i0, i1));
      expect(sink.commands[0]?.op ?? 'M').toBe('M');
      // At most four vertices per column per run that touches it.
      expect(vertices).toBeLessThanOrEqual(4 * (byColumn.size + moves));
    }
  });

  it('reduces 10^6 points to a path of a few vertices per pixel', () => {
    const n = 1_000_000;
    const times = Float64Array.from({ length: n }, (_, i) => i / 30);
    const values = Float64Array.from({ length: n }, (_, i) => (i % 997 === 0 ? 5000 : i % 13));
    const xMap: AxisMap = { min: 0, max: (n - 1) / 30, offset: 0, size: 1000 };
    const sink = recorder();
    const vertices = traceLine(sink, times, values, 0, n - 1, xMap, yMap);
    expect(vertices).toBeLessThanOrEqual(4 * 1001);
    // Every spike survives: the highest value reaches the top of its column.
    expect(Math.min(...sink.commands.map((c) => c.y))).toBe(toPixel(5000, yMap));
    expect(Math.max(...sink.commands.map((c) => c.y))).toBe(toPixel(0, yMap));
  });
});
