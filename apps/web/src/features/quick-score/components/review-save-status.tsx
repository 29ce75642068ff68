import { Check, CloudOff, Download, Loader2, Lock } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { saveJson } from '@/lib/download';
import { countOf } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { ActionQueue, QueueSnapshot } from '../action-queue';

/** The run's actions kept in this browser, as a JSON file (e.g. while the project is locked). */
export function downloadReviewActions(queue: ActionQueue, analysisUuid: string): void {
  saveJson(
    { analysis_uuid: analysisUuid, kind: 'quick-score-actions', actions: queue.pendingActions() },
    `unsaved-quick-score-${analysisUuid}.json`,
  );
}

/**
 * Whether every review action is on the server, on its way, or kept in this browser to be retried — and, when the
 * project is locked, that the actions wait for its renewal, with a way to download them.
 */
export function ReviewSaveStatus({
  save,
  onRetry,
  onDownload,
}: {
  save: QueueSnapshot;
  onRetry: () => void;
  onDownload: () => void;
}) {
  const locked = save.state === 'unsaved' && save.locked;
  const text =
    save.state === 'saved'
      ? 'All changes saved'
      : save.state === 'saving'
        ? `Saving ${countOf(save.pending, 'change')}…`
        : locked
          ? `Waiting: the project is locked (${save.pending})`
          : `Not saved yet (${save.pending})`;
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="save-status"
      data-state={save.state}
      data-locked={locked ? 'true' : undefined}
      className={cn(
        'flex flex-wrap items-center gap-2 rounded-lg border px-3 py-2 text-sm',
        save.state === 'unsaved' && 'border-warning/60 bg-warning/10',
      )}
    >
      {save.state === 'saved' ? (
        <Check className="size-4 text-success" aria-hidden="true" />
      ) : save.state === 'saving' ? (
        <Loader2 className="size-4 animate-spin text-muted-foreground" aria-hidden="true" />
      ) : locked ? (
        <Lock className="size-4 text-amber-700 dark:text-warning" aria-hidden="true" />
      ) : (
        <CloudOff className="size-4 text-amber-700 dark:text-warning" aria-hidden="true" />
      )}
      <span className="font-medium">{text}</span>
      {save.state === 'unsaved' ? (
        <>
          <span className="w-full text-muted-foreground text-xs">
            {locked
              ? `${save.failure} Your changes are kept in this browser and saved once the project is renewed.`
              : `${save.failure} Kept in this browser and retried${save.retryAt ? ' automatically' : ''}.`}
          </span>
          <Button variant="outline" size="sm" onClick={onRetry}>
            Retry now
          </Button>
          {locked ? (
            <Button variant="outline" size="sm" onClick={onDownload}>
              <Download aria-hidden="true" />
              Download unsaved changes
            </Button>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
