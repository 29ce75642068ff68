import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  SIDEBAR_COOKIE_MAX_AGE,
  SIDEBAR_WIDTH,
  SIDEBAR_WIDTH_ICON,
  SIDEBAR_WIDTH_MOBILE,
  Sidebar,
  SidebarProvider,
  SidebarTrigger,
  useSidebar,
} from './sidebar';
import { SIDEBAR_TOOLTIP_DELAY, TOOLTIP_DELAY } from './tooltip';

function State() {
  const { state } = useSidebar();
  return <output data-testid="state">{state}</output>;
}

function mount() {
  return render(
    <SidebarProvider>
      <Sidebar>nav</Sidebar>
      <SidebarTrigger />
      <State />
    </SidebarProvider>,
  );
}

describe('sidebar (spec §2, §9)', () => {
  it('uses the spec widths, tooltip delays and a 7-day cookie', () => {
    expect([SIDEBAR_WIDTH, SIDEBAR_WIDTH_MOBILE, SIDEBAR_WIDTH_ICON]).toEqual(['16rem', '18rem', '3rem']);
    expect(SIDEBAR_COOKIE_MAX_AGE).toBe(7 * 24 * 60 * 60);
    expect([TOOLTIP_DELAY, SIDEBAR_TOOLTIP_DELAY]).toEqual([100, 1000]);
  });

  it('toggles with Ctrl+B and Cmd+B and remembers the state in a cookie and local storage', () => {
    const cookie = vi.spyOn(document, 'cookie', 'set');
    mount();
    expect(screen.getByTestId('state').textContent).toBe('expanded');
    act(() => {
      fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    });
    expect(screen.getByTestId('state').textContent).toBe('collapsed');
    expect(cookie).toHaveBeenLastCalledWith(expect.stringMatching(/^sidebar_state=false; path=\/; max-age=604800/));
    expect(localStorage.getItem('sidebar_state')).toBe('false');
    act(() => {
      fireEvent.keyDown(window, { key: 'B', metaKey: true });
    });
    expect(screen.getByTestId('state').textContent).toBe('expanded');
    expect(localStorage.getItem('sidebar_state')).toBe('true');
  });

  it('starts from the remembered state', () => {
    localStorage.setItem('sidebar_state', 'false');
    mount();
    expect(screen.getByTestId('state').textContent).toBe('collapsed');
  });

  it('is a drawer below 768px', () => {
    window.matchMedia = vi.fn((query: string) => ({
      matches: query === '(max-width: 767px)',
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }));
    mount();
    expect(screen.queryByText('nav')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Toggle sidebar' }));
    expect(screen.getByRole('dialog', { name: 'Navigation' }).textContent).toContain('nav');
  });
});
