import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { type AnnotatorKeyActions, useAnnotatorKeys } from './use-annotator-keys';

function setup(readOnly = false) {
  const actions: AnnotatorKeyActions = {
    trackForKey: (key) => (key === 'g' ? 'grooming' : null),
    pressTrackKey: vi.fn(),
    togglePlay: vi.fn(),
    step: vi.fn(),
    jump: vi.fn(),
    setRate: vi.fn(),
    deleteSelected: vi.fn(),
    undo: vi.fn(),
    redo: vi.fn(),
    zoom: vi.fn(),
    cancel: vi.fn(),
    readOnly,
  };
  renderHook(() => useAnnotatorKeys(actions));
  const press = (key: string, init: KeyboardEventInit = {}, target: EventTarget = document.body) => {
    const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
    target.dispatchEvent(event);
    return event.defaultPrevented;
  };
  return { actions, press };
}

describe('the Annotator keys', () => {
  it('a hot key (either case) marks its track; other letters pass through', () => {
    const { actions, press } = setup();
    expect(press('g')).toBe(true);
    expect(press('G', { shiftKey: true })).toBe(true);
    expect(actions.pressTrackKey).toHaveBeenCalledTimes(2);
    expect(actions.pressTrackKey).toHaveBeenCalledWith('grooming');
    expect(press('q')).toBe(false);
    // Held down, the key repeats: one bout edge per press, not dozens.
    press('g', { repeat: true });
    expect(actions.pressTrackKey).toHaveBeenCalledTimes(2);
  });

  it('plays, steps, jumps, sets the speed and zooms', () => {
    const { actions, press } = setup();
    press(' ');
    press('ArrowRight');
    press('ArrowLeft', { shiftKey: true });
    press(',');
    press('.');
    press('/');
    press('+');
    press('-');
    expect(actions.togglePlay).toHaveBeenCalledTimes(1);
    expect(actions.step).toHaveBeenCalledWith(1);
    expect(actions.jump).toHaveBeenCalledWith(-1);
    expect(vi.mocked(actions.setRate).mock.calls).toEqual([[1], [0.5], [0.25]]);
    expect(vi.mocked(actions.zoom).mock.calls).toEqual([[1], [-1]]);
  });

  it('deletes, undoes with Ctrl/⌘+Z and redoes with Shift+Ctrl/⌘+Z', () => {
    const { actions, press } = setup();
    press('Delete');
    press('Backspace');
    press('z', { ctrlKey: true });
    press('z', { metaKey: true, shiftKey: true });
    press('Z', { ctrlKey: true, shiftKey: true });
    expect(actions.deleteSelected).toHaveBeenCalledTimes(2);
    expect(actions.undo).toHaveBeenCalledTimes(1);
    expect(actions.redo).toHaveBeenCalledTimes(2);
  });

  it('leaves keys typed into a field alone', () => {
    const { actions, press } = setup();
    const input = document.createElement('input');
    document.body.append(input);
    expect(press('g', {}, input)).toBe(false);
    expect(press(' ', {}, input)).toBe(false);
    expect(actions.pressTrackKey).not.toHaveBeenCalled();
    input.remove();
  });

  it('a viewer keeps playback and zoom, nothing that changes bouts', () => {
    const { actions, press } = setup(true);
    press('g');
    press('Delete');
    press('z', { ctrlKey: true });
    press(' ');
    press('+');
    expect(actions.pressTrackKey).not.toHaveBeenCalled();
    expect(actions.deleteSelected).not.toHaveBeenCalled();
    expect(actions.undo).not.toHaveBeenCalled();
    expect(actions.togglePlay).toHaveBeenCalled();
    expect(actions.zoom).toHaveBeenCalled();
  });
});
