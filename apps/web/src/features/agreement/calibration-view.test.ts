import { describe, expect, it } from 'vitest';
import type { EventCalibration, FreezingCalibration } from './api';
import { bestSummary, eventCurves, freezingCurves } from './calibration-view';

const point = (k: number, refractory: number, f1: number) => ({
  event_threshold_k: k,
  threshold: k * 10,
  refractory_s: refractory,
  events: 10,
  tp: Math.round(f1 * 10),
  fp: 1,
  fn: 2,
  precision: f1,
  recall: f1,
  f1,
  onset_error_mean_s: 0,
  mean_abs_error_s: 0,
});

describe('calibration view', () => {
  it('draws one F1 curve per refractory period over k, ringing the best point', () => {
    const result = {
      target: 'events',
      sweep: 'k',
      points: [point(1, 0.5, 0.4), point(1, 1, 0.5), point(2, 0.5, 0.9), point(2, 1, 0.7)],
      best: { index: 2, parameters: { event_threshold_k: 2, event_threshold: null, refractory_s: 0.5 } },
    } as unknown as EventCalibration;
    const curves = eventCurves(result, 'f1');
    expect(curves.x).toEqual([1, 2]);
    expect(curves.series).toEqual([
      { label: 'refractory 0.5 s', values: [0.4, 0.9] },
      { label: 'refractory 1 s', values: [0.5, 0.7] },
    ]);
    expect(curves.marker).toEqual({ x: 2, y: 0.9 });
    expect(bestSummary(result)).toBe('k = 2 (threshold 20), refractory 0.5 s: F1 0.9 (TP 9, FP 1, FN 2), 10 events');
  });

  it('draws the freezing score per minimum duration over the freeze threshold', () => {
    const p = (threshold: number, min: number, diff: number | null) => ({
      freeze_threshold: threshold,
      min_freeze_s: min,
      percent: 50,
      pearson_r: 0.9,
      slope: 1.1,
      mean_abs_diff: diff,
    });
    const result = {
      target: 'freezing',
      points: [p(0, 1, 9), p(5, 1, 3), p(0, 2, null), p(5, 2, 4)],
      best: { index: 1 },
    } as unknown as FreezingCalibration;
    const curves = freezingCurves(result, 'mean_abs_diff');
    expect(curves.series.map((s) => s.values)).toEqual([
      [9, 3],
      [null, 4],
    ]);
    expect(curves.marker).toEqual({ x: 5, y: 3 });
    expect(bestSummary(result)).toBe(
      'freeze threshold 5, minimum 1 s: mean |difference| 3 % points, r 0.9, slope 1.1, 50% freezing',
    );
  });

  it('has no best line and no marker when the server recommends nothing', () => {
    const result = {
      target: 'events',
      sweep: 'k',
      points: [point(1, 0.5, 0), point(2, 0.5, 0)],
      best: null,
      no_recommendation: 'No setting finds any of the reference’s events.',
    } as unknown as EventCalibration;
    expect(bestSummary(result)).toBeNull();
    expect(eventCurves(result, 'f1').marker).toBeNull();
  });
});
