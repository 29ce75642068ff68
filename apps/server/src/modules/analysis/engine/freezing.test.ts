import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FreezingParameters, freezingSummary } from './freezing.js';

const NaN_ = Number.NaN;
const summarize = (values: number[], fps: number, parameters: FreezingParameters) =>
  freezingSummary(Float64Array.from(values), fps, parameters);

/**
 * Reference written the slow, obvious way: mark still frames, then for every frame walk left and right to measure
 * the run it belongs to (O(n²) worst case, fine for small inputs).
 */
function referenceFreezingFlags(values: Float64Array, fps: number, parameters: FreezingParameters): boolean[] {
  const { freeze_threshold: threshold, min_freeze_s: minFreezeS } = parameters;
  const still = [...values].map((value) => !Number.isNaN(value) && value <= threshold);
  const minFrames = Math.max(1, Math.ceil(minFreezeS * fps - 1e-9));
  return still.map((isStill, index) => {
    if (!isStill) return false;
    let left = index;
    while (left > 0 && still[left - 1]) left--;
    let right = index;
    while (right < still.length - 1 && still[right + 1]) right++;
    return right - left + 1 >= minFrames;
  });
}

const valuesArbitrary = fc.array(
  fc.oneof(
    { weight: 1, arbitrary: fc.constant(NaN_) },
    { weight: 4, arbitrary: fc.double({ min: 0, max: 10, noNaN: true }) },
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 4 }) },
  ),
  { maxLength: 400, size: 'medium' },
);
const fpsArbitrary = fc.constantFrom(1, 7.5, 10, 25, 29.97, 30, 60);
const parametersArbitrary = fc.record({
  freeze_threshold: fc.integer({ min: 0, max: 5 }),
  min_freeze_s: fc.double({ min: 0, max: 3, noNaN: true }),
  bin_s: fc.constantFrom(0.1, 0.5, 1, 2.5, 60),
});

describe('freezingSummary', () => {
  it('counts still runs of at least min_freeze_s, overall and per bin', () => {
    // 1 fps, threshold 1, min 2 s → runs need 2 frames.
    // still:  T T F T NaN T T T F T   (NaN is neither still nor valid)
    // runs:   [0,1] 2 ✓, [3] 1 ✗, [5..7] 3 ✓, [9] 1 ✗  → freezing 5 of 9 valid frames.
    // bins of 4 s over 10 s: [0,4) frames 0–3: 2 of 4 → 50; [4,8) frames 4–7: 3 of 3 valid → 100; [8,10): 0 of 2 → 0.
    const result = summarize([0, 0, 5, 0, NaN_, 0, 0, 0, 2, 1], 1, { freeze_threshold: 1, min_freeze_s: 2, bin_s: 4 });
    expect(result.freezing_frames).toBe(5);
    expect(result.valid_frames).toBe(9);
    expect(result.percent).toBeCloseTo((5 / 9) * 100, 12);
    expect(result.bins).toEqual([
      { start_s: 0, end_s: 4, percent: 50 },
      { start_s: 4, end_s: 8, percent: 100 },
      { start_s: 8, end_s: 10, percent: 0 },
    ]);
  });

  it('credits a run that crosses a bin edge to both bins', () => {
    // 1 fps, min 3 s: run [1..3] counts; bins of 2 s: frames 0,1 → 1 of 2; 2,3 → 2 of 2; 4,5 → 0 of 2.
    const result = summarize([5, 0, 0, 0, 5, 5], 1, { freeze_threshold: 0, min_freeze_s: 3, bin_s: 2 });
    expect(result.bins.map((bin) => bin.percent)).toEqual([50, 100, 0]);
    expect(result.percent).toBe(50);
  });

  it('needs ceil(min_freeze_s × fps) frames: 0.5 s at 30 fps is 15 frames', () => {
    const run = (length: number) => Array(length).fill(0);
    const params = { freeze_threshold: 0, min_freeze_s: 0.5, bin_s: 60 };
    // 14 still, 1 moving, 15 still → only the 15-frame run counts.
    expect(summarize([...run(14), 1, ...run(15)], 30, params).freezing_frames).toBe(15);
    // 0.51 s × 30 = 15.3 → 16 frames, so the 15-frame run no longer counts.
    expect(summarize([...run(14), 1, ...run(15)], 30, { ...params, min_freeze_s: 0.51 }).freezing_frames).toBe(0);
  });

  it('treats a value equal to the threshold as still', () => {
    expect(summarize([2, 2, 2.0001], 1, { freeze_threshold: 2, min_freeze_s: 0, bin_s: 10 }).freezing_frames).toBe(2);
  });

  it('breaks a run at a NaN frame', () => {
    // 1 fps, min 3 s: 0 0 NaN 0 0 is two runs of 2 → no freezing; 4 valid frames.
    const result = summarize([0, 0, NaN_, 0, 0], 1, { freeze_threshold: 0, min_freeze_s: 3, bin_s: 10 });
    expect(result.freezing_frames).toBe(0);
    expect(result.valid_frames).toBe(4);
    expect(result.percent).toBe(0);
  });

  it('reports null percentages when nothing is valid', () => {
    const result = summarize([NaN_, NaN_, NaN_], 1, { freeze_threshold: 0, min_freeze_s: 0, bin_s: 2 });
    expect(result).toEqual({
      percent: null,
      freezing_frames: 0,
      valid_frames: 0,
      bins: [
        { start_s: 0, end_s: 2, percent: null },
        { start_s: 2, end_s: 3, percent: null },
      ],
    });
    // A bin of only NaN frames is null while the others have a percentage.
    const mixed = summarize([0, 0, NaN_, NaN_], 1, { freeze_threshold: 0, min_freeze_s: 0, bin_s: 2 });
    expect(mixed.bins.map((bin) => bin.percent)).toEqual([100, null]);
  });

  it('handles an empty series and a single frame', () => {
    expect(summarize([], 30, { freeze_threshold: 0, min_freeze_s: 1, bin_s: 10 })).toEqual({
      percent: null,
      freezing_frames: 0,
      valid_frames: 0,
      bins: [],
    });
    // One frame at 25 fps: duration 0.04 s, one bin; with min 0 the still frame is freezing.
    expect(summarize([0], 25, { freeze_threshold: 0, min_freeze_s: 0, bin_s: 10 })).toEqual({
      percent: 100,
      freezing_frames: 1,
      valid_frames: 1,
      bins: [{ start_s: 0, end_s: 0.04, percent: 100 }],
    });
  });

  it('ends the last bin at the duration', () => {
    // 25 frames at 10 fps = 2.5 s in 1 s bins → [0,1), [1,2), [2,2.5).
    const result = summarize(Array(25).fill(0), 10, { freeze_threshold: 0, min_freeze_s: 0, bin_s: 1 });
    expect(result.bins.map((bin) => [bin.start_s, bin.end_s])).toEqual([
      [0, 1],
      [1, 2],
      [2, 2.5],
    ]);
  });

  it('puts frame 3k at 30 fps into 0.1 s bin k despite binary rounding (9 / 30 / 0.1 = 2.9999999999999996)', () => {
    // Every third frame (the first of each bin) is still, the other two move: each bin is 1 of 3 = 33.3 %.
    // A frame slipping into the previous bin would give that bin 2 of 4 and the next 0 of 2.
    const values = Array.from({ length: 90 }, (_, frame) => (frame % 3 === 0 ? 0 : 5));
    const result = summarize(values, 30, { freeze_threshold: 0, min_freeze_s: 0, bin_s: 0.1 });
    expect(result.bins).toHaveLength(30);
    for (const bin of result.bins) expect(bin.percent).toBeCloseTo(100 / 3, 12);
  });

  it('rejects a non-positive fps or bin size', () => {
    expect(() => summarize([0], 0, { freeze_threshold: 0, min_freeze_s: 0, bin_s: 1 })).toThrow(RangeError);
    expect(() => summarize([0], 30, { freeze_threshold: 0, min_freeze_s: 0, bin_s: 0 })).toThrow(RangeError);
  });

  it('keeps percentages in [0, 100] and freezing frames within valid frames', () => {
    fc.assert(
      fc.property(valuesArbitrary, fpsArbitrary, parametersArbitrary, (values, fps, parameters) => {
        const result = summarize(values, fps, parameters);
        expect(result.freezing_frames).toBeLessThanOrEqual(result.valid_frames);
        expect(result.valid_frames).toBe(values.filter((value) => !Number.isNaN(value)).length);
        for (const percent of [result.percent, ...result.bins.map((bin) => bin.percent)]) {
          if (percent === null) continue;
          expect(percent).toBeGreaterThanOrEqual(0);
          expect(percent).toBeLessThanOrEqual(100);
        }
        expect(result.percent === null).toBe(result.valid_frames === 0);
      }),
    );
  });

  it('with min_freeze_s 0 counts exactly the still frames', () => {
    fc.assert(
      fc.property(valuesArbitrary, fpsArbitrary, parametersArbitrary, (values, fps, parameters) => {
        const result = summarize(values, fps, { ...parameters, min_freeze_s: 0 });
        const still = values.filter((value) => value <= parameters.freeze_threshold).length;
        expect(result.freezing_frames).toBe(still);
      }),
    );
  });

  it('never gains freezing when min_freeze_s grows', () => {
    fc.assert(
      fc.property(
        valuesArbitrary,
        fpsArbitrary,
        parametersArbitrary,
        fc.double({ min: 0, max: 2, noNaN: true }),
        (values, fps, parameters, extra) => {
          const shorter = summarize(values, fps, parameters).freezing_frames;
          const longer = summarize(values, fps, { ...parameters, min_freeze_s: parameters.min_freeze_s + extra });
          expect(longer.freezing_frames).toBeLessThanOrEqual(shorter);
        },
      ),
    );
  });

  it('matches a frame-by-frame reference, overall and per bin', () => {
    fc.assert(
      fc.property(valuesArbitrary, fpsArbitrary, parametersArbitrary, (values, fps, parameters) => {
        const series = Float64Array.from(values);
        const freezing = referenceFreezingFlags(series, fps, parameters);
        const result = freezingSummary(series, fps, parameters);
        expect(result.freezing_frames).toBe(freezing.filter(Boolean).length);

        const duration = values.length / fps;
        // Bins tile [0, duration] without gaps.
        if (values.length > 0) {
          expect(result.bins[0]!.start_s).toBe(0);
          expect(result.bins.at(-1)!.end_s).toBe(duration);
        }
        result.bins.forEach((bin, index) => {
          if (index > 0) expect(bin.start_s).toBe(result.bins[index - 1]!.end_s);
          // Frames whose time falls in the bin (same tolerance as the module; the last bin takes any remainder).
          const frames = values
            .map((_, frame) => frame)
            .filter((frame) => {
              const binOfFrame = Math.min(result.bins.length - 1, Math.floor(frame / fps / parameters.bin_s + 1e-9));
              return binOfFrame === index;
            });
          const valid = frames.filter((frame) => !Number.isNaN(values[frame]!));
          const frozen = valid.filter((frame) => freezing[frame]);
          expect(bin.percent).toBe(valid.length === 0 ? null : (frozen.length / valid.length) * 100);
        });
      }),
    );
  });
});
