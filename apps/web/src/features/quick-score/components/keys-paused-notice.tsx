import { Keyboard } from 'lucide-react';
import { useEffect, useState } from 'react';
import { isTextEntry } from '../review-keys';

/** The name a form field goes by: its label, else its aria-label. */
function fieldName(element: HTMLElement): string {
  const label = (element as HTMLInputElement).labels?.[0]?.textContent?.trim();
  return label || element.getAttribute('aria-label') || 'a form field';
}

/** A field of the page (not of a dialog such as the label menu, which handles its own keys) that takes the keys. */
function pausingField(element: Element | null): HTMLElement | null {
  if (!(element instanceof HTMLElement) || !isTextEntry(element) || element.closest('[role="dialog"]')) return null;
  return element;
}

/**
 * Quick Score's keys pause while a field of the page has the focus (so typing or choosing there is not a discard):
 * this says so, names the field, and Escape hands the keys back.
 */
export function KeysPausedNotice() {
  const [field, setField] = useState<string | null>(null);
  useEffect(() => {
    const onFocusIn = () => {
      const element = pausingField(document.activeElement);
      setField(element ? fieldName(element) : null);
    };
    const onFocusOut = () => setField(null);
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      const element = pausingField(event.target as Element | null);
      if (!element) return;
      event.preventDefault();
      element.blur();
    };
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', onFocusOut);
    document.addEventListener('keydown', onKeyDown);
    onFocusIn();
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('focusout', onFocusOut);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, []);
  if (!field) return null;
  return (
    <p
      role="status"
      data-testid="keys-paused"
      className="-translate-x-1/2 fixed bottom-4 left-1/2 z-40 flex items-center gap-2 rounded-full border bg-background px-4 py-2 text-sm shadow-md"
    >
      <Keyboard className="size-4 text-muted-foreground" aria-hidden="true" />
      Keyboard shortcuts are paused while “{field}” has the focus. Press Esc to use them again.
    </p>
  );
}
