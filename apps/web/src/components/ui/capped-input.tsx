import { type ClipboardEvent, type ComponentProps, useState } from 'react';
import { Input } from './input';
import { Textarea } from './textarea';

/**
 * Text fields capped at the server's limit (lib/field-limits.ts). The browser's maxLength keeps typing and pasting
 * within it; when a paste is cut, the field says so under itself instead of silently keeping part of it — or, as
 * before, keeping more than the server takes and complaining afterwards.
 */
function useCapNote(max: number, noun: string) {
  const [cut, setCut] = useState<number | null>(null);
  const onPaste = (event: ClipboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const field = event.currentTarget;
    const pasted = event.clipboardData.getData('text').length;
    const selected = (field.selectionEnd ?? 0) - (field.selectionStart ?? 0);
    const wanted = field.value.length - selected + pasted;
    setCut(wanted > max ? wanted - max : null);
  };
  const note =
    cut === null ? null : (
      <p className="text-muted-foreground text-xs" role="status" data-testid="cap-note">
        The pasted text was cut to {max.toLocaleString('en-US')} characters, the most {noun} can have (
        {cut.toLocaleString('en-US')} left out).
      </p>
    );
  return { onPaste, note, clear: () => setCut(null) };
}

type Capped = {
  /** The server's limit for the field. */
  max: number;
  /** What the field holds, for the note: "a project name". */
  noun: string;
};

export function CappedInput({ max, noun, onPaste, onChange, ...props }: ComponentProps<'input'> & Capped) {
  const cap = useCapNote(max, noun);
  return (
    <>
      <Input
        {...props}
        maxLength={max}
        onPaste={(event) => {
          cap.onPaste(event);
          onPaste?.(event);
        }}
        onChange={(event) => {
          if (event.target.value.length < max) cap.clear();
          onChange?.(event);
        }}
      />
      {cap.note}
    </>
  );
}

export function CappedTextarea({ max, noun, onPaste, onChange, ...props }: ComponentProps<'textarea'> & Capped) {
  const cap = useCapNote(max, noun);
  return (
    <>
      <Textarea
        {...props}
        maxLength={max}
        onPaste={(event) => {
          cap.onPaste(event);
          onPaste?.(event);
        }}
        onChange={(event) => {
          if (event.target.value.length < max) cap.clear();
          onChange?.(event);
        }}
      />
      {cap.note}
    </>
  );
}
