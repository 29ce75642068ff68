import { describe, expect, it } from 'vitest';
import {
  type AxisMap,
  buildTimes,
  bypassPixelSpans,
  cachedExtent,
  describeChart,
  eventPixels,
  finiteExtent,
  formatCompact,
  formatSeconds,
  fromPixel,
  lowerBound,
  seekTimeAt,
  toPixel,
  upperBound,
  visibleIndexRange,
  xWindow,
  yRange,
} from './chart-data';
import { randomInt, randomSortedTimes, randomValues, seededRandom } from './chart-test-utils';

const RUNS = 300;

describe('buildTimes', () => {
  it('uses the run’s own times as they are when they match the values one to one', () => {
    const times = Float64Array.of(0, 0.5, 2);
    expect(buildTimes({ values: new Float64Array(3), times, fps: 30 })).toBe(times);
  });

  it('numbers frames at i / fps otherwise', () => {
    const x = buildTimes({ values: new Float64Array(4), times: null, fps: 4 });
    expect(Array.from(x)).toEqual([0, 0.25, 0.5, 0.75]);
    const mismatched = buildTimes({ values: new Float64Array(2), times: Float64Array.of(9), fps: 2 });
    expect(Array.from(mismatched)).toEqual([0, 0.5]);
  });

  it('falls back to 30 fps when the rate is unusable', () => {
    for (const fps of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(buildTimes({ values: new Float64Array(2), times: null, fps })[1]).toBeCloseTo(1 / 30, 12);
    }
  });
});

describe('lowerBound / upperBound', () => {
  it('agree with a linear scan on sorted arrays with repeats', () => {
    const random = seededRandom(1);
    for (let run = 0; run < RUNS; run++) {
      const times = randomSortedTimes(random, randomInt(random, 0, 40));
      const probe = randomInt(random, -8, 40) / 2;
      const lower = Array.from(times).findIndex((t) => t >= probe);
      const upper = Array.from(times).findIndex((t) => t > probe);
      expect(lowerBound(times, probe)).toBe(lower === -1 ? times.length : lower);
      expect(upperBound(times, probe)).toBe(upper === -1 ? times.length : upper);
    }
  });
});

/** The definition: every point inside the window plus its outside neighbours, or the two points around it. */
function naiveVisible(times: Float64Array, min: number, max: number): [number, number] | null {
  const all = Array.from(times);
  const inside = all.flatMap((t, i) => (t >= min && t <= max ? [i] : []));
  if (inside.length > 0) return [Math.max(0, inside[0]! - 1), Math.min(all.length - 1, inside.at(-1)! + 1)];
  const before = all.findLastIndex((t) => t < min);
  const after = all.findIndex((t) => t > max);
  return before >= 0 && after >= 0 ? [before, after] : null;
}

describe('visibleIndexRange', () => {
  it('matches the definition on random windows', () => {
    const random = seededRandom(2);
    for (let run = 0; run < RUNS; run++) {
      const times = randomSortedTimes(random, randomInt(random, 0, 30));
      const a = randomInt(random, -10, 40) / 2;
      const b = a + randomInt(random, 0, 20) / 4;
      expect(visibleIndexRange(times, a, b), `window [${a}, ${b}] over ${Array.from(times)}`).toEqual(
        naiveVisible(times, a, b),
      );
    }
  });

  it('keeps the two samples around a window that falls between them', () => {
    expect(visibleIndexRange(Float64Array.of(0, 1, 2), 0.2, 0.8)).toEqual([0, 1]);
    expect(visibleIndexRange(Float64Array.of(0, 1, 2), 5, 6)).toBeNull();
    expect(visibleIndexRange(new Float64Array(0), 0, 1)).toBeNull();
  });
});

describe('finiteExtent', () => {
  it('is the min and max of the finite values in the slice, null when all are gaps', () => {
    const random = seededRandom(3);
    for (let run = 0; run < RUNS; run++) {
      const values = randomValues(random, randomInt(random, 0, 25), 0.3);
      const i0 = randomInt(random, 0, values.length);
      const i1 = randomInt(random, i0 - 1, values.length + 2);
      const slice = Array.from(values.subarray(i0, i1 + 1)).filter((v) => !Number.isNaN(v));
      expect(finiteExtent(values, i0, i1)).toEqual(slice.length ? [Math.min(...slice), Math.max(...slice)] : null);
    }
  });

  it('ignores a leading gap (uPlot’s own scan would not)', () => {
    expect(finiteExtent(Float64Array.of(Number.NaN, 3, -2, Number.NaN, 7), 0, 4)).toEqual([-2, 7]);
  });
});

describe('cachedExtent', () => {
  it('answers like finiteExtent and remembers only the whole-series answer', () => {
    const values = Float64Array.of(Number.NaN, 4, -1, 9, Number.NaN);
    const extent = cachedExtent(values);
    expect(extent(0, 4)).toEqual([-1, 9]);
    expect(extent(1, 2)).toEqual([-1, 4]);
    // A change to the array shows in windows but not in the remembered whole (series arrays never change in place).
    values[1] = 100;
    expect(extent(1, 2)).toEqual([-1, 100]);
    expect(extent(0, 4)).toEqual([-1, 9]);
    expect(cachedExtent(Float64Array.of(Number.NaN))(0, 0)).toBeNull();
  });
});

describe('yRange', () => {
  it('contains every extent and the threshold, with room above', () => {
    const random = seededRandom(4);
    for (let run = 0; run < RUNS; run++) {
      const extents = Array.from({ length: randomInt(random, 0, 3) }, () => {
        if (random() < 0.2) return null;
        const lo = randomInt(random, -100, 100);
        return [lo, lo + randomInt(random, 0, 100)] as [number, number];
      });
      const threshold = random() < 0.5 ? randomInt(random, -150, 250) : null;
      const [min, max] = yRange(extents, threshold);
      expect(min).toBeLessThan(max);
      const covered = [...extents.flatMap((e) => e ?? []), ...(threshold === null ? [] : [threshold])];
      for (const v of covered) {
        expect(v).toBeGreaterThanOrEqual(min);
        expect(v).toBeLessThanOrEqual(max);
      }
      if (covered.length > 0 && Math.min(...covered) >= 0) expect(min).toBe(0);
      if (covered.length > 0 && Math.max(...covered) > min) expect(max).toBeGreaterThan(Math.max(...covered));
    }
  });

  it('gives a usable range for nothing or a flat series', () => {
    expect(yRange([], null)).toEqual([0, 1]);
    expect(yRange([[0, 0]], null)).toEqual([0, 1]);
    expect(yRange([[0, 0]], 0)).toEqual([0, 1]);
    expect(yRange([[-5, -5]], null)).toEqual([-6, -4]);
  });
});

describe('xWindow', () => {
  const main = Float64Array.of(1, 2, 3, 4);
  it('widens the main series’ full extent to the compare series’', () => {
    expect(xWindow([1, 4], main, Float64Array.of(0, 10))).toEqual([0, 10]);
    expect(xWindow([1, 4], main, Float64Array.of(2, 3))).toEqual([1, 4]);
    expect(xWindow([1, 4], main, null)).toEqual([1, 4]);
  });
  it('keeps a zoomed window as asked', () => {
    expect(xWindow([1.5, 3], main, Float64Array.of(0, 10))).toEqual([1.5, 3]);
    expect(xWindow([1, 3.9], main, Float64Array.of(0, 10))).toEqual([1, 3.9]);
  });
});

describe('pixel mapping', () => {
  const map: AxisMap = { min: 10, max: 30, offset: 50, size: 400 };
  it('maps the ends of the scale to the ends of the box, and back', () => {
    expect(toPixel(10, map)).toBe(50);
    expect(toPixel(30, map)).toBe(450);
    expect(toPixel(20, map)).toBe(250);
    const random = seededRandom(5);
    for (let run = 0; run < RUNS; run++) {
      const v = 10 + random() * 20;
      expect(fromPixel(toPixel(v, map), map)).toBeCloseTo(v, 9);
    }
    // A flipped axis (canvas y) maps min to the bottom.
    const y: AxisMap = { min: 0, max: 100, offset: 300, size: -200 };
    expect(toPixel(0, y)).toBe(300);
    expect(toPixel(100, y)).toBe(100);
  });

  it('seeks to the time under the pointer, kept inside the window and ≥ 0', () => {
    expect(seekTimeAt(0, 200, 5, 25)).toBe(5);
    expect(seekTimeAt(100, 200, 5, 25)).toBe(15);
    expect(seekTimeAt(200, 200, 5, 25)).toBe(25);
    expect(seekTimeAt(-30, 200, 5, 25)).toBe(5);
    expect(seekTimeAt(260, 200, 5, 25)).toBe(25);
    expect(seekTimeAt(0, 200, -2, 8)).toBe(0);
    expect(seekTimeAt(10, 0, 3, 8)).toBe(3);
  });

  it('groups events by how they are drawn and drops those outside the plot', () => {
    const events = [
      { time: 10 },
      { time: 15, selected: true },
      { time: 20, discarded: true },
      { time: 25, discarded: true, selected: true },
      { time: 9.99 },
      { time: 31 },
      { time: Number.NaN },
    ];
    expect(eventPixels(events, map)).toEqual({ normal: [50], selected: [150], discarded: [250, 350] });
  });

  it('clips bypass spans to the plot and drops empty or hidden ones', () => {
    const spans = bypassPixelSpans(
      [
        [12, 14],
        [0, 11],
        [29, 40],
        [0, 5],
        [31, 35],
        [20, 20],
        [22, 21],
      ],
      map,
    );
    expect(spans).toEqual([
      [90, 130],
      [50, 70],
      [430, 450],
    ]);
  });
});

describe('labels', () => {
  it('formats seconds for the span shown', () => {
    expect(formatSeconds(1.2346, 1)).toBe('1.235 s');
    expect(formatSeconds(12.5, 60)).toBe('12.5 s');
    expect(formatSeconds(125, 600)).toBe('2:05');
    expect(formatSeconds(3725, 7200)).toBe('62:05');
    expect(formatSeconds(Number.NaN, 10)).toBe('');
  });

  it('shortens large axis numbers', () => {
    expect(formatCompact(950)).toBe('950');
    expect(formatCompact(12_500)).toBe('12.5k');
    expect(formatCompact(2_300_000)).toBe('2.3M');
    expect(formatCompact(-40_000)).toBe('-40k');
    expect(formatCompact(0.123456)).toBe('0.1235');
  });

  it('summarises points, duration, events and extras for screen readers', () => {
    expect(
      describeChart({
        label: 'changed pixels',
        points: 1_000_000,
        duration: 600,
        events: [{ time: 1 }, { time: 2, discarded: true }, { time: 3 }],
        threshold: 120,
        compareLabel: 'Run 2',
      }),
    ).toBe(
      'changed pixels over time: 1,000,000 points, 10:00, 3 events (1 discarded), threshold 120, compared with Run 2.',
    );
    expect(describeChart({ points: 1, duration: 0, events: [{ time: 0 }] })).toBe(
      'Series over time: 1 point, 0 s, 1 event.',
    );
  });
});
