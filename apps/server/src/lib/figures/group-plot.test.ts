import { describe, expect, it } from 'vitest';
import { layoutGroupPlot, niceTicks, whiskerEnds } from './group-plot.js';

describe('the group plot', () => {
  it("puts whiskers at the most extreme values within 1.5 IQR of the box (Tukey's rule)", () => {
    // q1 4, q3 5: reach 1.5 → values in [2.5, 6.5].
    expect(whiskerEnds([3, 4, 4.5, 5, 12], 4, 5)).toEqual({ low: 3, high: 5 });
    expect(whiskerEnds([1, 4, 5, 6.5], 4, 5)).toEqual({ low: 4, high: 6.5 });
  });

  it('chooses round ticks covering the values', () => {
    expect(niceTicks(3, 12)).toEqual([2, 4, 6, 8, 10, 12]);
    expect(niceTicks(0.013, 0.049)).toEqual([0.01, 0.02, 0.03, 0.04, 0.05]);
    // One value: ±10 % around it.
    expect(niceTicks(5, 5)).toEqual([4.4, 4.6, 4.8, 5, 5.2, 5.4, 5.6]);
  });

  it('jitters points the same way every time, inside their group’s column, at their values', () => {
    const input = {
      title: 't',
      axisLabel: 'y',
      groups: [{ name: 'a', values: [1, 2, 3, 4], mean: 2.5, sem: 0.6, q1: 1.75, median: 2.5, q3: 3.25 }],
    };
    const one = layoutGroupPlot(input);
    expect(layoutGroupPlot(input)).toEqual(one);
    const [group] = one.groups;
    const xs = group!.points.map((point) => point.x);
    expect(new Set(xs).size).toBe(4);
    for (const x of xs) expect(Math.abs(x - group!.x)).toBeLessThan(one.plot.right - one.plot.left);
    // Higher values higher up (y grows downwards), on the axis' scale.
    const ys = group!.points.map((point) => point.y);
    expect(ys).toEqual([...ys].sort((a, b) => b - a));
    const tick = (value: number) => one.ticks.find((t) => t.value === value)!.y;
    expect(ys[0]).toBeCloseTo(tick(1), 9);
    expect(ys[3]).toBeCloseTo(tick(4), 9);
  });
});
