import { act, render, screen } from '@testing-library/react';
import { toast } from 'sonner';
import { describe, expect, it } from 'vitest';
import { ThemeProvider } from '@/features/theme/theme-provider';
import { TOAST_DURATION, TOAST_VISIBLE, Toaster } from './sonner';

describe('toasts (spec §9)', () => {
  it('appear top-center, last 4 s, at most 3 visible', async () => {
    expect(TOAST_DURATION).toBe(4000);
    expect(TOAST_VISIBLE).toBe(3);
    render(
      <ThemeProvider>
        <Toaster />
      </ThemeProvider>,
    );
    act(() => {
      for (let i = 1; i <= 5; i++) toast.error(`Problem ${i}\nsecond line`);
    });
    const list = await screen.findByRole('list');
    expect(list.getAttribute('data-y-position')).toBe('top');
    expect(list.getAttribute('data-x-position')).toBe('center');
    const visible = [...document.querySelectorAll('[data-sonner-toast]')].filter(
      (el) => el.getAttribute('data-visible') === 'true',
    );
    expect(visible).toHaveLength(3);
  });
});
