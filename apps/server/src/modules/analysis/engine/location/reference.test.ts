import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seeded } from './eztrack.scenes.js';
import { medianReference, referenceFrameIndices } from './reference.js';

/** np.median per pixel the obvious way: sort each pixel's values, middle one or mean of the two middle ones. */
function sortedMedian(frames: Uint8Array[], size: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < size; i++) {
    const values = frames.map((frame) => frame[i] as number).sort((a, b) => a - b);
    const n = values.length;
    out.push(
      n % 2 === 1 ? (values[(n - 1) / 2] as number) : ((values[n / 2 - 1] as number) + (values[n / 2] as number)) / 2,
    );
  }
  return out;
}

describe('medianReference', () => {
  it('equals a sort-based median for odd and even frame counts', () => {
    const width = 37;
    const height = 23;
    const random = seeded(4);
    for (const count of [1, 2, 3, 4, 5, 50, 51]) {
      // Values bunched in a few nibbles, with ties and the extremes 0 and 255.
      const frames = Array.from({ length: count }, () =>
        Uint8Array.from({ length: width * height }, () => {
          const r = random();
          return r < 0.1 ? 0 : r < 0.2 ? 255 : 120 + Math.floor(random() * 40);
        }),
      );
      expect(Array.from(medianReference(frames, width, height))).toEqual(sortedMedian(frames, width * height));
    }
  });

  it('equals a sort-based median on arbitrary frames', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 40, maxLength: 40 }), { minLength: 1, maxLength: 9 }),
        (frames) => {
          expect(Array.from(medianReference(frames, 8, 5))).toEqual(sortedMedian(frames, 40));
        },
      ),
      { numRuns: 200, seed: 9 },
    );
  });

  it('refuses no frames and short frames', () => {
    expect(() => medianReference([], 4, 4)).toThrow(RangeError);
    expect(() => medianReference([new Uint8Array(15)], 4, 4)).toThrow(RangeError);
  });
});

describe('referenceFrameIndices', () => {
  it('spreads n frames as ⌊k·(frames − 1)/(n − 1)⌋, first and last included', () => {
    const indices = referenceFrameIndices(1000, 50);
    expect(indices).toHaveLength(50);
    expect(indices[0]).toBe(0);
    expect(indices[49]).toBe(999);
    indices.forEach((index, k) => {
      expect(index).toBe(Math.floor((k * 999) / 49));
    });
    expect(referenceFrameIndices(7, 2)).toEqual([0, 6]);
    expect(referenceFrameIndices(10, 4)).toEqual([0, 3, 6, 9]);
  });

  it('clips n to the frame count, takes frame 0 for n = 1, and none of an empty video', () => {
    expect(referenceFrameIndices(6, 50)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(referenceFrameIndices(500, 1)).toEqual([0]);
    expect(referenceFrameIndices(1, 50)).toEqual([0]);
    expect(referenceFrameIndices(0, 50)).toEqual([]);
    expect(() => referenceFrameIndices(10, 0)).toThrow(RangeError);
  });
});
