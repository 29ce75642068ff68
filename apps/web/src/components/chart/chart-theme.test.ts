import { describe, expect, it } from 'vitest';
import { chartColors, documentChartColors } from './chart-theme';

describe('chart colours', () => {
  it('come from the theme variables when they are set', () => {
    const variables: Record<string, string> = { '--primary': ' oklch(0.5 0.2 277) ', '--success': 'green' };
    const colors = chartColors((name) => variables[name] ?? '');
    expect(colors.series).toBe('oklch(0.5 0.2 277)');
    expect(colors.compare).toBe('green');
  });

  it('fall back to fixed colours without the stylesheet, and differ between series and compare', () => {
    const colors = chartColors(() => '');
    for (const value of Object.values(colors)) expect(value).not.toBe('');
    expect(colors.series).not.toBe(colors.compare);
  });

  it('follow the document’s current values', () => {
    document.documentElement.style.setProperty('--primary', 'rebeccapurple');
    try {
      expect(documentChartColors().series).toBe('rebeccapurple');
    } finally {
      document.documentElement.style.removeProperty('--primary');
    }
  });
});
