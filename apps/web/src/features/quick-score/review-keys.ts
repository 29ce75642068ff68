/**
 * Quick Score's keys, exactly as the product brief gives them (none needs a numpad), plus undo/redo, U, ? and
 * Alt+←/→ (move the event by a frame, the keyboard's way to do what dragging the centre line does), and for
 * suggestions (ADR 038) A (accept the event's suggestion), Shift+A ("accept all ≥ p…") and O (uncertain first).
 */
export type Command =
  | 'next'
  | 'previous'
  | 'replay'
  | 'rate-1'
  | 'rate-0.5'
  | 'rate-0.25'
  | 'discard'
  | 'flag'
  | 'undo'
  | 'redo'
  | 'next-unreviewed'
  | 'help'
  | 'nudge-earlier'
  | 'nudge-later'
  | 'accept'
  | 'accept-all'
  | 'order';

/** Commands that change the run: none of them works for a viewer. */
export const EDITING_COMMANDS: ReadonlySet<Command> = new Set([
  'discard',
  'flag',
  'undo',
  'redo',
  'nudge-earlier',
  'nudge-later',
  'accept',
  'accept-all',
]);

export interface KeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/** The command of a key press, or null. (A tap of Shift alone opens the label menu: see ShiftTap.) */
export function commandFor(press: KeyPress): Command | null {
  const command = press.ctrlKey || press.metaKey;
  if (command) {
    if (press.altKey || press.key.toLowerCase() !== 'z') return null;
    return press.shiftKey ? 'redo' : 'undo';
  }
  if (press.altKey) {
    if (press.key === 'ArrowLeft') return 'nudge-earlier';
    if (press.key === 'ArrowRight') return 'nudge-later';
    return null;
  }
  switch (press.key) {
    case 'ArrowRight':
      return 'next';
    case 'ArrowLeft':
      return 'previous';
    case ' ':
      return 'replay';
    case ',':
      return 'rate-1';
    case '.':
      return 'rate-0.5';
    case '/':
      return 'rate-0.25';
    case '?':
      return 'help';
  }
  switch (press.key.toLowerCase()) {
    case 'd':
      return 'discard';
    case 'f':
      return 'flag';
    case 'u':
      return 'next-unreviewed';
    case 'a':
      return press.shiftKey ? 'accept-all' : 'accept';
    case 'o':
      return 'order';
  }
  return null;
}

/** Keys typed into a field are the field's (the label menu's own field handles its keys itself). */
export function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'file', 'color'].includes(target.type);
}

/**
 * Shift pressed and released with nothing in between is a tap (it opens the label menu); Shift held for `?`,
 * Shift+Ctrl+Z or a Shift+click is not.
 */
export class ShiftTap {
  private armedAt: number | null = null;

  down(press: KeyPress & { repeat?: boolean }, now: number) {
    if (press.key === 'Shift' && !press.repeat && !press.ctrlKey && !press.metaKey && !press.altKey) {
      this.armedAt = now;
    } else this.armedAt = null;
  }

  /** True when this key release completes a tap. */
  up(press: Pick<KeyPress, 'key'>, now: number): boolean {
    const tapped = press.key === 'Shift' && this.armedAt !== null && now - this.armedAt < 1000;
    this.armedAt = null;
    return tapped;
  }

  cancel() {
    this.armedAt = null;
  }
}
