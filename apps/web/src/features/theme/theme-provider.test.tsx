import { act, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ThemeProvider, useTheme } from './theme-provider';

let api: ReturnType<typeof useTheme> | null = null;
function Probe() {
  api = useTheme();
  return null;
}

describe('theme (spec §3, §4)', () => {
  it('defaults to system and stores the choice under vite-ui-theme', () => {
    render(
      <ThemeProvider>
        <Probe />
      </ThemeProvider>,
    );
    expect(api!.theme).toBe('system');
    expect(document.documentElement.classList.contains('light')).toBe(true);
    act(() => api!.setTheme('dark'));
    expect(localStorage.getItem('vite-ui-theme')).toBe('dark');
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(document.documentElement.classList.contains('light')).toBe(false);
  });

  it('starts from the stored theme', () => {
    localStorage.setItem('vite-ui-theme', 'dark');
    render(
      <ThemeProvider>
        <Probe />
      </ThemeProvider>,
    );
    expect(api!.theme).toBe('dark');
    expect(api!.resolvedTheme).toBe('dark');
  });
});
