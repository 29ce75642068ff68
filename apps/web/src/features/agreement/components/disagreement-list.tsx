import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { countOf, formatTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { DISAGREEMENT_LABELS, type Disagreement } from '../disagreements';

/** The disagreements in time order: a click (or Previous / Next) opens one in the player. */
export function DisagreementList({
  items,
  current,
  onOpen,
  onStep,
}: {
  items: Disagreement[];
  current: number | null;
  onOpen: (index: number) => void;
  onStep: (direction: 1 | -1) => void;
}) {
  const listRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (current === null) return;
    // (jsdom has no scrollIntoView.)
    listRef.current?.querySelector(`[data-index="${current}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [current]);

  if (items.length === 0) {
    return <p className="text-muted-foreground text-sm">No disagreements: the two scorings agree everywhere.</p>;
  }
  return (
    <div className="grid min-w-0 grid-cols-1 content-start gap-2">
      <div className="flex items-center gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => onStep(-1)}
          disabled={current === 0}
          aria-keyshortcuts="P"
          aria-label="Previous disagreement"
        >
          <ChevronLeft aria-hidden="true" />
          Previous
        </Button>
        <span className="flex-1 text-center text-sm tabular-nums" data-testid="disagreement-position">
          {current === null ? countOf(items.length, 'disagreement') : `${current + 1} of ${items.length}`}
        </span>
        <Button
          variant="outline"
          size="sm"
          onClick={() => onStep(1)}
          disabled={current === items.length - 1}
          aria-keyshortcuts="N"
          aria-label="Next disagreement"
        >
          Next
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
      <ol ref={listRef} className="max-h-80 overflow-y-auto rounded-md border" aria-label="Disagreements">
        {items.map((item, index) => (
          <li key={`${item.kind}-${item.start}`} className="border-b last:border-b-0">
            <button
              type="button"
              data-index={index}
              data-testid="disagreement-item"
              aria-current={index === current ? 'true' : undefined}
              onClick={() => onOpen(index)}
              className={cn(
                'flex w-full items-center gap-3 px-3 py-1.5 text-left text-sm outline-none hover:bg-muted/60 focus-visible:bg-muted',
                index === current && 'bg-primary/10',
              )}
            >
              <span
                className={cn(
                  'size-2.5 shrink-0 rounded-sm',
                  item.kind === 'missed' || item.kind === 'reference_only' ? 'bg-destructive' : 'bg-warning',
                )}
              />
              <span className="font-mono tabular-nums">
                {formatTime(item.start)}
                {item.end === null ? '' : ` – ${formatTime(item.end)}`}
              </span>
              <span className="ml-auto truncate text-muted-foreground text-xs">{DISAGREEMENT_LABELS[item.kind]}</span>
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
