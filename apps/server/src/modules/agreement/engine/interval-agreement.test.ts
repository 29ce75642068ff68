import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freezingSummary } from '../../analysis/engine/freezing.js';
import { type AgreementTable, cohensKappa, intervalAgreement } from './interval-agreement.js';
import { coverage, type SliceGrid, timeBins } from './slices.js';
import { correlation } from './statistics.js';

/**
 * Kappa the other way round, for a 2×2 table only (a, b / c, d): κ = 2(ad − bc) / ((a + b)(b + d) + (a + c)(c + d)).
 * Algebraically equal to (p_o − p_e) / (1 − p_e), computed from counts with no shares, so a slip in either shows.
 */
function kappaClosedForm({ both: a, reference_only: b, candidate_only: c, neither: d }: AgreementTable) {
  const denominator = (a + b) * (b + d) + (a + c) * (c + d);
  return denominator === 0 ? null : (2 * (a * d - b * c)) / denominator;
}

const frames = (count: number, fps: number): SliceGrid => ({ count, sliceS: 1 / fps, fps });

describe("Cohen's kappa", () => {
  it('gives the textbook values', () => {
    // Wikipedia's worked example: 50 items, 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no → κ = 0.4.
    expect(cohensKappa({ both: 20, reference_only: 5, candidate_only: 10, neither: 15 })).toBeCloseTo(0.4, 12);
    // Its second example: 45, 15, 25, 15 → κ = 0.1304; and 25, 35, 5, 35 → 0.2593 (equal p_o, different marginals).
    expect(cohensKappa({ both: 45, reference_only: 15, candidate_only: 25, neither: 15 })).toBeCloseTo(0.1304, 4);
    expect(cohensKappa({ both: 25, reference_only: 35, candidate_only: 5, neither: 35 })).toBeCloseTo(0.2593, 4);
    // Perfect agreement, perfect disagreement at 50/50, chance.
    expect(cohensKappa({ both: 30, reference_only: 0, candidate_only: 0, neither: 70 })).toBe(1);
    expect(cohensKappa({ both: 0, reference_only: 50, candidate_only: 50, neither: 0 })).toBe(-1);
    expect(cohensKappa({ both: 25, reference_only: 25, candidate_only: 25, neither: 25 })).toBe(0);
  });

  it('is undefined when nothing is left beyond chance', () => {
    expect(cohensKappa({ both: 100, reference_only: 0, candidate_only: 0, neither: 0 })).toBeNull();
    expect(cohensKappa({ both: 0, reference_only: 0, candidate_only: 0, neither: 100 })).toBeNull();
    expect(cohensKappa({ both: 0, reference_only: 0, candidate_only: 0, neither: 0 })).toBeNull();
  });

  it('equals the closed form on random tables', () => {
    const cell = fc.integer({ min: 0, max: 10_000 });
    fc.assert(
      fc.property(cell, cell, cell, cell, (both, reference_only, candidate_only, neither) => {
        const table = { both, reference_only, candidate_only, neither };
        const expected = kappaClosedForm(table);
        const actual = cohensKappa(table);
        if (expected === null) expect(actual).toBeNull();
        else expect(actual).toBeCloseTo(expected, 9);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('slices', () => {
  it('count a frame-boundary bout as exactly its frames, and rounded ends as the frames they meant', () => {
    const grid = frames(300, 30);
    const exact = coverage(grid, [[10 / 30, 20 / 30]]);
    expect(exact.indexOf(1)).toBe(10);
    expect(exact.lastIndexOf(1)).toBe(19);
    const rounded = coverage(grid, [[0.333, 0.667]]);
    expect(rounded.indexOf(1)).toBe(10);
    expect(rounded.lastIndexOf(1)).toBe(19);
  });

  it('cover a slice exactly when its midpoint lies in a range (random grids and ranges)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.constantFrom(0.1, 0.25, 1 / 3, 0.04),
        fc.array(fc.tuple(fc.double({ min: -1, max: 80, noNaN: true }), fc.double({ min: 0, max: 5, noNaN: true })), {
          maxLength: 8,
        }),
        fc.boolean(),
        (count, sliceS, raw, asFrames) => {
          const grid: SliceGrid = asFrames ? { count, sliceS, fps: 1 / sliceS } : { count, sliceS, fps: null };
          const ranges = raw.map(([start, length]) => [start, start + length] as const);
          const covered = coverage(grid, ranges);
          for (let i = 0; i < count; i++) {
            const mid = asFrames ? (i + 0.5) / grid.fps! : (i + 0.5) * sliceS;
            const inside = ranges.some(([a, b]) => a <= mid && mid < b);
            expect(covered[i], `slice ${i}`).toBe(inside ? 1 : 0);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('bin frames as the freezing summary does', () => {
    for (const [count, fps, binS] of [
      [901, 30, 10],
      [1000, 29.97, 7.3],
      [17, 10, 0.3],
    ] as const) {
      const bins = timeBins(frames(count, fps), binS);
      const summary = freezingSummary(new Float64Array(count), fps, {
        freeze_threshold: 0,
        min_freeze_s: 0,
        bin_s: binS,
      });
      expect(bins.edges).toEqual(summary.bins.map((b) => [b.start_s, b.end_s]));
    }
  });
});

describe('interval agreement', () => {
  it('computes the table, kappa, prevalences, bins and disagreements of a hand-computed case', () => {
    // 10 fps, 100 frames (10 s), bins of 5 s. Reference: 1–3 s and 6–8 s; candidate: 2–4 s and 6–8 s.
    const grid = frames(100, 10);
    const result = intervalAgreement(
      grid,
      [
        [1, 3],
        [6, 8],
      ],
      [
        [2, 4],
        [6, 8],
      ],
      5,
    );
    // Frames 20–29 and 60–79 in both (30), 10–19 reference only (10), 30–39 candidate only (10), the rest neither (50).
    expect(result.table).toEqual({ both: 30, reference_only: 10, candidate_only: 10, neither: 50 });
    expect(result.percent_agreement).toBe(80);
    expect(result.reference_prevalence).toBe(0.4);
    expect(result.candidate_prevalence).toBe(0.4);
    // p_o = 0.8, p_e = 0.4² + 0.6² = 0.52 → κ = 0.28 / 0.48.
    expect(result.kappa).toBeCloseTo(0.28 / 0.48, 12);
    expect(result.bins).toEqual([
      { start_s: 0, end_s: 5, reference_percent: 40, candidate_percent: 40 },
      { start_s: 5, end_s: 10, reference_percent: 40, candidate_percent: 40 },
    ]);
    expect(result.pearson_r).toBeNull(); // neither side varies across the bins
    expect(result.disagreements).toEqual([
      { start_s: 1, end_s: 2, side: 'reference_only' },
      { start_s: 3, end_s: 4, side: 'candidate_only' },
    ]);
    expect(result.duration_s).toBe(10);
  });

  it('is perfect when the two are the same, and −1 at complete disagreement half and half', () => {
    const grid = frames(600, 30);
    const bouts: [number, number][] = [
      [1, 2.5],
      [4, 9],
      [12, 19.5],
    ];
    const same = intervalAgreement(grid, bouts, bouts, 5);
    expect(same.kappa).toBe(1);
    expect(same.percent_agreement).toBe(100);
    expect(same.disagreements).toEqual([]);
    expect(same.pearson_r).toBeCloseTo(1, 12);
    expect(same.slope).toBeCloseTo(1, 12);
    const opposite = intervalAgreement(grid, [[0, 10]], [[10, 20]], 5);
    expect(opposite.kappa).toBe(-1);
    expect(opposite.percent_agreement).toBe(0);
    expect(opposite.disagreements).toEqual([
      { start_s: 0, end_s: 10, side: 'reference_only' },
      { start_s: 10, end_s: 20, side: 'candidate_only' },
    ]);
  });

  it('handles empty sides', () => {
    const grid = frames(100, 10);
    const none = intervalAgreement(grid, [], [], 60);
    expect(none.table).toEqual({ both: 0, reference_only: 0, candidate_only: 0, neither: 100 });
    expect(none.kappa).toBeNull();
    expect(none.percent_agreement).toBe(100);
    const oneSided = intervalAgreement(grid, [[0, 5]], [], 60);
    expect(oneSided.kappa).toBe(0);
    expect(oneSided.table.reference_only).toBe(50);
  });

  it('samples with a slice length: a longer slice is a coarser sample, not a tolerance (BORIS #228)', () => {
    // The same two scorings, 0.4 s apart at each end of a bout: per frame they disagree on 8 of 100 frames.
    const reference: [number, number][] = [[2, 6]];
    const candidate: [number, number][] = [[2.4, 6.4]];
    const fine = intervalAgreement({ count: 100, sliceS: 0.1, fps: null }, reference, candidate, 60);
    expect(fine.table).toEqual({ both: 36, reference_only: 4, candidate_only: 4, neither: 56 });
    const coarse = intervalAgreement({ count: 10, sliceS: 1, fps: null }, reference, candidate, 60);
    // Midpoints 2.5 … 5.5 in both, 6.5 in neither: the coarse sample misses the disagreement entirely here.
    expect(coarse.table).toEqual({ both: 4, reference_only: 0, candidate_only: 0, neither: 6 });
  });

  it('per-bin % and their r and slope equal a direct computation on random scorings', () => {
    const range = fc.tuple(fc.double({ min: 0, max: 30, noNaN: true }), fc.double({ min: 0.01, max: 4, noNaN: true }));
    const sortedRanges = (raw: [number, number][]) => {
      const out: [number, number][] = [];
      let end = -1;
      for (const [start, length] of [...raw].sort((a, b) => a[0] - b[0])) {
        if (start < end) continue;
        out.push([start, start + length]);
        end = start + length;
      }
      return out;
    };
    fc.assert(
      fc.property(fc.array(range, { maxLength: 10 }), fc.array(range, { maxLength: 10 }), (rawR, rawC) => {
        const R = sortedRanges(rawR);
        const C = sortedRanges(rawC);
        const grid = frames(300, 10);
        const result = intervalAgreement(grid, R, C, 3);
        const inside = (ranges: [number, number][], i: number) =>
          ranges.some(([a, b]) => a <= (i + 0.5) / 10 && (i + 0.5) / 10 < b);
        const expected = { both: 0, reference_only: 0, candidate_only: 0, neither: 0 };
        const perBin = Array.from({ length: 10 }, () => ({ r: 0, c: 0 }));
        for (let i = 0; i < 300; i++) {
          const r = inside(R, i);
          const c = inside(C, i);
          if (r && c) expected.both++;
          else if (r) expected.reference_only++;
          else if (c) expected.candidate_only++;
          else expected.neither++;
          const bin = Math.floor(i / 30);
          perBin[bin]!.r += r ? 1 : 0;
          perBin[bin]!.c += c ? 1 : 0;
        }
        expect(result.table).toEqual(expected);
        result.bins.forEach((bin, k) => {
          expect(bin.reference_percent).toBeCloseTo((perBin[k]!.r / 30) * 100, 9);
          expect(bin.candidate_percent).toBeCloseTo((perBin[k]!.c / 30) * 100, 9);
        });
        const fit = correlation(
          perBin.map((b) => (b.r / 30) * 100),
          perBin.map((b) => (b.c / 30) * 100),
        );
        if (fit.r === null) expect(result.pearson_r).toBeNull();
        else expect(result.pearson_r).toBeCloseTo(fit.r, 9);
        const disagreeing = result.disagreements.reduce((sum, d) => sum + Math.round((d.end_s - d.start_s) * 10), 0);
        expect(disagreeing).toBe(expected.reference_only + expected.candidate_only);
      }),
      { numRuns: 300 },
    );
  });
});

describe('statistics', () => {
  it("Pearson's r and the slope of known data", () => {
    // y = 2x + 1 exactly; then a textbook set with r = 0.8 (x 1…5, y 2, 4, 5, 4, 5: r = 0.7746, slope 0.6).
    expect(correlation([1, 2, 3], [3, 5, 7])).toEqual({ r: 1, slope: 2 });
    const fit = correlation([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]);
    expect(fit.r).toBeCloseTo(0.7746, 4);
    expect(fit.slope).toBeCloseTo(0.6, 12);
    expect(correlation([1, 1, 1], [1, 2, 3])).toEqual({ r: null, slope: null });
    expect(correlation([1, 2, 3], [4, 4, 4])).toEqual({ r: null, slope: 0 });
    expect(correlation([1], [1])).toEqual({ r: null, slope: null });
  });
});
