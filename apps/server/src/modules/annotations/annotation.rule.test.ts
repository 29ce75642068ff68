import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boutsFromSeries, type Comparison, type SeriesRule, unionRanges } from './annotation.rule.js';

const nan = Number.NaN;
const rule = (comparison: Comparison, threshold: number, extra: Partial<SeriesRule> = {}): SeriesRule => ({
  comparison,
  threshold,
  min_duration_s: 0,
  merge_gap_s: 0,
  ...extra,
});
const at10 = (pairs: [number, number][]) => pairs.map(([a, b]) => [a / 10, b / 10]);

/**
 * The definition written the plain way: a boolean per frame, runs, then merge gaps (in frames) one by one, then the
 * length filter — to compare the function with on random series.
 */
function reference(values: number[], fps: number, r: SeriesRule) {
  const test = (v: number) =>
    !Number.isNaN(v) &&
    (r.comparison === 'lt'
      ? v < r.threshold
      : r.comparison === 'le'
        ? v <= r.threshold
        : r.comparison === 'gt'
          ? v > r.threshold
          : v >= r.threshold);
  const runs: [number, number][] = [];
  values.forEach((v, f) => {
    if (!test(v)) return;
    const last = runs.at(-1);
    if (last && last[1] === f) last[1] = f + 1;
    else runs.push([f, f + 1]);
  });
  const merged: [number, number][] = [];
  for (const run of runs) {
    const last = merged.at(-1);
    if (last && (run[0] - last[1]) * 1e6 < Math.round(r.merge_gap_s * fps * 1e6)) last[1] = run[1];
    else merged.push([...run]);
  }
  return merged
    .filter(([a, b]) => (b - a) * 1e6 >= Math.round(r.min_duration_s * fps * 1e6))
    .map(([a, b]) => [a / fps, b / fps]);
}

describe('bouts from a rule on a series', () => {
  // Frames: 0–1 far, 2–4 near, 5 far, 6–7 near, 8 missing, 9 near, 10 exactly 20, 11 far.
  const values = Float64Array.from([50, 50, 10, 12, 19, 50, 5, 5, nan, 5, 20, 50]);

  it('bouts are the runs of frames that meet the rule, from a frame’s start to the end of the last', () => {
    expect(boutsFromSeries(values, 10, rule('lt', 20))).toEqual(
      at10([
        [2, 5],
        [6, 8],
        [9, 10],
      ]),
    );
    // ≤ takes the frame at the threshold; a missing value meets no rule.
    expect(boutsFromSeries(values, 10, rule('le', 20))).toEqual(
      at10([
        [2, 5],
        [6, 8],
        [9, 11],
      ]),
    );
    expect(boutsFromSeries(values, 10, rule('ge', 20))).toEqual(
      at10([
        [0, 2],
        [5, 6],
        [10, 12],
      ]),
    );
    expect(boutsFromSeries(values, 10, rule('gt', 20))).toEqual(
      at10([
        [0, 2],
        [5, 6],
        [11, 12],
      ]),
    );
  });

  it('closes gaps shorter than merge_gap_s, then leaves out bouts shorter than min_duration_s', () => {
    // Gaps of one frame (0.1 s): closed by 0.15 s, not by 0.1 s (not shorter).
    expect(boutsFromSeries(values, 10, rule('lt', 20, { merge_gap_s: 0.15 }))).toEqual(at10([[2, 10]]));
    expect(boutsFromSeries(values, 10, rule('lt', 20, { merge_gap_s: 0.1 }))).toEqual(
      boutsFromSeries(values, 10, rule('lt', 20)),
    );
    // 0.2 s is kept by 0.2 s (at least), not by 0.21 s; merging comes first.
    expect(boutsFromSeries(values, 10, rule('lt', 20, { min_duration_s: 0.2 }))).toEqual(
      at10([
        [2, 5],
        [6, 8],
      ]),
    );
    expect(boutsFromSeries(values, 10, rule('lt', 20, { min_duration_s: 0.21 }))).toEqual(at10([[2, 5]]));
    expect(boutsFromSeries(values, 10, rule('lt', 20, { min_duration_s: 0.5, merge_gap_s: 0.15 }))).toEqual(
      at10([[2, 10]]),
    );
    // 0.1 s at 30 fps is 3 frames, although 0.1 × 30 is not 3 in binary.
    const at30 = Float64Array.from([1, 0, 0, 0, 1, 1, 1, 0, 0, 1]);
    expect(boutsFromSeries(at30, 30, rule('gt', 0.5, { merge_gap_s: 0.1 }))).toHaveLength(2);
    expect(boutsFromSeries(at30, 30, rule('gt', 0.5, { min_duration_s: 0.1 }))).toEqual([[4 / 30, 7 / 30]]);
  });

  it('agrees with the plain reference on random series', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constant(nan)), { maxLength: 80 }),
        fc.constantFrom<Comparison>('lt', 'le', 'gt', 'ge'),
        fc.integer({ min: 0, max: 9 }),
        fc.constantFrom(10, 25, 30),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
        (series, comparison, threshold, fps, gapFrames, minFrames) => {
          const r = rule(comparison, threshold, { merge_gap_s: gapFrames / fps, min_duration_s: minFrames / fps });
          expect(boutsFromSeries(Float64Array.from(series), fps, r)).toEqual(reference(series, fps, r));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('an hour at 30 fps is one quick pass (it runs on the request)', () => {
    const hour = Float64Array.from({ length: 108_000 }, (_, f) => Math.abs(Math.sin(f / 40)) * 10);
    const settings = rule('lt', 2, { merge_gap_s: 0.2, min_duration_s: 0.5 });
    boutsFromSeries(hour, 30, settings);
    const started = performance.now();
    const bouts = boutsFromSeries(hour, 30, settings);
    // A few milliseconds on a quiet machine; the bound leaves room for a loaded one.
    expect(performance.now() - started).toBeLessThan(250);
    expect(bouts.length).toBeGreaterThan(800);
  });

  it('a union keeps every bout, overlapping ones as one, touching ones apart', () => {
    expect(
      unionRanges(
        [
          [0, 1],
          [3, 4],
        ],
        [
          [0.5, 2],
          [4, 5],
          [6, 7],
        ],
      ),
    ).toEqual([
      [0, 2],
      [3, 4],
      [4, 5],
      [6, 7],
    ]);
  });
});
