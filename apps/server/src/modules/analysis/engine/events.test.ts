import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectEvents, type EventDetectionParameters, noiseTop, type Series, sampleTime } from './events.js';

const series = (values: number[], fps = 10, times: number[] | null = null): Series => ({
  values: Float64Array.from(values),
  times: times === null ? null : Float64Array.from(times),
  fps,
});

const parameters = (overrides: Partial<EventDetectionParameters> = {}): EventDetectionParameters => ({
  event_threshold_k: 3,
  event_threshold: null,
  refractory_s: 0.5,
  ...overrides,
});

const onsetsOf = (input: Series, overrides: Partial<EventDetectionParameters> = {}) => [
  ...detectEvents(input, parameters(overrides)).onsets,
];

/** Reference noise top written the obvious way: a map of bin → max, then a sorted array. */
function referenceNoiseTop(input: Series): number {
  const tops = new Map<number, number>();
  input.values.forEach((value, index) => {
    if (Number.isNaN(value)) return;
    const time = input.times === null ? index / input.fps : input.times[index]!;
    const bin = Math.floor(time * 10 + 1e-9);
    tops.set(bin, Math.max(tops.get(bin) ?? Number.NEGATIVE_INFINITY, value));
  });
  const sorted = [...tops.values()].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Reference upward crossings: above the threshold, previous sample absent, NaN or not above. */
function referenceCrossings(values: Float64Array, threshold: number): number[] {
  const crossings: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const previous = i === 0 ? Number.NaN : values[i - 1]!;
    if (values[i]! > threshold && !(previous > threshold)) crossings.push(i);
  }
  return crossings;
}

const fpsArbitrary = fc.constantFrom(1, 10, 25, 29.97, 30, 60);
const valueArbitrary = fc.oneof(
  { weight: 1, arbitrary: fc.constant(Number.NaN) },
  { weight: 6, arbitrary: fc.double({ min: -1000, max: 1000, noNaN: true }) },
);
/** Strictly increasing non-negative times with uneven gaps (imported series). */
const timesArbitrary = (length: number) =>
  fc
    .tuple(
      fc.double({ min: 0, max: 10, noNaN: true }),
      fc.array(fc.double({ min: 0.001, max: 0.7, noNaN: true }), { minLength: length, maxLength: length }),
    )
    .map(([start, gaps]) => {
      let time = start;
      return gaps.map((gap) => {
        const current = time;
        time += gap;
        return current;
      });
    });
const seriesArbitrary = fc
  .tuple(fc.array(valueArbitrary, { maxLength: 300, size: 'medium' }), fpsArbitrary, fc.boolean())
  .chain(([values, fps, withTimes]) =>
    (withTimes ? timesArbitrary(values.length) : fc.constant(null)).map((times) => series(values, fps, times)),
  );
const parametersArbitrary = fc.record({
  event_threshold_k: fc.double({ min: 1, max: 10, noNaN: true }),
  event_threshold: fc.option(fc.double({ min: -100, max: 1000, noNaN: true })),
  refractory_s: fc.double({ min: 0, max: 3, noNaN: true }),
});

describe('sampleTime', () => {
  it('is index / fps without times, and the given time with them', () => {
    expect(sampleTime(series([0, 0, 0, 0], 25), 3)).toBe(3 / 25);
    expect(sampleTime(series([0, 0, 0], 25, [0, 0.5, 2.25]), 2)).toBe(2.25);
  });
});

describe('noiseTop', () => {
  it('is the median of bin tops, one sample per bin at 10 fps', () => {
    // Bins 0..5 hold one value each: tops 1, 2, 3, 10, 1, 2 → sorted 1 1 2 2 3 10 → (2 + 2) / 2 = 2.
    expect(noiseTop(series([1, 2, 3, 10, 1, 2]))).toBe(2);
  });

  it('takes the maximum inside each 100 ms bin; frame 3 at 30 fps (0.1 s) starts bin 1', () => {
    // Bins of 3 frames: [1, 5, 2] → 5, [0, 0, 3] → 3, [4, NaN, 1] → 4; median of 3 4 5 is 4.
    expect(noiseTop(series([1, 5, 2, 0, 0, 3, 4, Number.NaN, 1], 30))).toBe(4);
    // [1, 1, 1] → 1, [9, 0, 0] → 9 → median (1 + 9) / 2 = 5; with frame 3 in bin 0 it would be (9 + 0) / 2 = 4.5.
    expect(noiseTop(series([1, 1, 1, 9, 0, 0], 30))).toBe(5);
  });

  it('puts a time a hair below a bin edge in binary (0.7 − 0.4) into the bin it starts', () => {
    const nearEdge = 0.7 - 0.4; // 0.29999999999999993
    expect(nearEdge).toBeLessThan(0.3);
    // Bins 0 (t 0) → 1, 2 (t 0.25) → 2, 3 (t ≈ 0.3) → 8: median 2. Were ≈ 0.3 floored into bin 2 with 0.25,
    // the tops would be 1 and 8 → 4.5.
    expect(noiseTop(series([1, 2, 8], 10, [0, 0.25, nearEdge]))).toBe(2);
  });

  it('bins imported, unevenly spaced times', () => {
    // Bin 0: 0, 0.05 → 3; bin 1: 0.12 → 2; bin 3: 0.31, 0.35, 0.39 → 8; bin 10: 1.0 → 4.
    // Tops 2 3 4 8 → (3 + 4) / 2 = 3.5.
    expect(noiseTop(series([1, 3, 2, 7, 6, 8, 4], 30, [0, 0.05, 0.12, 0.31, 0.35, 0.39, 1.0]))).toBe(3.5);
  });

  it('ignores a minority of moving bins (median, not mean)', () => {
    // 10 quiet bins at 1 and 4 bins of movement at 100: median of 14 tops is the 7th/8th → 1.
    expect(noiseTop(series([...Array(10).fill(1), ...Array(4).fill(100)]))).toBe(1);
  });

  it('handles negative values, NaN gaps, a single sample and no valid value', () => {
    expect(noiseTop(series([-3, -1, -2]))).toBe(-2);
    expect(noiseTop(series([Number.NaN, 4, Number.NaN]))).toBe(4);
    expect(noiseTop(series([7]))).toBe(7);
    expect(noiseTop(series([Number.NaN, Number.NaN]))).toBe(0);
    expect(noiseTop(series([]))).toBe(0);
  });

  it('rejects times that do not match the values', () => {
    expect(() => noiseTop(series([1, 2, 3], 10, [0, 1]))).toThrow(RangeError);
  });

  it('matches a straightforward reference', () => {
    fc.assert(
      fc.property(seriesArbitrary, (input) => {
        // + 0: the two may order −0 and 0 differently; noiseTop never answers −0.
        expect(noiseTop(input)).toBe(referenceNoiseTop(input) + 0);
      }),
    );
  });

  it('scales with the values: noiseTop(c·x) = c·noiseTop(x) for c > 0', () => {
    fc.assert(
      fc.property(seriesArbitrary, fc.double({ min: 0.001, max: 1000, noNaN: true }), (input, factor) => {
        const scaled = { ...input, values: input.values.map((value) => value * factor) };
        const expected = factor * noiseTop(input);
        // The mean of two bin tops cancels when they are of opposite sign (999.8 and −999.9 → −0.06): its rounding
        // error is relative to the tops' size, not to the result's, so the tolerance is too.
        const largest = input.values.reduce(
          (most, value) => (Number.isNaN(value) ? most : Math.max(most, Math.abs(value))),
          0,
        );
        expect(Math.abs(noiseTop(scaled) - expected)).toBeLessThanOrEqual(1e-12 * Math.max(1, factor * largest));
      }),
    );
  });

  it('lies between the smallest and largest valid value', () => {
    fc.assert(
      fc.property(seriesArbitrary, (input) => {
        const valid = [...input.values].filter((value) => !Number.isNaN(value));
        fc.pre(valid.length > 0);
        const top = noiseTop(input);
        expect(top).toBeGreaterThanOrEqual(Math.min(...valid));
        expect(top).toBeLessThanOrEqual(Math.max(...valid));
      }),
    );
  });
});

describe('detectEvents', () => {
  it('thresholds at k × noise top and reports upward crossings', () => {
    // noiseTop 2 (see above), k 3 → threshold 6; only sample 3 (10) is above.
    const result = detectEvents(series([1, 2, 3, 10, 1, 2]), parameters());
    expect(result.noiseTop).toBe(2);
    expect(result.threshold).toBe(6);
    expect([...result.onsets]).toEqual([3]);
  });

  it('uses the absolute threshold over k when given, even 0', () => {
    const input = series([1, 2, 3, 10, 1, 2]);
    // Absolute 1.5: samples 1..3 above (one event at 1), 4 not, 5 above again.
    expect(detectEvents(input, parameters({ event_threshold: 1.5, refractory_s: 0 })).threshold).toBe(1.5);
    expect(onsetsOf(input, { event_threshold: 1.5, refractory_s: 0 })).toEqual([1, 5]);
    // 0 is a threshold, not "no threshold": every sample is above, one event at 0.
    expect(detectEvents(input, parameters({ event_threshold: 0 })).threshold).toBe(0);
    expect(onsetsOf(input, { event_threshold: 0 })).toEqual([0]);
    // k 1 → threshold 2: samples 2 and 3 above (event at 2), 4 and 5 not (2 is not > 2).
    expect(onsetsOf(input, { event_threshold_k: 1, refractory_s: 0 })).toEqual([2]);
  });

  it('needs strictly above: a value equal to the threshold is no event', () => {
    expect(onsetsOf(series([0, 1, 0, 1.0001]), { event_threshold: 1, refractory_s: 0 })).toEqual([3]);
  });

  it('lets NaN end an event and never start one', () => {
    // Threshold 1: 0 (first sample), 2 (after NaN), 3 continues, 6 (after NaN NaN).
    const values = [5, Number.NaN, 5, 5, Number.NaN, Number.NaN, 5];
    expect(onsetsOf(series(values), { event_threshold: 1, refractory_s: 0 })).toEqual([0, 2, 6]);
    expect(onsetsOf(series([Number.NaN, Number.NaN]), { event_threshold: -1 })).toEqual([]);
  });

  it('finds nothing in an all-NaN series (noise top 0)', () => {
    const result = detectEvents(series([Number.NaN, Number.NaN, Number.NaN]), parameters());
    expect(result.noiseTop).toBe(0);
    expect(result.threshold).toBe(0);
    expect([...result.onsets]).toEqual([]);
  });

  it('handles a single sample', () => {
    // noiseTop 2, threshold 6 → no event; with absolute 1 the sample itself is the onset.
    expect(onsetsOf(series([2]))).toEqual([]);
    expect(onsetsOf(series([2]), { event_threshold: 1 })).toEqual([0]);
    expect(onsetsOf(series([]), { event_threshold: 1 })).toEqual([]);
  });

  it('keeps an onset exactly refractory_s after the previous kept one and drops closer ones', () => {
    // 10 fps, threshold 1: crossings at 1 (0.1 s), 6 (0.6 s), 8 (0.8 s).
    const input = series([0, 5, 0, 0, 0, 0, 5, 0, 5]);
    // 0.6 − 0.1 is 0.49999999999999994 in binary, still "exactly 0.5 s" within the tolerance → kept; 8 is 0.2 s later → dropped.
    expect(onsetsOf(input, { event_threshold: 1, refractory_s: 0.5 })).toEqual([1, 6]);
    // Refractory 0.51: 6 is dropped; 8 is measured from the kept onset 1 (0.7 s), not the dropped 6 → kept.
    expect(onsetsOf(input, { event_threshold: 1, refractory_s: 0.51 })).toEqual([1, 8]);
    expect(onsetsOf(input, { event_threshold: 1, refractory_s: 0 })).toEqual([1, 6, 8]);
    expect(onsetsOf(input, { event_threshold: 1, refractory_s: 10 })).toEqual([1]);
  });

  it('measures refractory with imported times, not sample counts', () => {
    // Crossings at samples 1 (t 0.2), 3 (t 0.5), 5 (t 2.0): with 1 s refractory, 3 is dropped.
    const input = series([0, 4, 0, 4, 0, 4], 30, [0, 0.2, 0.3, 0.5, 1.9, 2.0]);
    expect(onsetsOf(input, { event_threshold: 1, refractory_s: 1 })).toEqual([1, 5]);
  });

  it('returns increasing onsets above the threshold, at least refractory_s apart', () => {
    fc.assert(
      fc.property(seriesArbitrary, parametersArbitrary, (input, chosen) => {
        const { onsets, threshold } = detectEvents(input, chosen);
        for (let i = 0; i < onsets.length; i++) {
          const onset = onsets[i]!;
          expect(input.values[onset]!).toBeGreaterThan(threshold);
          if (onset > 0) expect(input.values[onset - 1]! > threshold).toBe(false);
          if (i > 0) {
            expect(onset).toBeGreaterThan(onsets[i - 1]!);
            const gap = sampleTime(input, onset) - sampleTime(input, onsets[i - 1]!);
            expect(gap).toBeGreaterThanOrEqual(chosen.refractory_s - 1e-9);
          }
        }
      }),
    );
  });

  it('drops a crossing only when it falls within refractory_s of the previous kept onset', () => {
    fc.assert(
      fc.property(seriesArbitrary, parametersArbitrary, (input, chosen) => {
        const { onsets, threshold } = detectEvents(input, chosen);
        const kept = new Set(onsets);
        let lastKept: number | null = null;
        for (const crossing of referenceCrossings(input.values, threshold)) {
          if (kept.has(crossing)) {
            lastKept = crossing;
            continue;
          }
          expect(lastKept).not.toBeNull();
          const gap = sampleTime(input, crossing) - sampleTime(input, lastKept!);
          expect(gap).toBeLessThan(chosen.refractory_s - 1e-9);
        }
      }),
    );
  });

  it('with refractory 0 returns exactly the upward crossings', () => {
    fc.assert(
      fc.property(seriesArbitrary, parametersArbitrary, (input, chosen) => {
        const result = detectEvents(input, { ...chosen, refractory_s: 0 });
        expect([...result.onsets]).toEqual(referenceCrossings(input.values, result.threshold));
      }),
    );
  });

  it('thresholds at the absolute value when given, else k × noise top', () => {
    fc.assert(
      fc.property(seriesArbitrary, parametersArbitrary, (input, chosen) => {
        const result = detectEvents(input, chosen);
        expect(result.noiseTop).toBe(noiseTop(input));
        expect(result.threshold).toBe(chosen.event_threshold ?? chosen.event_threshold_k * result.noiseTop);
      }),
    );
  });
});
