import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// Lazy routes and first renders can take seconds on a loaded 2-core machine; a wait fails only after 5 s.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no matchMedia; the theme and the sidebar read it.
function installMatchMedia(matches = false) {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: vi.fn((query: string) => ({
      matches,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    })),
  });
}

// jsdom has no pointer capture; sonner captures the pointer when a toast is pressed (a click on a toast's link).
if (!Element.prototype.setPointerCapture) {
  Element.prototype.setPointerCapture = () => {};
  Element.prototype.releasePointerCapture = () => {};
  Element.prototype.hasPointerCapture = () => false;
}

// React reports a broken render (a list without keys, an element where it may not nest) on console.error and
// carries on; the browser suite fails on it, so the unit suite does too, where it is cheaper to find.
const reactWarnings: string[] = [];
const REACT_WARNING = /unique "key" prop|cannot be a descendant of|cannot contain a nested|is not a valid DOM/;
const printError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  const text = args.map(String).join(' ');
  if (REACT_WARNING.test(text)) reactWarnings.push(text);
  printError(...args);
};

beforeEach(() => {
  reactWarnings.length = 0;
  installMatchMedia(false);
  window.localStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    // biome-ignore lint/suspicious/noDocumentCookie: tests reset the cookies the app sets.
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  if (reactWarnings.length > 0) throw new Error(`React warned while rendering:\n${reactWarnings.join('\n')}`);
});
