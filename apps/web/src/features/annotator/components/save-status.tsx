import { CircleAlert, CircleCheck, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import type { QueueStatus } from '@/lib/persisted-queue';
import { cn } from '@/lib/utils';

const LABELS = { saved: 'Saved', saving: 'Saving…', unsaved: 'Not saved yet' } as const;

/** Always in sight: whether every change is on the server, on its way, or waiting to be retried. */
export function SaveStatus({ status, onRetry }: { status: QueueStatus; onRetry: () => void }) {
  const { state, pending, error } = status;
  return (
    <div className="flex items-center gap-2 text-sm" data-testid="save-status" data-state={state}>
      <span
        role="status"
        aria-live="polite"
        className={cn(
          'inline-flex items-center gap-1.5 font-medium',
          state === 'saved' && 'text-muted-foreground',
          state === 'unsaved' && 'text-destructive',
        )}
        title={state === 'unsaved' && error ? error : undefined}
      >
        {state === 'saved' ? (
          <CircleCheck className="size-4" aria-hidden="true" />
        ) : state === 'saving' ? (
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
        ) : (
          <CircleAlert className="size-4" aria-hidden="true" />
        )}
        {LABELS[state]}
        {state === 'unsaved' ? (
          <span className="font-normal">
            {' '}
            ({pending} {pending === 1 ? 'change' : 'changes'} kept in this browser)
          </span>
        ) : null}
      </span>
      {state === 'unsaved' ? (
        <Button variant="outline" size="sm" onClick={onRetry}>
          Retry now
        </Button>
      ) : null}
    </div>
  );
}
