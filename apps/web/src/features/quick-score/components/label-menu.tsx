import { type KeyboardEvent, useId, useMemo, useState } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Kbd } from '@/components/ui/kbd';
import { cn } from '@/lib/utils';
import { type FuzzyMatch, rankLabels } from '../fuzzy';

export type LabelChoice = { kind: 'pick'; label: string | null } | { kind: 'create'; label: string };

/**
 * The label menu (a tap of Shift): type to filter the project's labels ("lh" finds "left hand"), ↑/↓ to move,
 * Enter picks, Shift+Enter saves what was typed as a new label, Escape closes. "No label" clears the event's label.
 */
export function LabelMenu({
  open,
  labels,
  current,
  onChoose,
  onClose,
}: {
  open: boolean;
  labels: readonly string[];
  current: string | null;
  onChoose: (choice: LabelChoice) => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="gap-3 p-4 sm:max-w-md" showCloseButton={false} data-testid="label-menu">
        {/* Mounted afresh each time it opens: an empty field, the first label highlighted. */}
        {open ? <MenuBody labels={labels} current={current} onChoose={onChoose} /> : null}
      </DialogContent>
    </Dialog>
  );
}

const NO_LABEL = '\u0000none';

function MenuBody({
  labels,
  current,
  onChoose,
}: {
  labels: readonly string[];
  current: string | null;
  onChoose: (choice: LabelChoice) => void;
}) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const ranked = useMemo(() => rankLabels(query, labels, 12), [query, labels]);
  const options = useMemo(() => {
    const list: { value: string; match: FuzzyMatch | null }[] = ranked.map((r) => ({ value: r.label, match: r.match }));
    if (current && query.trim() === '') list.push({ value: NO_LABEL, match: null });
    return list;
  }, [ranked, current, query]);
  const typed = query.trim();
  const exists = labels.some((label) => label.toLowerCase() === typed.toLowerCase());
  const highlighted = Math.min(active, Math.max(0, options.length - 1));

  const pick = (value: string) => onChoose({ kind: 'pick', label: value === NO_LABEL ? null : value });

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((highlighted + step + options.length) % options.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (event.shiftKey) {
        if (typed) onChoose({ kind: 'create', label: typed });
        return;
      }
      const option = options[highlighted];
      if (option) pick(option.value);
    }
  };

  return (
    <>
      <DialogHeader className="gap-1">
        <DialogTitle className="text-base">Label the event</DialogTitle>
        <DialogDescription className="text-xs">
          Type to find a label · <Kbd>Enter</Kbd> picks · <Kbd>Shift</Kbd>+<Kbd>Enter</Kbd> saves a new label ·{' '}
          <Kbd>Esc</Kbd> cancels
        </DialogDescription>
      </DialogHeader>
      <input
        // biome-ignore lint/a11y/noAutofocus: the menu exists to be typed into; it opens from a key press.
        autoFocus
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        placeholder="Label…"
        aria-label="Label"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-activedescendant={options.length > 0 ? `${listId}-${highlighted}` : undefined}
        aria-autocomplete="list"
        className="h-10 w-full rounded-md border bg-transparent px-3 text-sm outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50"
      />
      <div id={listId} role="listbox" aria-label="Labels" className="grid max-h-72 gap-0.5 overflow-y-auto">
        {options.map((option, index) => (
          <div
            key={option.value}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === highlighted}
            tabIndex={-1}
            onMouseEnter={() => setActive(index)}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(option.value)}
            onKeyDown={() => {}}
            className={cn(
              'flex cursor-pointer items-center justify-between gap-2 rounded-md px-2.5 py-1.5 text-sm',
              index === highlighted ? 'bg-accent text-accent-foreground' : 'text-foreground',
            )}
          >
            {option.value === NO_LABEL ? (
              <span className="text-muted-foreground italic">No label (remove “{current}”)</span>
            ) : (
              <Highlighted text={option.value} positions={option.match?.positions ?? []} />
            )}
            {option.value === current ? <span className="text-muted-foreground text-xs">current</span> : null}
          </div>
        ))}
        {options.length === 0 ? (
          <p className="px-2.5 py-1.5 text-muted-foreground text-sm">
            {labels.length === 0 ? 'This project has no labels yet.' : 'No label matches.'}
          </p>
        ) : null}
      </div>
      {typed && !exists ? (
        <p className="text-muted-foreground text-xs" data-testid="label-menu-create">
          <Kbd>Shift</Kbd>+<Kbd>Enter</Kbd> saves “{typed}” as a new label of the project.
        </p>
      ) : null}
    </>
  );
}

function Highlighted({ text, positions }: { text: string; positions: readonly number[] }) {
  if (positions.length === 0) return <span>{text}</span>;
  const marked = new Set(positions);
  return (
    <span>
      {Array.from(text, (char, i) =>
        marked.has(i) ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: characters of a fixed string, by position.
          <mark key={i} className="bg-transparent font-semibold text-primary">
            {char}
          </mark>
        ) : (
          char
        ),
      )}
    </span>
  );
}
