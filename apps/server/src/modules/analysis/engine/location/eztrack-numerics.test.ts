/**
 * The numpy / OpenCV pieces of eztrack on their own: the opening against OpenCV's morphologyEx (opencv.js 4.12)
 * and a k × k scan, the pairwise sums against the plain recursion of numpy's algorithm, the percentile against a
 * sort, and numpy's rounding and slicing by hand.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Cv, loadOpenCv } from '../opencv.reference.js';
import { numpyPercentile, numpySum } from './eztrack.reference.js';
import { seeded } from './eztrack.scenes.js';
import {
  interpolate,
  lineScratch,
  numpySliceBounds,
  openingInto,
  PairwiseMoments,
  percentileRanks,
  roundHalfEven,
} from './eztrack-numerics.js';

let cv: Cv;

beforeAll(async () => {
  ({ cv } = await loadOpenCv());
}, 60_000);

/** `cv2.morphologyEx(values, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))` on a float64 image, OpenCV's defaults. */
function openCvOpening(values: Float64Array, width: number, height: number, k: number): number[] {
  const source = cv.matFromArray(height, width, cv.CV_64F, Array.from(values));
  const kernel = cv.Mat.ones(k, k, cv.CV_8U);
  const target = new cv.Mat();
  cv.morphologyEx(source, target, cv.MORPH_OPEN, kernel);
  const out = Array.from(target.data64F);
  source.delete();
  kernel.delete();
  target.delete();
  return out;
}

function ourOpening(values: Float64Array, width: number, height: number, k: number): number[] {
  const target = new Float64Array(values.length);
  openingInto(
    values,
    target,
    new Float64Array(values.length),
    width,
    height,
    k,
    lineScratch(Math.max(width, height), k),
  );
  return Array.from(target);
}

/** Sparse signed values, as the thresholded difference is (ties and plateaus included). */
function sparseImage(random: () => number, size: number): Float64Array {
  return Float64Array.from({ length: size }, () => {
    const r = random();
    return r < 0.6 ? 0 : r < 0.7 ? 0 - Math.floor(random() * 5) + 0 : Math.floor(random() * 8) * (r < 0.85 ? 1 : 0.1);
  });
}

describe('openingInto', () => {
  it('equals OpenCV’s MORPH_OPEN with an all-ones kernel, odd and even sizes, at the borders too', () => {
    const random = seeded(21);
    for (const [width, height] of [
      [23, 17],
      [5, 9],
      [1, 6],
    ] as const) {
      for (let k = 1; k <= 9; k++) {
        for (let trial = 0; trial < 3; trial++) {
          const values = sparseImage(random, width * height);
          expect(ourOpening(values, width, height, k)).toEqual(openCvOpening(values, width, height, k));
        }
      }
    }
  });

  it('keeps a blob at least k wide and removes a line thinner than k', () => {
    const width = 20;
    const height = 12;
    const values = new Float64Array(width * height);
    for (let y = 3; y < 9; y++) for (let x = 4; x < 10; x++) values[y * width + x] = 5; // 6 × 6 blob
    for (let y = 0; y < height; y++) values[y * width + 15] = 9; // 1-px line
    const opened = ourOpening(values, width, height, 5);
    expect(opened.filter((v) => v === 5)).toHaveLength(36);
    expect(opened.filter((v) => v === 9)).toHaveLength(0);
  });
});

describe('PairwiseMoments', () => {
  it('gives numpy’s pairwise sums of v, v·row and v·column bit for bit, skipping zero blocks', () => {
    const random = seeded(5);
    const moments = new PairwiseMoments();
    for (const [width, height] of [
      [3, 2],
      [11, 7],
      [64, 48],
      [97, 61],
    ] as const) {
      for (let trial = 0; trial < 4; trial++) {
        const values = Float64Array.from({ length: width * height }, () => (random() < 0.8 ? 0 : random() * 37.3));
        let first = values.findIndex((v) => v !== 0);
        let last = values.length - 1;
        while (last >= 0 && values[last] === 0) last--;
        if (first < 0) first = last = -1;
        moments.sum(values, width, first, last);
        const plain = Array.from(values);
        expect(moments.total).toBe(numpySum(plain));
        expect(moments.rows).toBe(numpySum(plain.map((v, i) => v * Math.floor(i / width))));
        expect(moments.columns).toBe(numpySum(plain.map((v, i) => v * (i % width))));
      }
    }
  });

  it('differs from a left-to-right sum in the last bits, so the order matters', () => {
    const random = seeded(8);
    const values = Array.from({ length: 5000 }, () => random() * 0.1);
    const leftToRight = values.reduce((sum, v) => sum + v, 0);
    expect(numpySum(values)).not.toBe(leftToRight);
    expect(Math.abs(numpySum(values) - leftToRight)).toBeLessThan(1e-9);
  });
});

describe('percentile', () => {
  it('equals numpy’s linear percentile of the sorted values', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -255, max: 255 }), { minLength: 1, maxLength: 300 }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        (values, percent) => {
          const sorted = [...values].sort((a, b) => a - b);
          const { low, high, t } = percentileRanks(values.length, percent);
          expect(interpolate(sorted[low] as number, sorted[high] as number, t)).toBe(numpyPercentile(values, percent));
        },
      ),
      { numRuns: 300, seed: 3 },
    );
  });

  it('lands on the value itself inside a run of ties, and between values otherwise (checked by hand)', () => {
    // np.percentile([1, 2, 2, 2, 9], 50) = 2; np.percentile([0, 10], 25) = 2.5; np.percentile([3, 4], 99.5) = 3.995.
    expect(numpyPercentile([1, 2, 2, 2, 9], 50)).toBe(2);
    expect(numpyPercentile([0, 10], 25)).toBe(2.5);
    expect(numpyPercentile([3, 4], 99.5)).toBeCloseTo(3.995, 12);
    expect(numpyPercentile([3, 4, 7], 100)).toBe(7);
  });
});

describe('numpy rounding and slicing', () => {
  it('rounds halves to even like np.around', () => {
    expect([0.5, 1.5, 2.5, -0.5, -1.5, 2.4999, 2.5001, 7].map(roundHalfEven)).toEqual([0, 2, 2, 0, -2, 2, 3, 7]);
  });

  it('selects what numpy’s slice(lo if lo > 0 else 0, hi) selects', () => {
    expect(numpySliceBounds(10, 60, 100)).toEqual([10, 60]);
    expect(numpySliceBounds(-40, 60, 100)).toEqual([0, 60]);
    expect(numpySliceBounds(70, 130, 100)).toEqual([70, 100]);
    expect(numpySliceBounds(0, -30, 100)).toEqual([0, 70]); // a negative end counts from the end
    expect(numpySliceBounds(0, -130, 100)).toEqual([0, 0]);
    expect(numpySliceBounds(120, 140, 100)).toEqual([100, 100]);
    expect(numpySliceBounds(50, 50, 100)).toEqual([50, 50]);
  });
});
