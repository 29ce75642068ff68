import { describe, expect, it } from 'vitest';
import { noMovementAboveNoise } from './still-series';

describe('noMovementAboveNoise', () => {
  it('is true for a still video: all zero, noise top 0', () => {
    expect(noMovementAboveNoise(new Float64Array(300), 0)).toBe(true);
  });
  it('is true when nothing rises above a non-zero noise top, bypassed frames aside', () => {
    expect(noMovementAboveNoise([3, 5, Number.NaN, 4], 5)).toBe(true);
  });
  it('is false as soon as one frame rises above the noise top', () => {
    expect(noMovementAboveNoise([0, 0, 1, 0], 0)).toBe(false);
  });
  it('is false without a noise top or without analysed frames', () => {
    expect(noMovementAboveNoise([0, 0], null)).toBe(false);
    expect(noMovementAboveNoise([Number.NaN, Number.NaN], 0)).toBe(false);
    expect(noMovementAboveNoise([], 0)).toBe(false);
  });
});
