import { useEffect, useRef } from 'react';

/** What the Annotator's keys do; the page supplies them. */
export interface AnnotatorKeyActions {
  /** The track whose hot key this is (one lower-case letter or digit), if any. */
  trackForKey: (key: string) => string | null;
  pressTrackKey: (track: string) => void;
  togglePlay: () => void;
  /** ±1 frame. */
  step: (frames: number) => void;
  /** ±1 second. */
  jump: (seconds: number) => void;
  setRate: (rate: number) => void;
  deleteSelected: () => void;
  undo: () => void;
  redo: () => void;
  zoom: (direction: 1 | -1) => void;
  cancel: () => void;
  readOnly: boolean;
}

/** Quick Score's speed keys: `,` 1×, `.` 0.5×, `/` 0.25×. */
export const SPEED_KEYS: Record<string, number> = { ',': 1, '.': 0.5, '/': 0.25 };

/** Keys typed into a field, a menu or a dialog belong to it, not to the Annotator. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return target.closest('input, textarea, select, [role="dialog"], [role="menu"], [role="listbox"]') !== null;
}

/**
 * The Annotator's keyboard, on the whole page: a track's hot key starts or ends its bout; Space plays or pauses;
 * ←/→ step a frame, Shift+←/→ a second; `,` `.` `/` set the speed; Delete/Backspace removes the selected bout;
 * Ctrl/⌘+Z undoes, Shift+Ctrl/⌘+Z (or Ctrl+Y) redoes; +/− zoom; Escape lets go of a started bout and the selection.
 * A viewer keeps playback and zoom.
 */
export function useAnnotatorKeys(actions: AnnotatorKeyActions) {
  const live = useRef(actions);
  live.current = actions;

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTyping(event.target)) return;
      const a = live.current;
      const command = event.ctrlKey || event.metaKey;
      const key = event.key;
      const handled = (() => {
        if (command && !event.altKey && (key === 'z' || key === 'Z')) {
          if (a.readOnly) return false;
          if (event.shiftKey) a.redo();
          else a.undo();
          return true;
        }
        if (command && !event.shiftKey && (key === 'y' || key === 'Y')) {
          if (a.readOnly) return false;
          a.redo();
          return true;
        }
        if (command || event.altKey) return false;
        if (key === ' ') {
          // A focused button would also click on Space: the page's play/pause wins.
          a.togglePlay();
          return true;
        }
        if (key === 'ArrowRight' || key === 'ArrowLeft') {
          const direction = key === 'ArrowRight' ? 1 : -1;
          if (event.shiftKey) a.jump(direction);
          else a.step(direction);
          return true;
        }
        if (key in SPEED_KEYS) {
          a.setRate(SPEED_KEYS[key]!);
          return true;
        }
        if (key === '+' || key === '=') {
          a.zoom(1);
          return true;
        }
        if (key === '-' || key === '_') {
          a.zoom(-1);
          return true;
        }
        if (key === 'Escape') {
          a.cancel();
          return true;
        }
        if (a.readOnly) return false;
        if (key === 'Delete' || key === 'Backspace') {
          a.deleteSelected();
          return true;
        }
        if (key.length === 1 && !event.repeat) {
          const track = a.trackForKey(key.toLowerCase());
          if (track) {
            a.pressTrackKey(track);
            return true;
          }
        }
        return false;
      })();
      if (handled) event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
