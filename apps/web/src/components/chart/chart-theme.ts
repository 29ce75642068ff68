/** Canvas colours for the series chart, read from the app's theme variables (index.css) so light and dark both fit. */
export interface ChartColors {
  series: string;
  compare: string;
  axis: string;
  grid: string;
  event: string;
  discarded: string;
  selected: string;
  bypass: string;
  threshold: string;
}

// Used when the variables are missing (a page without the app's stylesheet, such as the benchmark harness).
const FALLBACK: ChartColors = {
  series: '#4f46e5',
  compare: '#16a34a',
  axis: '#6b7280',
  grid: 'rgba(127, 127, 127, 0.2)',
  event: '#dc2626',
  discarded: '#6b7280',
  selected: '#dc2626',
  bypass: '#6b7280',
  threshold: '#6b7280',
};

const VARIABLES: Record<keyof ChartColors, string> = {
  series: '--primary',
  compare: '--success',
  axis: '--muted-foreground',
  grid: '--border',
  event: '--destructive',
  discarded: '--muted-foreground',
  selected: '--destructive',
  bypass: '--muted-foreground',
  threshold: '--foreground',
};

/** The current theme's chart colours; `read` returns a CSS variable's value ('' when unset). */
export function chartColors(read: (variable: string) => string): ChartColors {
  const colors = { ...FALLBACK };
  for (const key of Object.keys(VARIABLES) as (keyof ChartColors)[]) {
    const value = read(VARIABLES[key]).trim();
    if (value) colors[key] = value;
  }
  return colors;
}

export function documentChartColors(): ChartColors {
  const style = getComputedStyle(document.documentElement);
  return chartColors((variable) => style.getPropertyValue(variable));
}
