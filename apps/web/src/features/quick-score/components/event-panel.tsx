import { ArrowLeft, ArrowRight, Flag, Keyboard, Redo2, SkipForward, Tag, Trash2, Undo2, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Kbd } from '@/components/ui/kbd';
import { Progress } from '@/components/ui/progress';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { formatDate, formatTime, formatTimeAndFrame } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { QueueNotice, QueueSnapshot } from '../action-queue';

/** A message of the queue as the page lists it. */
export type ShownNotice = QueueNotice & { id: number };

import type { ReviewEvent } from '../review-events';
import { ReviewSaveStatus } from './review-save-status';

export interface PanelActions {
  previous: () => void;
  next: () => void;
  nextUnreviewed: () => void;
  discard: () => void;
  flag: () => void;
  label: () => void;
  undo: () => void;
  redo: () => void;
  keys: () => void;
  retry: () => void;
  /** Saves the actions kept in this browser as a JSON file. */
  download: () => void;
  dismissNotice: (id: number) => void;
}

/** The current event, what can be done to it (with its key), progress, and whether everything is saved. */
export function EventPanel({
  event,
  index,
  total,
  reviewed,
  acceptedUnseen = 0,
  fps,
  canEdit,
  canUndo,
  canRedo,
  save,
  notices,
  actions,
  suggestion,
}: {
  event: ReviewEvent | undefined;
  index: number;
  total: number;
  reviewed: number;
  /** Accepted in bulk ("accept all ≥ p") and not looked at since: decided, not reviewed. */
  acceptedUnseen?: number;
  fps: number;
  canEdit: boolean;
  canUndo: boolean;
  canRedo: boolean;
  save: QueueSnapshot;
  notices: readonly ShownNotice[];
  actions: PanelActions;
  /** The event's suggestion (ADR 038), shown under its facts. */
  suggestion?: ReactNode;
}) {
  const percent = total > 0 ? ((reviewed + acceptedUnseen) / total) * 100 : 0;
  return (
    <div className="grid grid-cols-1 content-start gap-5">
      <section aria-labelledby="qs-event-title" className="grid gap-3">
        <div className="flex items-center justify-between gap-2">
          <h2 id="qs-event-title" className="font-semibold text-lg tabular-nums" data-testid="event-position">
            {total === 0
              ? 'No events'
              : `Event ${(index + 1).toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`}
          </h2>
          <div className="flex gap-1">
            <KeyButton label="Previous event" keys={['←']} onClick={actions.previous} disabled={index <= 0}>
              <ArrowLeft />
            </KeyButton>
            <KeyButton label="Next event" keys={['→']} onClick={actions.next} disabled={index >= total - 1}>
              <ArrowRight />
            </KeyButton>
            <KeyButton
              label="Next unreviewed event"
              keys={['U']}
              onClick={actions.nextUnreviewed}
              disabled={reviewed + acceptedUnseen >= total}
            >
              <SkipForward />
            </KeyButton>
          </div>
        </div>
        {event ? <EventFacts event={event} fps={fps} /> : null}
        {suggestion}
      </section>

      {canEdit && event ? (
        <section aria-label="Change the event" className="grid grid-cols-2 gap-2">
          <ActionButton onClick={actions.discard} keys={['D']} pressed={event.discarded}>
            <Trash2 aria-hidden="true" />
            {event.discarded ? 'Restore' : 'Discard'}
          </ActionButton>
          <ActionButton onClick={actions.flag} keys={['F']} pressed={event.flagged}>
            <Flag aria-hidden="true" />
            {event.flagged ? 'Unflag' : 'Flag'}
          </ActionButton>
          <ActionButton onClick={actions.label} keys={['Shift']} className="col-span-2">
            <Tag aria-hidden="true" />
            Label…
          </ActionButton>
          <HintedButton onClick={actions.undo} hint="Undo (Ctrl+Z, ⌘Z on a Mac)" disabled={!canUndo}>
            <Undo2 aria-hidden="true" />
            Undo
          </HintedButton>
          <HintedButton onClick={actions.redo} hint="Redo (Shift+Ctrl+Z, ⇧⌘Z on a Mac)" disabled={!canRedo}>
            <Redo2 aria-hidden="true" />
            Redo
          </HintedButton>
        </section>
      ) : !canEdit ? (
        <p className="rounded-lg bg-muted/60 px-3 py-2 text-muted-foreground text-sm" data-testid="read-only-note">
          You can watch and step through the events. Changing them needs a member of the project.
        </p>
      ) : null}

      <section aria-label="Progress" className="grid gap-2">
        <div className="flex items-baseline justify-between text-sm">
          <span className="font-medium">Reviewed</span>
          <span className="tabular-nums" data-testid="review-progress">
            {reviewed.toLocaleString('en-US')} of {total.toLocaleString('en-US')}
          </span>
        </div>
        <Progress value={percent} aria-label="Events decided" />
        {acceptedUnseen > 0 ? (
          <p className="text-muted-foreground text-xs" data-testid="accepted-unseen">
            and {acceptedUnseen.toLocaleString('en-US')} accepted in bulk, not looked at
          </p>
        ) : null}
      </section>

      <ReviewSaveStatus save={save} onRetry={actions.retry} onDownload={actions.download} />

      {notices.length > 0 ? (
        <ul className="grid gap-2" aria-label="Messages" data-testid="review-notices">
          {notices.map((notice) => (
            <li
              key={notice.id}
              className={cn(
                'flex items-start gap-2 rounded-lg border px-3 py-2 text-sm',
                notice.tone === 'error' && 'border-destructive/40 text-destructive',
                notice.tone === 'warning' && 'border-warning/50',
              )}
            >
              <span className="min-w-0 flex-1">{notice.message}</span>
              <button
                type="button"
                onClick={() => actions.dismissNotice(notice.id)}
                aria-label="Dismiss"
                className="text-muted-foreground hover:text-foreground"
              >
                <X className="size-4" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}

      <Button variant="ghost" size="sm" className="justify-start text-muted-foreground" onClick={actions.keys}>
        <Keyboard aria-hidden="true" />
        All keys <Kbd>?</Kbd>
      </Button>
    </div>
  );
}

function EventFacts({ event, fps }: { event: ReviewEvent; fps: number }) {
  const added = event.original_time === null;
  const moved = !added && event.original_time !== null && Math.abs(event.time - event.original_time) > 1e-9;
  return (
    <div className="grid gap-2 text-sm">
      <p className="font-mono tabular-nums" data-testid="event-time">
        {formatTimeAndFrame(event.time, fps)}
      </p>
      <div className="flex flex-wrap gap-1.5" data-testid="event-state">
        {event.discarded ? <Badge variant="destructive">Discarded</Badge> : null}
        {event.flagged ? (
          <Badge variant="warning">
            <Flag aria-hidden="true" />
            Flagged
          </Badge>
        ) : null}
        {event.label ? (
          <Badge variant="secondary" data-testid="event-label">
            <Tag aria-hidden="true" />
            {event.label}
          </Badge>
        ) : (
          <Badge variant="outline" className="text-muted-foreground">
            No label
          </Badge>
        )}
        {added ? <Badge variant="outline">Added by hand</Badge> : null}
        {moved ? <Badge variant="outline">Moved from {formatTime(event.original_time)}</Badge> : null}
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-muted-foreground text-xs">
        <dt>Changed</dt>
        <dd className="text-foreground" data-testid="event-changed-by">
          {event.updated_by
            ? `by ${event.updated_by.display_name}${event.updated_at ? `, ${formatDate(event.updated_at)}` : ''}`
            : 'not yet (as detected)'}
        </dd>
        <dt>Reviewed</dt>
        <dd className="text-foreground" data-testid="event-reviewed-by">
          {event.reviewed_by ? `by ${event.reviewed_by.display_name}` : 'not yet'}
        </dd>
      </dl>
    </div>
  );
}

function KeyButton({
  label,
  keys,
  onClick,
  disabled,
  children,
}: {
  label: string;
  keys: string[];
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button variant="outline" size="icon-sm" onClick={onClick} disabled={disabled} aria-label={label}>
          {children}
        </Button>
      </TooltipTrigger>
      <TooltipContent>
        {label} ({keys.join('+')})
      </TooltipContent>
    </Tooltip>
  );
}

function ActionButton({
  onClick,
  keys,
  pressed,
  disabled,
  className,
  children,
}: {
  onClick: () => void;
  keys: string[];
  pressed?: boolean;
  disabled?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Button
      variant={pressed ? 'secondary' : 'outline'}
      onClick={onClick}
      disabled={disabled}
      aria-pressed={pressed}
      className={cn('justify-between', className)}
    >
      <span className="flex items-center gap-2">{children}</span>
      <span className="flex gap-0.5">
        {keys.map((key) => (
          <Kbd key={key}>{key}</Kbd>
        ))}
      </span>
    </Button>
  );
}

function HintedButton({
  onClick,
  hint,
  disabled,
  children,
}: {
  onClick: () => void;
  hint: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <span className="grid">
          <Button variant="outline" onClick={onClick} disabled={disabled}>
            {children}
          </Button>
        </span>
      </TooltipTrigger>
      <TooltipContent>{hint}</TooltipContent>
    </Tooltip>
  );
}
