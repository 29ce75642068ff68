import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain build script without type declarations
import { compileKernel, kernelSource } from '../../../../scripts/gen-kernel.mjs';
import { IntensityCounter, LIMITED_TO_FULL_RANGE } from './intensity.js';
import { referenceBlur, referenceChangedMask } from './intensity.reference.js';
import { KERNEL_WASM_BASE64 } from './kernel.wasm.js';

/** Whole-frame count, the plainest way: blur both frames, count |difference| > threshold. */
function naiveCount(before: Uint8Array, after: Uint8Array, width: number, height: number, threshold: number): number {
  const whole = { x: 0, y: 0, width, height };
  const mask = referenceChangedMask(
    referenceBlur(before, width, height),
    referenceBlur(after, width, height),
    width,
    whole,
    threshold,
  );
  return mask.reduce((total, v) => total + v, 0);
}

/** A deterministic byte stream from a seed (a linear congruential generator's top byte). */
function bytes(seed: number, length: number): Uint8Array {
  let state = seed;
  return Uint8Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) >>> 0;
    return state >>> 24;
  });
}

const noMorphology = { opening: 0, closing: 0, small_object_removal: 0 };

describe('WebAssembly kernel', () => {
  it('is what kernel.wat compiles to (run `npm run gen:kernel` after editing it)', async () => {
    const bytes: Buffer = await compileKernel();
    expect(kernelSource(bytes)).toContain(KERNEL_WASM_BASE64);
    expect(bytes.toString('base64')).toBe(KERNEL_WASM_BASE64);
  });

  it('maps limited-range luma exactly like the table (ffmpeg’s gray conversion) for all 256 values', () => {
    const counter = new IntensityCounter(256, 1, { threshold: 0, ...noMorphology }, true);
    counter.push(
      Uint8Array.from({ length: 256 }, (_, i) => i),
      null,
    );
    expect(Array.from(counter.frame)).toEqual(Array.from(LIMITED_TO_FULL_RANGE));
  });

  it('rounds a 3×3 mean exactly as OpenCV does, for every possible sum 0–2295', () => {
    // A 3×3 frame's centre pixel sees all nine pixels (no border), so its blurred value is the frame's sum over 9.
    const counter = new IntensityCounter(3, 3, { threshold: 0, ...noMorphology });
    for (let sum = 0; sum <= 9 * 255; sum++) {
      const rounded = Math.round(sum / 9);
      // A ninth never ends in exactly .5 (2 × sum would be an odd multiple of 9), so rounding half up, half away
      // from zero or half to even cannot differ; round(s / 9) is floor((s + 4) / 9).
      expect((2 * sum) % 18).not.toBe(9);
      expect(Math.floor((sum + 4) / 9)).toBe(rounded);
      // OpenCV's fixed-point path for 8-bit box filters (its ColumnSum for ushort sums into uchar, SHIFT 16):
      // divScale = 7282 (65536 / 9 rounded up, as its fraction ≥ 0.5), divDelta = 9 / 2 = 4.
      expect(((sum + 4) * 7282) >> 16).toBe(rounded);
      // The kernel's one instruction: i16x8.q15mulr_sat_s(sum, 3641) = (sum × 3641 + 2^14) >> 15.
      expect((sum * 3641 + 2 ** 14) >> 15).toBe(rounded);
      const frame = new Uint8Array(9);
      let left = sum;
      for (let i = 0; i < 9; i++) {
        frame[i] = Math.min(255, left);
        left -= frame[i]!;
      }
      counter.push(frame, null);
      expect(counter.blurredFrame()[4]).toBe(rounded);
    }
  });

  it('reflects edges as OpenCV’s BORDER_REFLECT_101 (pixel −1 is pixel 1), not by replicating them', () => {
    // One row [0, 90, 0]: the rows above and below mirror to the row itself. At x = 0 the window reads columns
    // 1, 0, 1 → (90 + 0 + 90) × 3 / 9 = 60; replicated edges would give (0 + 0 + 90) × 3 / 9 = 30.
    const counter = new IntensityCounter(3, 1, { threshold: 0, ...noMorphology });
    counter.push(Uint8Array.from([0, 90, 0]), null);
    expect(Array.from(counter.blurredFrame())).toEqual([60, 30, 60]);
    // A 1-pixel picture reflects onto itself.
    const single = new IntensityCounter(1, 1, { threshold: 0, ...noMorphology });
    single.push(Uint8Array.from([77]), null);
    expect(Array.from(single.blurredFrame())).toEqual([77]);
  });

  it('counts only means that moved by strictly more than the threshold, after rounding', () => {
    const counter = new IntensityCounter(3, 3, { threshold: 1, ...noMorphology });
    const centre = { x: 1, y: 1, width: 1, height: 1 };
    counter.push(new Uint8Array(9), centre);
    // Sum 13: mean 1.44 → 1, not more than 1. Unrounded, 13 > 9 × 1 would have counted.
    expect(counter.push(Uint8Array.from([13, 0, 0, 0, 0, 0, 0, 0, 0]), centre)).toBe(0);
    // Sum 14: mean 1.56 → 2, against the previous 1: a difference of 1, not more than 1.
    expect(counter.push(Uint8Array.from([14, 0, 0, 0, 0, 0, 0, 0, 0]), centre)).toBe(0);
    // Sum 32: mean 3.56 → 4, 2 more than the previous 2.
    expect(counter.push(Uint8Array.from([32, 0, 0, 0, 0, 0, 0, 0, 0]), centre)).toBe(1);
  });

  it('blurs like the plain loop for any size, including widths that are not a multiple of the vector width', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (width, height, seed) => {
          const frame = bytes(seed, width * height);
          const counter = new IntensityCounter(width, height, { threshold: 0, ...noMorphology });
          counter.push(frame, null);
          expect(Array.from(counter.blurredFrame())).toEqual(Array.from(referenceBlur(frame, width, height)));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('counts like the plain loop for any size, including widths that are not a multiple of the vector width', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (width, height, threshold, seed) => {
          const before = bytes(seed, width * height);
          const after = bytes(seed ^ 0x5bd1e995, width * height);
          const counter = new IntensityCounter(width, height, { threshold, ...noMorphology });
          expect(counter.push(before, { x: 0, y: 0, width, height })).toBe(0);
          const count = counter.push(after, { x: 0, y: 0, width, height });
          expect(count).toBe(naiveCount(before, after, width, height, threshold));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('counts rows longer than its byte counters hold (255 steps of 16 pixels) without overflow', () => {
    // 4,100 pixels a row: one full chunk of 4,080 and 20 more; every pixel changes.
    const width = 4100;
    const counter = new IntensityCounter(width, 2, { threshold: 0, ...noMorphology });
    const whole = { x: 0, y: 0, width, height: 2 };
    counter.push(new Uint8Array(width * 2), whole);
    expect(counter.push(new Uint8Array(width * 2).fill(200), whole)).toBe(width * 2);
    const before = bytes(7, width * 2);
    const after = bytes(8, width * 2);
    counter.push(before, whole);
    expect(counter.push(after, whole)).toBe(naiveCount(before, after, width, 2, 0));
  });

  it('refuses a threshold the byte comparison cannot hold', () => {
    for (const threshold of [-1, 256, 2.5]) {
      expect(() => new IntensityCounter(4, 4, { threshold, ...noMorphology })).toThrow(/whole number 0–255/);
    }
  });
});
