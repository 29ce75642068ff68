import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectEvents, type Series, sampleTime } from '../../analysis/engine/events.js';
import { freezingSummary } from '../../analysis/engine/freezing.js';
import { eventWarnings, freezingWarnings, sweepEvents, sweepFreezing, sweepValues } from './calibration.js';
import { eventAgreement } from './event-agreement.js';
import { intervalAgreement } from './interval-agreement.js';

/** Noise whose every 100 ms bin tops at 10 (at 30 fps), with spikes of the given heights (3 frames each). */
function spikySeries(frames: number, fps: number, spikes: [frame: number, height: number][]): Series {
  const values = Float64Array.from({ length: frames }, (_, i) => (i % 3 === 0 ? 10 : i % 2));
  for (const [frame, height] of spikes) for (let i = 0; i < 3; i++) values[frame + i] = height;
  return { values, times: null, fps };
}

describe('sweep values', () => {
  it('runs from `from` to `to` inclusive without floating-point drift', () => {
    const k = sweepValues({ from: 1, to: 10, step: 0.1 });
    expect(k).toHaveLength(91);
    expect(k[2]).toBe(1.2);
    expect(k.at(-1)).toBe(10);
    expect(sweepValues({ from: 0, to: 1, step: 0.3 })).toEqual([0, 0.3, 0.6, 0.9]);
    expect(sweepValues({ from: 5, to: 5, step: 1 })).toEqual([5]);
  });
});

describe('event calibration', () => {
  it('scores every setting exactly as a run with that setting would detect and the agreement would score', () => {
    const series = fc.record({
      values: fc.array(fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constant(Number.NaN)), {
        minLength: 1,
        maxLength: 400,
      }),
      fps: fc.constantFrom(10, 25, 30),
    });
    fc.assert(
      fc.property(
        series,
        fc.array(fc.double({ min: 0, max: 20, noNaN: true }), { maxLength: 20 }),
        fc.boolean(),
        fc.array(fc.constantFrom(0, 0.1, 0.3, 0.5, 1), { minLength: 1, maxLength: 3 }),
        (raw, reference, byK, refractories) => {
          const s: Series = { values: Float64Array.from(raw.values), times: null, fps: raw.fps };
          const values = byK ? [1, 1.5, 2.2, 3, 5] : [0, 4.5, 10, 20, 39.5];
          const sweep = sweepEvents({
            series: s,
            reference: Float64Array.from(reference),
            toleranceS: 0.2,
            mode: byK ? 'k' : 'threshold',
            values,
            refractories,
          });
          let index = 0;
          for (const value of values) {
            for (const refractory of refractories) {
              const parameters = {
                event_threshold_k: byK ? value : 3,
                event_threshold: byK ? null : value,
                refractory_s: refractory,
              };
              const detected = detectEvents(s, parameters);
              const times = Array.from(detected.onsets, (i) => sampleTime(s, i));
              const direct = eventAgreement(reference, times, 0.2);
              const point = sweep.points[index++]!;
              expect(point.threshold).toBe(detected.threshold);
              expect(point.events).toBe(times.length);
              expect([point.tp, point.fp, point.fn, point.f1]).toEqual([direct.tp, direct.fp, direct.fn, direct.f1]);
              if (direct.onset_error.mean_s === null) expect(point.onset_error_mean_s).toBeNull();
              else expect(point.onset_error_mean_s).toBeCloseTo(direct.onset_error.mean_s, 9);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds the k that separates the reference events from smaller bumps', () => {
    // The noise tops at 10; twenty tall spikes (60) are the behaviour, ten medium bumps (25) are not.
    const fps = 30;
    const tall = Array.from({ length: 20 }, (_, i) => 90 + i * 120);
    const medium = Array.from({ length: 10 }, (_, i) => 150 + i * 240);
    const series = spikySeries(3000, fps, [
      ...tall.map((f) => [f, 60] as [number, number]),
      ...medium.map((f) => [f, 25] as [number, number]),
    ]);
    const reference = Float64Array.from(tall, (frame) => frame / fps);
    const sweep = sweepEvents({
      series,
      reference,
      toleranceS: 0.2,
      mode: 'k',
      values: sweepValues({ from: 1, to: 10, step: 0.1 }),
      refractories: [0.5],
    });
    expect(sweep.noiseTop).toBe(10);
    const best = sweep.points[sweep.best]!;
    expect(best.f1).toBe(1);
    // Above 2.5 × 10 the medium bumps stop counting, above 6 × 10 nothing does.
    expect(best.event_threshold_k).toBeGreaterThanOrEqual(2.5);
    expect(best.event_threshold_k).toBeLessThan(6);
    // The earliest of the perfect settings wins (all onsets are exact, so the mean |Δt| ties at 0).
    expect(best.event_threshold_k).toBe(2.5);
    const low = sweep.points.find((p) => p.event_threshold_k === 1.5)!;
    expect([low.events, low.tp, low.fp, low.fn]).toEqual([30, 20, 10, 0]);
    expect(sweep.points.find((p) => p.event_threshold_k === 6)!.events).toBe(0);
  });

  it('warns when the reference has fewer than 10 events', () => {
    expect(eventWarnings(9)[0]).toMatch(/only 9 events \(fewer than 10\)/);
    expect(eventWarnings(1)[0]).toMatch(/only 1 event \(/);
    expect(eventWarnings(10)).toEqual([]);
  });
});

describe('freezing calibration', () => {
  it('gives, per setting, the freezing summary a run with that setting would give', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 30 }), fc.constant(Number.NaN)), { minLength: 1, maxLength: 500 }),
        fc.constantFrom(10, 30),
        fc.constantFrom(0.5, 2, 7.5),
        (raw, fps, binS) => {
          const values = Float64Array.from(raw);
          const thresholds = [0, 5, 12.5, 30];
          const minDurations = [0, 0.2, 1];
          const sweep = sweepFreezing({ values, fps, reference: [[1, 3]], thresholds, minDurations, binS });
          let index = 0;
          for (const threshold of thresholds) {
            for (const min of minDurations) {
              const summary = freezingSummary(values, fps, {
                freeze_threshold: threshold,
                min_freeze_s: min,
                bin_s: binS,
              });
              const point = sweep.points[index++]!;
              expect(point.percent).toBe(summary.percent);
              if (index - 1 === sweep.best) {
                expect(sweep.bins.map((b) => b.candidate_percent)).toEqual(summary.bins.map((b) => b.percent));
                expect(sweep.bins.map((b) => [b.start_s, b.end_s])).toEqual(
                  summary.bins.map((b) => [b.start_s, b.end_s]),
                );
              }
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('scores each setting by r, slope and mean absolute difference of the binned % against the reference', () => {
    // 60 s at 10 fps, bins of 10 s. The animal is still (value 0) in stretches that grow bin by bin; moving elsewhere.
    const fps = 10;
    const values = new Float64Array(600).fill(50);
    const still: [number, number][] = [];
    for (let bin = 0; bin < 6; bin++) {
      const start = bin * 10 + 1;
      const length = bin + 1;
      values.fill(2, start * fps, (start + length) * fps);
      still.push([start, start + length]);
    }
    const sweep = sweepFreezing({
      values,
      fps,
      reference: still,
      thresholds: [1, 2, 60],
      minDurations: [0.5, 3],
      binS: 10,
    });
    const exact = sweep.points.find((p) => p.freeze_threshold === 2 && p.min_freeze_s === 0.5)!;
    expect(exact.mean_abs_diff).toBe(0);
    expect(exact.pearson_r).toBeCloseTo(1, 12);
    expect(exact.slope).toBeCloseTo(1, 12);
    expect(exact.percent).toBeCloseTo((21 / 60) * 100, 12);
    expect(sweep.points[sweep.best]).toBe(exact);
    // Threshold 1 sees no stillness at all; a 3 s minimum drops the 1 and 2 s stretches.
    expect(sweep.points.find((p) => p.freeze_threshold === 1 && p.min_freeze_s === 0.5)!.percent).toBe(0);
    const longOnly = sweep.points.find((p) => p.freeze_threshold === 2 && p.min_freeze_s === 3)!;
    expect(longOnly.mean_abs_diff).toBeCloseTo((10 + 20) / 6, 12);
    // Everything frozen at threshold 60: 100% in every bin.
    expect(sweep.points.find((p) => p.freeze_threshold === 60 && p.min_freeze_s === 0.5)!.percent).toBe(100);
    // The reference side equals the interval agreement's binned % over the same frames.
    const agreement = intervalAgreement({ count: 600, sliceS: 0.1, fps }, still, [], 10);
    expect(sweep.bins.map((b) => b.reference_percent)).toEqual(agreement.bins.map((b) => b.reference_percent));
    expect(freezingWarnings(sweep)).toEqual([]);
  });

  it('leaves bypassed frames out of both sides', () => {
    const fps = 10;
    const values = new Float64Array(200).fill(0);
    values.fill(Number.NaN, 0, 100);
    const sweep = sweepFreezing({ values, fps, reference: [[0, 15]], thresholds: [1], minDurations: [1], binS: 10 });
    // The reference covers 15 s, but only 5 s of it are frames that count.
    expect(sweep.referenceSeconds).toBe(5);
    expect(sweep.bins.map((b) => b.reference_percent)).toEqual([null, 50]);
    expect(sweep.points[0]!.percent).toBe(100);
  });

  it('warns when the reference is too thin or too thick, or the bins too few', () => {
    const fps = 10;
    const values = new Float64Array(1200).fill(5);
    const thin = sweepFreezing({ values, fps, reference: [[1, 5]], thresholds: [1], minDurations: [1], binS: 60 });
    expect(freezingWarnings(thin)).toEqual([
      'The reference holds only 4 s of the behaviour (less than 10 s): too little to trust the best setting.',
      'Only 2 bins of data: r and the slope need at least 5 to mean anything (two points always make r = ±1). Choose a shorter bin.',
    ]);
    const thick = sweepFreezing({ values, fps, reference: [[0, 115]], thresholds: [1], minDurations: [1], binS: 20 });
    expect(freezingWarnings(thick)).toEqual([
      'The reference is in the behaviour 95.8% of the time (more than 90%): too little contrast to trust the best setting.',
    ]);
    // Four bins are still too few for r and the slope (MIN_FIT_BINS, five).
    const four = sweepFreezing({ values, fps, reference: [[0, 60]], thresholds: [1], minDurations: [1], binS: 30 });
    expect(freezingWarnings(four)).toContain(
      'Only 4 bins of data: r and the slope need at least 5 to mean anything (two points always make r = ±1). Choose a shorter bin.',
    );
  });
});
