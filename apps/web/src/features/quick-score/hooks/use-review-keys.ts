import { useEffect, useRef } from 'react';
import { type Command, commandFor, EDITING_COMMANDS, isTextEntry, ShiftTap } from '../review-keys';

/**
 * Quick Score's keys on the whole window while the page is open. Keys do nothing while a text field has focus or a
 * dialog of the page is open (the label menu handles its own); a viewer's editing keys are inert. `requestedAt` is
 * the key press's time, which starts the clip-latency measure.
 */
export function useReviewKeys(options: {
  enabled: boolean;
  canEdit: boolean;
  helpOpen: boolean;
  onCommand: (command: Command, requestedAt: number) => void;
  onShiftTap: () => void;
  onCloseHelp: () => void;
}) {
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    const tap = new ShiftTap();
    const onKeyDown = (event: KeyboardEvent) => {
      const { enabled, canEdit, helpOpen, onCommand, onCloseHelp } = latest.current;
      tap.down(event, event.timeStamp);
      if (!enabled || event.defaultPrevented || isTextEntry(event.target)) return;
      const command = commandFor(event);
      if (helpOpen) {
        // The key map closes with ? as it opened (Escape is the dialog's own).
        if (command === 'help') {
          event.preventDefault();
          onCloseHelp();
        }
        return;
      }
      if (!command || (!canEdit && EDITING_COMMANDS.has(command))) return;
      event.preventDefault();
      onCommand(command, event.timeStamp);
    };
    const onKeyUp = (event: KeyboardEvent) => {
      const { enabled, canEdit, helpOpen, onShiftTap } = latest.current;
      if (!tap.up(event, event.timeStamp)) return;
      if (enabled && canEdit && !helpOpen && !isTextEntry(event.target)) onShiftTap();
    };
    const cancel = () => tap.cancel();
    window.addEventListener('keydown', onKeyDown);
    window.addEventListener('keyup', onKeyUp);
    window.addEventListener('pointerdown', cancel, true);
    window.addEventListener('blur', cancel);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      window.removeEventListener('keyup', onKeyUp);
      window.removeEventListener('pointerdown', cancel, true);
      window.removeEventListener('blur', cancel);
    };
  }, []);
}
