import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seeded } from './eztrack.scenes.js';
import {
  frameHash,
  KEYFRAME_REFERENCE_LIMIT,
  keyframeReferenceFrames,
  medianReference,
  referenceFrameIndices,
} from './reference.js';

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

describe('keyframeReferenceFrames (ADR 029)', () => {
  it('spreads n of the keyframes evenly by position, first and last included', () => {
    const keyframes = Array.from({ length: 72 }, (_, i) => i * 250);
    const picked = keyframeReferenceFrames(keyframes, 50)!;
    expect(picked).toHaveLength(50);
    expect(new Set(picked).size).toBe(50);
    expect(picked[0]).toBe(0);
    expect(picked.at(-1)).toBe(71 * 250);
    expect(picked).toEqual(referenceFrameIndices(72, 50).map((i) => keyframes[i]));
    // Irregular keyframes: still the list's own frames, in order.
    expect(keyframeReferenceFrames([0, 7, 40, 41, 90], 3)).toEqual([0, 40, 90]);
  });

  it('declines too few keyframes, and too many for one pass', () => {
    expect(keyframeReferenceFrames([0, 30, 60], 4)).toBeNull();
    const many = Array.from({ length: KEYFRAME_REFERENCE_LIMIT * 10 + 1 }, (_, i) => i);
    expect(keyframeReferenceFrames(many, 10)).toBeNull();
    expect(keyframeReferenceFrames(many.slice(1), 10)).toHaveLength(10);
  });

  it("hashes a picture's every byte", () => {
    const a = new Uint8Array(640 * 480).fill(7);
    const b = a.slice();
    expect(frameHash(a)).toBe(frameHash(b));
    b[b.length - 1] = 8;
    expect(frameHash(a)).not.toBe(frameHash(b));
  });
});
