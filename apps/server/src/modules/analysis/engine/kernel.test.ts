import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain build script without type declarations
import { compileKernel, kernelSource } from '../../../../scripts/gen-kernel.mjs';
import { IntensityCounter, LIMITED_TO_FULL_RANGE } from './intensity.js';
import { KERNEL_WASM_BASE64 } from './kernel.wasm.js';

/** Whole-frame count, the plainest way: 3×3 sums with replicated edges, |difference| > 9 × threshold. */
function naiveCount(before: Uint8Array, after: Uint8Array, width: number, height: number, threshold: number): number {
  const sum = (f: Uint8Array, x: number, y: number) => {
    let total = 0;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        total += f[Math.min(height - 1, Math.max(0, y + dy)) * width + Math.min(width - 1, Math.max(0, x + dx))]!;
      }
    }
    return total;
  };
  let count = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) if (Math.abs(sum(after, x, y) - sum(before, x, y)) > 9 * threshold) count++;
  }
  return count;
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

  it('counts like the plain loop for any size, including widths that are not a multiple of the vector width', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (width, height, threshold, seed) => {
          let state = seed;
          const random = () => {
            state = (state * 1103515245 + 12345) >>> 0;
            return state >>> 24;
          };
          const before = Uint8Array.from({ length: width * height }, random);
          const after = Uint8Array.from({ length: width * height }, random);
          const counter = new IntensityCounter(width, height, { threshold, ...noMorphology });
          expect(counter.push(before, { x: 0, y: 0, width, height })).toBe(0);
          const count = counter.push(after, { x: 0, y: 0, width, height });
          expect(count).toBe(naiveCount(before, after, width, height, threshold));
        },
      ),
      { numRuns: 150 },
    );
  });
});
