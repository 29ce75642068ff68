import { describe, expect, it } from 'vitest';
import { formatCell, formatDf, formatFigure, formatP, measureLabel, pMethod } from './figures-text';

describe('results and statistics in words', () => {
  it('figures to four significant digits; tiny and huge ones in e-notation', () => {
    expect(formatFigure(1.23456)).toBe('1.235');
    expect(formatFigure(12345.678)).toBe('12350');
    expect(formatFigure(0.000012)).toBe('1.20e-5');
    expect(formatFigure(0)).toBe('0');
    expect(formatFigure(null)).toBe('—');
  });

  it('p-values never read as zero', () => {
    expect(formatP(0.04567)).toBe('0.0457');
    expect(formatP(0.0001234)).toBe('1.23e-4');
    expect(formatP(1)).toBe('1');
    expect(formatP(null)).toBe('—');
  });

  it('cells, degrees of freedom and how each p was found', () => {
    expect(formatCell(0.1 + 0.2)).toBe('0.3');
    expect(formatCell(null)).toBe('—');
    expect(formatCell(true)).toBe('yes');
    expect(formatCell('M1')).toBe('M1');
    expect(formatDf({ df1: 7.8912, df2: null })).toBe('7.891');
    expect(formatDf({ df1: 2, df2: 5.123 })).toBe('2, 5.123');
    expect(formatDf({ df1: null, df2: null })).toBe('—');
    expect(pMethod({ test: 'Mann–Whitney U test (exact)', statistic_name: 'U', p: 0.1 })).toBe('exact');
    expect(
      pMethod({
        test: 'Mann–Whitney U test (normal approximation, continuity and tie corrections)',
        statistic_name: 'U',
        p: 0.1,
      }),
    ).toBe('normal approximation');
    expect(pMethod({ test: "Welch's t-test", statistic_name: 't', p: 0.2 })).toBe('t distribution');
    expect(pMethod({ test: "Hedges' g (exact J)", statistic_name: 'g', p: null })).toBe('—');
    expect(measureLabel({ name: 'detected_events', unit: 'events' })).toBe('detected_events (events)');
  });
});
