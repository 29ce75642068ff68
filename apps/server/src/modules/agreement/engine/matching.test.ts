import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventAgreement } from './event-agreement.js';
import { MAX_CANDIDATE_PAIRS, matchEvents, microseconds, TooManyPairsError } from './matching.js';

/**
 * The reference: every one-to-one matching of small inputs, enumerated. Answers the best (count, total µs) by the
 * definition — most pairs, then the smallest total — with no ordering argument at all.
 */
function bruteForce(reference: number[], candidate: number[], toleranceS: number) {
  const tau = microseconds(toleranceS);
  const used = new Array<boolean>(candidate.length).fill(false);
  let best = { count: 0, cost: 0 };
  const visit = (i: number, count: number, cost: number) => {
    if (i === reference.length) {
      if (count > best.count || (count === best.count && cost < best.cost)) best = { count, cost };
      return;
    }
    visit(i + 1, count, cost);
    for (let j = 0; j < candidate.length; j++) {
      const us = Math.abs(microseconds(candidate[j]!) - microseconds(reference[i]!));
      if (used[j] || us > tau) continue;
      used[j] = true;
      visit(i + 1, count + 1, cost + us);
      used[j] = false;
    }
  };
  visit(0, 0, 0);
  return best;
}

function checkValid(result: ReturnType<typeof matchEvents>, toleranceS: number) {
  const seenR = new Set<number>();
  const seenC = new Set<number>();
  let total = 0;
  for (const [i, j] of result.pairs) {
    expect(seenR.has(i) || seenC.has(j)).toBe(false);
    seenR.add(i);
    seenC.add(j);
    const us = Math.abs(microseconds(result.candidate[j]!) - microseconds(result.reference[i]!));
    expect(us).toBeLessThanOrEqual(microseconds(toleranceS));
    total += us;
  }
  expect(result.totalMicroseconds).toBe(total);
  return total;
}

describe('event matching', () => {
  it('answers the BORIS #228 example as the issue computes it', () => {
    const R = [155.105, 169.855, 264.855];
    const C = [156.405, 170.852, 264.606];
    const wide = eventAgreement(R, C, 2);
    expect([wide.tp, wide.fp, wide.fn, wide.f1]).toEqual([3, 0, 0, 1]);
    const narrow = eventAgreement(R, C, 0.5);
    expect([narrow.tp, narrow.fp, narrow.fn]).toEqual([1, 2, 2]);
    expect(narrow.f1).toBeCloseTo(1 / 3, 12);
    expect(narrow.pairs).toEqual([{ reference_s: 264.855, candidate_s: 264.606, delta_s: 264.606 - 264.855 }]);
    expect(narrow.missed).toEqual([155.105, 169.855]);
    expect(narrow.extra).toEqual([156.405, 170.852]);
    expect(narrow.precision).toBeCloseTo(1 / 3, 12);
    expect(narrow.recall).toBeCloseTo(1 / 3, 12);
  });

  it('finds the maximum matching where a greedy nearest-first matching does not', () => {
    // Nearest-first pairs 1.0 with 1.12 (0.12 apart) and leaves 1.3 without a partner; the optimum has two pairs.
    const result = eventAgreement([1.0, 1.3], [0.82, 1.12], 0.2);
    expect(result.tp).toBe(2);
    expect(result.pairs.map((p) => [p.reference_s, p.candidate_s])).toEqual([
      [1.0, 0.82],
      [1.3, 1.12],
    ]);
  });

  it('prefers the smaller |Δt| among maximum matchings', () => {
    // Both candidates could pair with the one reference event: the nearer one is taken.
    expect(eventAgreement([5], [4.9, 5.05], 0.2).pairs).toEqual([
      { reference_s: 5, candidate_s: 5.05, delta_s: 5.05 - 5 },
    ]);
    // Two pairs either way: {1.0–1.1, 1.2–1.25} totals 0.15 s, {1.0–1.25, 1.2–1.1} crosses and totals 0.35 s.
    const result = eventAgreement([1.0, 1.2], [1.1, 1.25], 0.3);
    expect(result.pairs.map((p) => [p.reference_s, p.candidate_s])).toEqual([
      [1.0, 1.1],
      [1.2, 1.25],
    ]);
    // Count first: two pairs totalling 0.3 s beat one pair of 0.15 s.
    const counted = eventAgreement([1.0, 1.3], [1.15, 1.45], 0.2);
    expect(counted.tp).toBe(2);
    expect(counted.pairs.map((p) => [p.reference_s, p.candidate_s])).toEqual([
      [1.0, 1.15],
      [1.3, 1.45],
    ]);
  });

  it('gives exact ties to the earlier event', () => {
    // 0.9 and 1.1 are each 0.1 s from 1.0 (to the microsecond): the earlier candidate is paired.
    expect(eventAgreement([1.0], [0.9, 1.1], 0.2).pairs[0]!.candidate_s).toBe(0.9);
    // And the earlier of two reference events for one candidate.
    expect(eventAgreement([0.9, 1.1], [1.0], 0.2).pairs[0]!.reference_s).toBe(0.9);
  });

  it('counts a pair exactly at the tolerance, to the microsecond', () => {
    // 1.3 − 1.1 is 0.20000000000000018 in floating point: still 200,000 µs.
    expect(eventAgreement([1.1], [1.3], 0.2).tp).toBe(1);
    expect(eventAgreement([1.1], [1.300001], 0.2).tp).toBe(0);
    expect(eventAgreement([2], [2], 0).tp).toBe(1);
  });

  it('handles empty sides', () => {
    const noneMatched = eventAgreement([], [1, 2], 0.2);
    expect([noneMatched.tp, noneMatched.fp, noneMatched.fn]).toEqual([0, 2, 0]);
    expect([noneMatched.precision, noneMatched.recall, noneMatched.f1]).toEqual([0, null, 0]);
    const noCandidates = eventAgreement([1, 2, 3], [], 0.2);
    expect([noCandidates.tp, noCandidates.fp, noCandidates.fn]).toEqual([0, 0, 3]);
    expect([noCandidates.precision, noCandidates.recall, noCandidates.f1]).toEqual([null, 0, 0]);
    const nothing = eventAgreement([], [], 0.2);
    expect([nothing.tp, nothing.precision, nothing.recall, nothing.f1]).toEqual([0, null, null, null]);
    expect(nothing.onset_error).toEqual({ mean_s: null, median_s: null, sd_s: null });
  });

  it('handles all agreeing and all disagreeing', () => {
    const times = [0.5, 1.5, 2.5, 10, 11];
    const same = eventAgreement(times, times, 0.2);
    expect([same.tp, same.fp, same.fn, same.precision, same.recall, same.f1]).toEqual([5, 0, 0, 1, 1, 1]);
    expect(same.onset_error).toEqual({ mean_s: 0, median_s: 0, sd_s: 0 });
    const apart = eventAgreement(times, [3, 5, 7], 0.2);
    expect([apart.tp, apart.fp, apart.fn, apart.precision, apart.recall, apart.f1]).toEqual([0, 3, 5, 0, 0, 0]);
    expect(apart.missed).toEqual(times);
    expect(apart.extra).toEqual([3, 5, 7]);
  });

  it('summarises the onset errors (C − R): mean, median and sample SD', () => {
    const result = eventAgreement([1, 2, 3, 4], [1.1, 1.9, 3.3, 4], 0.5);
    const deltas = [1.1 - 1, 1.9 - 2, 3.3 - 3, 4 - 4];
    const m = deltas.reduce((a, b) => a + b) / 4;
    expect(result.onset_error.mean_s).toBeCloseTo(m, 12);
    expect(result.onset_error.median_s).toBeCloseTo((deltas[0]! + deltas[3]!) / 2, 12);
    const sd = Math.sqrt(deltas.reduce((s, d) => s + (d - m) ** 2, 0) / 3);
    expect(result.onset_error.sd_s).toBeCloseTo(sd, 12);
  });

  it('accepts unsorted input and duplicate times', () => {
    const result = eventAgreement([3, 1, 2, 2], [2, 2.05, 1], 0.1);
    expect(result.tp).toBe(3);
    expect(result.missed).toEqual([3]);
    expect(result.pairs.map((p) => p.reference_s)).toEqual([1, 2, 2]);
  });

  it('equals the brute-force optimum on random small cases (count, then total |Δt|)', () => {
    const time = fc.integer({ min: 0, max: 60 }).map((tenths) => tenths / 10);
    fc.assert(
      fc.property(
        fc.array(time, { maxLength: 7 }),
        fc.array(time, { maxLength: 7 }),
        fc.integer({ min: 0, max: 15 }).map((tenths) => tenths / 10),
        (reference, candidate, tolerance) => {
          const result = matchEvents(reference, candidate, tolerance);
          const total = checkValid(result, tolerance);
          const best = bruteForce(reference, candidate, tolerance);
          expect(result.pairs.length).toBe(best.count);
          expect(total).toBe(best.cost);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('equals the brute-force optimum on random dense cases with arbitrary times', () => {
    const time = fc.double({ min: 0, max: 3, noNaN: true });
    fc.assert(
      fc.property(
        fc.array(time, { maxLength: 6 }),
        fc.array(time, { maxLength: 6 }),
        fc.double({ min: 0, max: 2, noNaN: true }),
        (reference, candidate, tolerance) => {
          const result = matchEvents(reference, candidate, tolerance);
          const total = checkValid(result, tolerance);
          const best = bruteForce(reference, candidate, tolerance);
          expect(result.pairs.length).toBe(best.count);
          expect(total).toBe(best.cost);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('equals the brute-force optimum where many matchings tie (times a few microseconds apart)', () => {
    const time = fc.integer({ min: 0, max: 12 }).map((us) => us / 1e6);
    fc.assert(
      fc.property(
        fc.array(time, { maxLength: 7 }),
        fc.array(time, { maxLength: 7 }),
        fc.integer({ min: 0, max: 6 }).map((us) => us / 1e6),
        (reference, candidate, tolerance) => {
          const result = matchEvents(reference, candidate, tolerance);
          const total = checkValid(result, tolerance);
          const best = bruteForce(reference, candidate, tolerance);
          expect(result.pairs.length).toBe(best.count);
          expect(total).toBe(best.cost);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('matches long sequences in time near-linear in their length', () => {
    // 100,000 events a side with jitter: a quadratic algorithm would take minutes.
    const n = 100_000;
    const reference = Float64Array.from({ length: n }, (_, i) => i * 0.7);
    const candidate = Float64Array.from(reference, (t, i) => t + ((i * 7919) % 101) / 1000 - 0.05);
    const result = matchEvents(reference, candidate, 0.2);
    expect(result.pairs.length).toBe(n);
  });

  it('refuses when too many pairs lie within the tolerance', () => {
    const times = Array.from({ length: 300 }, (_, i) => i / 1000);
    expect(() => matchEvents(times, times, 1, { maxPairs: 10_000 })).toThrow(TooManyPairsError);
    expect(MAX_CANDIDATE_PAIRS).toBeGreaterThan(1_000_000);
  });
});
