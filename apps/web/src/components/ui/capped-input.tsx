import { type ChangeEvent, type ClipboardEvent, type ComponentProps, useState } from 'react';
import { Input } from './input';
import { Textarea } from './textarea';

/**
 * Text fields capped at the server's limit (lib/field-limits.ts). The browser's maxLength keeps typing and pasting
 * within it; when a paste is cut, the field says so under itself instead of silently keeping part of it — or, as
 * before, keeping more than the server takes and complaining afterwards.
 */
type CappedElement = HTMLInputElement | HTMLTextAreaElement;

/** The field's maxLength and handlers (chained to the caller's own), and the note to show under it. */
function useCap<E extends CappedElement>(
  max: number,
  noun: string,
  onPaste?: (event: ClipboardEvent<E>) => void,
  onChange?: (event: ChangeEvent<E>) => void,
) {
  const [cut, setCut] = useState<number | null>(null);
  const field = {
    maxLength: max,
    onPaste: (event: ClipboardEvent<E>) => {
      const target = event.currentTarget;
      const pasted = event.clipboardData.getData('text').length;
      const selected = (target.selectionEnd ?? 0) - (target.selectionStart ?? 0);
      const wanted = target.value.length - selected + pasted;
      setCut(wanted > max ? wanted - max : null);
      onPaste?.(event);
    },
    onChange: (event: ChangeEvent<E>) => {
      if (event.target.value.length < max) setCut(null);
      onChange?.(event);
    },
  };
  const note =
    cut === null ? null : (
      <p className="text-muted-foreground text-xs" role="status" data-testid="cap-note">
        The pasted text was cut to {max.toLocaleString('en-US')} characters, the most {noun} can have (
        {cut.toLocaleString('en-US')} left out).
      </p>
    );
  return { field, note };
}

type Capped = {
  /** The server's limit for the field. */
  max: number;
  /** What the field holds, for the note: "a project name". */
  noun: string;
};

export function CappedInput({ max, noun, onPaste, onChange, ...props }: ComponentProps<'input'> & Capped) {
  const cap = useCap(max, noun, onPaste, onChange);
  return (
    <>
      <Input {...props} {...cap.field} />
      {cap.note}
    </>
  );
}

export function CappedTextarea({ max, noun, onPaste, onChange, ...props }: ComponentProps<'textarea'> & Capped) {
  const cap = useCap(max, noun, onPaste, onChange);
  return (
    <>
      <Textarea {...props} {...cap.field} />
      {cap.note}
    </>
  );
}
