import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  IntensityCounter,
  type IntensityParameters,
  LIMITED_TO_FULL_RANGE,
  type Rect,
  removeSmallObjects,
} from './intensity.js';
import { referenceBlur, referenceChangedMask } from './intensity.reference.js';
import { referenceMorphology } from './morphology.reference.js';
import { decodeCrop, roiInCrop } from './plan.js';

// ---------------------------------------------------------------------------------------------------------
// Naive references: plain nested loops, written for obviousness rather than speed.

/** Labels 8-connected regions of 1s with a queue flood fill; returns each pixel's region size (0 for 0s). */
function referenceRegionSizes(mask: Uint8Array, width: number, height: number): number[] {
  const region = new Array<number>(width * height).fill(-1);
  const sizes: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (mask[y * width + x] !== 1 || region[y * width + x] !== -1) continue;
      const id = sizes.length;
      sizes.push(0);
      const queue: [number, number][] = [[x, y]];
      region[y * width + x] = id;
      while (queue.length > 0) {
        const [qx, qy] = queue.shift()!;
        sizes[id]!++;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const nx = qx + dx;
            const ny = qy + dy;
            if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
            if (mask[ny * width + nx] === 1 && region[ny * width + nx] === -1) {
              region[ny * width + nx] = id;
              queue.push([nx, ny]);
            }
          }
        }
      }
    }
  }
  return region.map((id) => (id === -1 ? 0 : sizes[id]!));
}

function referenceRemoveSmallObjects(mask: Uint8Array, width: number, height: number, minPixels: number) {
  const sizes = referenceRegionSizes(mask, width, height);
  return Uint8Array.from(mask, (v, i) => (v === 1 && sizes[i]! >= minPixels ? 1 : 0));
}

/** The ROI-sized changed mask of `now` against `before`, after opening, closing and small-object removal. */
function referenceMask(
  before: Uint8Array,
  now: Uint8Array,
  width: number,
  height: number,
  roi: Rect,
  parameters: IntensityParameters,
) {
  let mask = referenceChangedMask(
    referenceBlur(before, width, height),
    referenceBlur(now, width, height),
    width,
    roi,
    parameters.threshold,
  );
  const { opening, closing, small_object_removal } = parameters;
  if (opening > 1) {
    mask = referenceMorphology(mask, roi.width, roi.height, opening, true);
    mask = referenceMorphology(mask, roi.width, roi.height, opening, false);
  }
  if (closing > 1) {
    mask = referenceMorphology(mask, roi.width, roi.height, closing, false);
    mask = referenceMorphology(mask, roi.width, roi.height, closing, true);
  }
  if (small_object_removal > 1) mask = referenceRemoveSmallObjects(mask, roi.width, roi.height, small_object_removal);
  return mask;
}

const sum = (values: Uint8Array) => values.reduce((total, v) => total + v, 0);

// ---------------------------------------------------------------------------------------------------------
// Arbitraries.

const runs = { numRuns: 150 };

const maskArbitrary = fc
  .record({
    width: fc.integer({ min: 1, max: 30 }),
    height: fc.integer({ min: 1, max: 30 }),
    density: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .chain(({ width, height, density }) =>
    fc
      .array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), {
        minLength: width * height,
        maxLength: width * height,
      })
      .map((draws) => ({ width, height, mask: Uint8Array.from(draws, (d) => (d < density ? 1 : 0)) })),
  );

const rectInside = (width: number, height: number) =>
  fc
    .record({
      x: fc.integer({ min: 0, max: width - 1 }),
      y: fc.integer({ min: 0, max: height - 1 }),
    })
    .chain(({ x, y }) =>
      fc.record({
        x: fc.constant(x),
        y: fc.constant(y),
        width: fc.integer({ min: 1, max: width - x }),
        height: fc.integer({ min: 1, max: height - y }),
      }),
    );

const parametersArbitrary: fc.Arbitrary<IntensityParameters> = fc.record({
  // Mostly small thresholds so that changes actually happen; sometimes anywhere in 0–255.
  threshold: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 15 }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
  ),
  // Mostly small squares; sometimes one wider than the picture, up to the largest allowed.
  opening: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 4 }) }, fc.integer({ min: 5, max: 40 })),
  closing: fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 4 }) },
    fc.integer({ min: 5, max: 40 }),
    fc.constant(10000),
  ),
  small_object_removal: fc.integer({ min: 0, max: 6 }),
});

/**
 * Frames that change in patches: each frame is the previous one with random rectangles shifted in brightness,
 * plus some noise, so masks have regions of many sizes rather than salt and pepper only.
 */
const framesArbitrary = (width: number, height: number, count: number) =>
  fc
    .record({
      first: fc.uint8Array({ minLength: width * height, maxLength: width * height }),
      edits: fc.array(
        fc.array(fc.record({ rect: rectInside(width, height), delta: fc.integer({ min: -120, max: 120 }) }), {
          maxLength: 4,
        }),
        { minLength: count - 1, maxLength: count - 1 },
      ),
      noise: fc.array(fc.uint8Array({ minLength: width * height, maxLength: width * height }), {
        minLength: count - 1,
        maxLength: count - 1,
      }),
      noiseAmplitude: fc.integer({ min: 0, max: 120 }),
    })
    .map(({ first, edits, noise, noiseAmplitude }) => {
      const frames = [first];
      edits.forEach((patches, i) => {
        const frame = frames[frames.length - 1]!.slice();
        for (const { rect, delta } of patches) {
          for (let y = rect.y; y < rect.y + rect.height; y++) {
            for (let x = rect.x; x < rect.x + rect.width; x++) {
              const at = y * width + x;
              frame[at] = Math.min(255, Math.max(0, frame[at]! + delta));
            }
          }
        }
        const jitter = noise[i]!;
        for (let at = 0; at < frame.length; at++) {
          const offset = Math.round(((jitter[at]! - 127.5) / 127.5) * noiseAmplitude);
          frame[at] = Math.min(255, Math.max(0, frame[at]! + offset));
        }
        frames.push(frame);
      });
      return frames;
    });

/** A frame sequence with an ROI (or null: bypassed) per frame. */
const scenarioArbitrary = fc
  .record({
    // From 1 pixel: a 1- or 2-pixel side is where the reflected border is least like a replicated one.
    width: fc.integer({ min: 1, max: 24 }),
    height: fc.integer({ min: 1, max: 24 }),
    frameCount: fc.integer({ min: 2, max: 5 }),
  })
  .chain(({ width, height, frameCount }) =>
    fc.record({
      width: fc.constant(width),
      height: fc.constant(height),
      frames: framesArbitrary(width, height, frameCount),
      rois: fc.array(fc.option(rectInside(width, height), { freq: 6 }), {
        minLength: frameCount,
        maxLength: frameCount,
      }),
      parameters: parametersArbitrary,
    }),
  );

// ---------------------------------------------------------------------------------------------------------

describe('removeSmallObjects', () => {
  it('clears regions below the size and keeps diagonal chains together (8-connectivity)', () => {
    // A 3-pixel diagonal chain, a lone pixel and a 2-pixel bar.
    const width = 6;
    const mask = Uint8Array.from([1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1]);
    const copy = mask.slice();
    removeSmallObjects(copy, width, 3, 3);
    expect([...copy]).toEqual([1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]);
  });

  it('keeps a region of exactly minPixels pixels', () => {
    const mask = Uint8Array.from([1, 1, 0, 0, 0, 0, 0, 1]);
    removeSmallObjects(mask, 4, 2, 2);
    expect([...mask]).toEqual([1, 1, 0, 0, 0, 0, 0, 0]);
  });

  it('equals a flood-fill reference on random masks, with a reused scratch', () => {
    const scratch = { stack: new Int32Array(0) };
    fc.assert(
      fc.property(maskArbitrary, fc.integer({ min: 0, max: 40 }), ({ mask, width, height }, minPixels) => {
        const result = mask.slice();
        removeSmallObjects(result, width, height, minPixels, scratch);
        const expected = [...referenceRemoveSmallObjects(mask, width, height, minPixels)];
        expect([...result]).toEqual(expected);
        // The same mask one byte into its buffer, where the scan cannot read four pixels at a time.
        const unaligned = new Uint8Array(mask.length + 1).subarray(1);
        unaligned.set(mask);
        removeSmallObjects(unaligned, width, height, minPixels, scratch);
        expect([...unaligned]).toEqual(expected);
      }),
      runs,
    );
  });
});

describe('IntensityCounter', () => {
  const plain: IntensityParameters = { threshold: 10, opening: 0, closing: 0, small_object_removal: 0 };
  const whole = (width: number, height: number): Rect => ({ x: 0, y: 0, width, height });

  it('returns 0 for the first frame', () => {
    const counter = new IntensityCounter(4, 4, { ...plain, threshold: 0 });
    expect(counter.push(new Uint8Array(16).fill(200), whole(4, 4))).toBe(0);
  });

  it('counts every pixel whose rounded 3×3 mean moved by more than the threshold', () => {
    const counter = new IntensityCounter(4, 4, plain);
    counter.push(new Uint8Array(16), whole(4, 4));
    // Means move by exactly 10: not counted.
    expect(counter.push(new Uint8Array(16).fill(10), whole(4, 4))).toBe(0);
    // Pixel (1,1) at 25 among 20s: the 9 means around it become 185 / 9 = 20.6 → 21, 11 above 10.
    const frame = new Uint8Array(16).fill(20);
    frame[5] = 25;
    expect(counter.push(frame, whole(4, 4))).toBe(9);
  });

  it('rounds each mean before comparing, and mirrored edge windows see a pixel twice', () => {
    const counter = new IntensityCounter(4, 4, plain);
    counter.push(new Uint8Array(16).fill(10), whole(4, 4));
    // Pixel (1,1) at 24 among 20s: a window holding it once sums to 184 → 20.4 → 20, exactly 10 more: not counted
    // (comparing unrounded sums, 184 − 90 > 9 × 10 would have counted it). The windows of (0,0), (0,1), (0,2), (1,0) and (2,0) reach
    // past the edge and mirror back onto (1,1), so they hold it twice (188 → 21) or, at (0,0), four times
    // (196 → 22): those 5 count.
    const frame = new Uint8Array(16).fill(20);
    frame[5] = 24;
    expect(counter.push(frame, whole(4, 4))).toBe(5);
  });

  it('a null ROI returns 0 but the frame still becomes the previous one', () => {
    const counter = new IntensityCounter(3, 3, { ...plain, threshold: 0 });
    counter.push(new Uint8Array(9), whole(3, 3));
    expect(counter.push(new Uint8Array(9).fill(100), null)).toBe(0);
    // Against the bypassed frame (all 100) nothing changed; against the first one (all 0) everything would have.
    expect(counter.push(new Uint8Array(9).fill(100), whole(3, 3))).toBe(0);
    expect(counter.push(new Uint8Array(9).fill(101), whole(3, 3))).toBe(9);
  });

  it('a null ROI on the first frame still sets the previous frame', () => {
    const counter = new IntensityCounter(3, 3, { ...plain, threshold: 0 });
    expect(counter.push(new Uint8Array(9).fill(50), null)).toBe(0);
    expect(counter.push(new Uint8Array(9).fill(50), whole(3, 3))).toBe(0);
  });

  it('counts only inside the ROI', () => {
    const counter = new IntensityCounter(5, 5, { ...plain, threshold: 0 });
    counter.push(new Uint8Array(25), null);
    expect(counter.push(new Uint8Array(25).fill(9), { x: 1, y: 2, width: 3, height: 2 })).toBe(6);
  });

  it('equals the naive reference on random frame sequences, ROIs and parameters', () => {
    fc.assert(
      fc.property(scenarioArbitrary, ({ width, height, frames, rois, parameters }) => {
        const counter = new IntensityCounter(width, height, parameters);
        frames.forEach((frame, i) => {
          const roi = rois[i]!;
          const expected =
            i === 0 || roi === null ? 0 : sum(referenceMask(frames[i - 1]!, frame, width, height, roi, parameters));
          expect(counter.push(frame, roi)).toBe(expected);
        });
      }),
      runs,
    );
  });

  it('keepMask gives the same count and lastMask() holds the ROI-sized reference mask', () => {
    fc.assert(
      fc.property(scenarioArbitrary, ({ width, height, frames, rois, parameters }) => {
        const plainCounter = new IntensityCounter(width, height, parameters);
        const keeping = new IntensityCounter(width, height, parameters);
        frames.forEach((frame, i) => {
          const roi = rois[i]!;
          const count = keeping.push(frame, roi, true);
          expect(count).toBe(plainCounter.push(frame, roi));
          const last = keeping.lastMask();
          if (i === 0 || roi === null) {
            expect(last).toBeNull();
            return;
          }
          expect(last).not.toBeNull();
          expect(last!.roi).toEqual(roi);
          expect(last!.mask.length).toBe(roi.width * roi.height);
          expect(sum(last!.mask)).toBe(count);
          expect([...last!.mask]).toEqual([...referenceMask(frames[i - 1]!, frame, width, height, roi, parameters)]);
        });
      }),
      runs,
    );
  });

  it('lastMask() is null when the mask was not asked for', () => {
    const counter = new IntensityCounter(3, 3, { ...plain, threshold: 0, opening: 3 });
    counter.push(new Uint8Array(9), whole(3, 3), true);
    counter.push(new Uint8Array(9).fill(5), whole(3, 3), true);
    expect(counter.lastMask()).not.toBeNull();
    counter.push(new Uint8Array(9).fill(9), whole(3, 3));
    expect(counter.lastMask()).toBeNull();
  });

  it('counts the same on the decode crop (the ROIs plus a one-pixel margin, plan.ts) as on the whole frame', () => {
    const cropScenario = scenarioArbitrary.chain((scenario) =>
      fc.record({
        scenario: fc.constant(scenario),
        // The crop is built from a set of ROIs; each frame picks one of them (or none).
        choices: fc.array(rectInside(scenario.width, scenario.height), { minLength: 1, maxLength: 3 }),
        picks: fc.array(fc.integer({ min: -1, max: 2 }), {
          minLength: scenario.frames.length,
          maxLength: scenario.frames.length,
        }),
      }),
    );
    fc.assert(
      fc.property(cropScenario, ({ scenario, choices, picks }) => {
        const { width, height, frames, parameters } = scenario;
        const crop = decodeCrop(choices, width, height);
        const full = new IntensityCounter(width, height, parameters);
        const cropped = new IntensityCounter(crop.width, crop.height, parameters);
        frames.forEach((frame, i) => {
          const pick = picks[i]!;
          const roi = pick === -1 ? null : choices[pick % choices.length]!;
          const part = new Uint8Array(crop.width * crop.height);
          for (let y = 0; y < crop.height; y++) {
            for (let x = 0; x < crop.width; x++) part[y * crop.width + x] = frame[(crop.y + y) * width + crop.x + x]!;
          }
          expect(cropped.push(part, roi && roiInCrop(roi, crop))).toBe(full.push(frame, roi));
        });
      }),
      runs,
    );
  });
});

describe('LIMITED_TO_FULL_RANGE', () => {
  it('maps the limited-range ends to the full-range ends and clamps outside them', () => {
    expect(LIMITED_TO_FULL_RANGE.length).toBe(256);
    expect(LIMITED_TO_FULL_RANGE[16]).toBe(0);
    expect(LIMITED_TO_FULL_RANGE[235]).toBe(255);
    for (let y = 0; y < 16; y++) expect(LIMITED_TO_FULL_RANGE[y]).toBe(0);
    for (let y = 236; y < 256; y++) expect(LIMITED_TO_FULL_RANGE[y]).toBe(255);
  });

  it('is strictly increasing inside 16–235 and never decreasing overall', () => {
    for (let y = 1; y < 256; y++) {
      expect(LIMITED_TO_FULL_RANGE[y]!).toBeGreaterThanOrEqual(LIMITED_TO_FULL_RANGE[y - 1]!);
      if (y > 16 && y <= 235) expect(LIMITED_TO_FULL_RANGE[y]!).toBeGreaterThan(LIMITED_TO_FULL_RANGE[y - 1]!);
    }
  });

  it('rounds (y − 16) × 255 / 219 to the nearest integer', () => {
    // Worked by hand: 110 × 255 / 219 = 128.08; 1 × 255 / 219 = 1.16; 218 × 255 / 219 = 253.84.
    expect(LIMITED_TO_FULL_RANGE[126]).toBe(128);
    expect(LIMITED_TO_FULL_RANGE[17]).toBe(1);
    expect(LIMITED_TO_FULL_RANGE[234]).toBe(254);
  });
});
