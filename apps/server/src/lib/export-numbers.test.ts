import { describe, expect, it } from 'vitest';
import { exportPercent, exportRate, exportSeconds, formatExportNumber } from './export-numbers.js';

describe('export numbers', () => {
  it('writes every number without floating-point noise, losing nothing a double holds', () => {
    expect(formatExportNumber(20.199797999999998)).toBe('20.199798');
    expect(formatExportNumber(9.999999999999995)).toBe('10');
    expect(formatExportNumber(77.66588999999999)).toBe('77.66589');
    expect(formatExportNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatExportNumber(2.5e-7)).toBe('2.5e-7');
    expect(formatExportNumber(43_200)).toBe('43200');
    expect(formatExportNumber(2 ** 53)).toBe('9007199254740992');
    expect(formatExportNumber(Number.NaN)).toBe('');
    expect(formatExportNumber(Number.POSITIVE_INFINITY)).toBe('');
  });

  it('rounds times to the microsecond', () => {
    expect(exportSeconds(1 / 30)).toBe(0.033333);
    expect(exportSeconds(21599.966666666667)).toBe(21599.966667);
    expect(exportSeconds(-1e-9)).toBe(0);
    expect(exportSeconds(null)).toBeNull();
  });

  it('rounds a percentage of frames to the decimals one frame needs', () => {
    expect(exportPercent(9.999999999999995, 48_884)).toBe(10);
    expect(exportPercent(33.33333333333333, 100)).toBe(33);
    expect(exportPercent(33.33333333333333, 1800)).toBe(33.33);
    expect(exportPercent(33.33333333333333, 108_000)).toBe(33.3333);
    expect(exportPercent(33.33333333333333, 10 ** 12)).toBe(33.333333);
    expect(exportPercent(33.33333333333333)).toBe(33.33);
    expect(exportPercent(null, 100)).toBeNull();
  });

  it('rounds a rate per minute to 0.001', () => {
    expect(exportRate(3.829473856476557)).toBe(3.829);
    expect(exportRate(1 / 720)).toBe(0.001);
    expect(exportRate(null)).toBeNull();
  });
});
