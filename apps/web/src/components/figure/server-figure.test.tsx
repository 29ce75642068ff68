import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServerFigure } from './server-figure';

describe('a server figure shown from its SVG', () => {
  const revoked = new Set<string>();
  let made = 0;
  beforeEach(() => {
    revoked.clear();
    made = 0;
    URL.createObjectURL = vi.fn(() => `blob:figure-${++made}`);
    URL.revokeObjectURL = vi.fn((url: string) => void revoked.add(url));
  });
  afterEach(() => vi.restoreAllMocks());

  const figure = (data: Blob | undefined) => (
    <ServerFigure
      title="Plot"
      alt="the plot"
      caption="A plot."
      svg={{ data, isError: false, error: null }}
      onDownload={async () => {}}
    />
  );

  it('never shows a released URL when the figure is read again', () => {
    const view = render(figure(new Blob(['<svg/>'])));
    expect(screen.getByRole('img').getAttribute('src')).toBe('blob:figure-1');
    // Read again: no figure while it loads, then the new one; the old URL is released.
    view.rerender(figure(undefined));
    expect(screen.queryByRole('img')).toBeNull();
    expect(revoked.has('blob:figure-1')).toBe(true);
    // Every src the picture takes on the way (a released one would fail to load in a browser).
    const seen = new MutationObserver(() => {});
    seen.observe(view.container, {
      subtree: true,
      attributes: true,
      attributeOldValue: true,
      attributeFilter: ['src'],
    });
    view.rerender(figure(new Blob(['<svg/>'])));
    const shown = seen.takeRecords().map((record) => record.oldValue);
    seen.disconnect();
    expect(shown.filter((url) => url !== null && revoked.has(url))).toEqual([]);
    const src = screen.getByRole('img').getAttribute('src')!;
    expect(src).toBe('blob:figure-2');
    expect(revoked.has(src)).toBe(false);
    view.unmount();
    expect(revoked.has('blob:figure-2')).toBe(true);
  });
});
