import { describe, expect, it } from 'vitest';
import { commandFor, isTextEntry, type KeyPress, ShiftTap } from './review-keys';

const press = (key: string, modifiers: Partial<KeyPress> = {}): KeyPress => ({
  key,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...modifiers,
});

describe('Quick Score keys', () => {
  it('maps the brief’s keys', () => {
    expect(commandFor(press('ArrowRight'))).toBe('next');
    expect(commandFor(press('ArrowLeft'))).toBe('previous');
    expect(commandFor(press(' '))).toBe('replay');
    expect(commandFor(press(','))).toBe('rate-1');
    expect(commandFor(press('.'))).toBe('rate-0.5');
    expect(commandFor(press('/'))).toBe('rate-0.25');
    expect(commandFor(press('d'))).toBe('discard');
    expect(commandFor(press('D', { shiftKey: true }))).toBe('discard');
    expect(commandFor(press('f'))).toBe('flag');
  });

  it('maps the additions: undo, redo (Ctrl or Cmd), U, ? and Alt+arrows', () => {
    expect(commandFor(press('z', { ctrlKey: true }))).toBe('undo');
    expect(commandFor(press('z', { metaKey: true }))).toBe('undo');
    expect(commandFor(press('Z', { ctrlKey: true, shiftKey: true }))).toBe('redo');
    expect(commandFor(press('z', { metaKey: true, shiftKey: true }))).toBe('redo');
    expect(commandFor(press('u'))).toBe('next-unreviewed');
    expect(commandFor(press('?', { shiftKey: true }))).toBe('help');
    expect(commandFor(press('ArrowLeft', { altKey: true }))).toBe('nudge-earlier');
    expect(commandFor(press('ArrowRight', { altKey: true }))).toBe('nudge-later');
  });

  it('maps the suggestions’ keys: A accepts, Shift+A accepts all ≥ p, O orders uncertain first', () => {
    expect(commandFor(press('a'))).toBe('accept');
    expect(commandFor(press('A', { shiftKey: true }))).toBe('accept-all');
    expect(commandFor(press('o'))).toBe('order');
    expect(commandFor(press('a', { ctrlKey: true }))).toBeNull();
  });

  it('leaves other combinations to the browser', () => {
    expect(commandFor(press('d', { ctrlKey: true }))).toBeNull();
    expect(commandFor(press('r', { metaKey: true }))).toBeNull();
    expect(commandFor(press('f', { altKey: true }))).toBeNull();
    expect(commandFor(press('x'))).toBeNull();
    expect(commandFor(press('Enter'))).toBeNull();
  });

  it('knows text fields', () => {
    const input = document.createElement('input');
    const checkbox = Object.assign(document.createElement('input'), { type: 'checkbox' });
    const editable = document.createElement('div');
    editable.contentEditable = 'true';
    Object.defineProperty(editable, 'isContentEditable', { value: true });
    expect(isTextEntry(input)).toBe(true);
    expect(isTextEntry(document.createElement('textarea'))).toBe(true);
    expect(isTextEntry(document.createElement('select'))).toBe(true);
    expect(isTextEntry(editable)).toBe(true);
    expect(isTextEntry(checkbox)).toBe(false);
    expect(isTextEntry(document.createElement('button'))).toBe(false);
    expect(isTextEntry(document.body)).toBe(false);
  });

  it('opens the label menu on a tap of Shift only', () => {
    const tap = new ShiftTap();
    tap.down(press('Shift', { shiftKey: true }), 0);
    expect(tap.up(press('Shift'), 120)).toBe(true);
    // Shift held for "?".
    tap.down(press('Shift', { shiftKey: true }), 0);
    tap.down(press('?', { shiftKey: true }), 50);
    expect(tap.up(press('Shift'), 100)).toBe(false);
    // Shift+Ctrl+Z.
    tap.down(press('Control', { ctrlKey: true }), 0);
    tap.down(press('Shift', { ctrlKey: true, shiftKey: true }), 10);
    expect(tap.up(press('Shift'), 40)).toBe(false);
    // Held a long time, or interrupted by a click.
    tap.down(press('Shift', { shiftKey: true }), 0);
    expect(tap.up(press('Shift'), 1500)).toBe(false);
    tap.down(press('Shift', { shiftKey: true }), 0);
    tap.cancel();
    expect(tap.up(press('Shift'), 10)).toBe(false);
  });
});
