import { CircleAlert, CircleCheck, Download, Loader2, Lock } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { countOf } from '@/lib/format';
import type { SaveStatus as QueueStatus } from '@/lib/save-queue/save-queue';
import { cn } from '@/lib/utils';

const LABELS = { saved: 'Saved', saving: 'Saving…', unsaved: 'Not saved yet' } as const;

/**
 * Always in sight: whether every change is on the server, on its way, or waiting to be retried — or waiting because
 * the project is locked, with the edits kept in this browser until it is renewed and a way to download them.
 */
export function SaveStatus({
  status,
  onRetry,
  onDownload,
}: {
  status: QueueStatus;
  onRetry: () => void;
  onDownload?: () => void;
}) {
  const { state, pending, failure: error, locked } = status;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="save-status" data-state={state}>
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
        ) : locked ? (
          <Lock className="size-4" aria-hidden="true" />
        ) : (
          <CircleAlert className="size-4" aria-hidden="true" />
        )}
        {locked ? 'Waiting: the project is locked' : LABELS[state]}
        {state === 'unsaved' ? (
          <span className="font-normal"> ({countOf(pending, 'change')} kept in this browser)</span>
        ) : null}
      </span>
      {locked ? (
        <span className="w-full text-muted-foreground text-xs" data-testid="save-locked">
          {error} Your changes are kept in this browser and saved once the project is renewed.
        </span>
      ) : null}
      {state === 'unsaved' ? (
        <Button variant="outline" size="sm" onClick={onRetry}>
          Retry now
        </Button>
      ) : null}
      {locked && onDownload ? (
        <Button variant="outline" size="sm" onClick={onDownload}>
          <Download aria-hidden="true" />
          Download unsaved changes
        </Button>
      ) : null}
    </div>
  );
}
