import type { ReactNode } from 'react';
import { Card, CardContent } from '@/components/ui/card';
import type { QueueSnapshot } from '../action-queue';
import type { useUndoRedo } from '../hooks/use-review-actions';
import type { useSuggestions } from '../hooks/use-suggestions';
import type { EventList, ReviewEvent } from '../review-events';
import type { Command } from '../review-keys';
import { EventPanel, type ShownNotice } from './event-panel';
import { SuggestionCard } from './suggestion-card';
import { SuggestionControls } from './suggestion-controls';

/** Quick Score's side panel: the event and its actions, its suggestion and the model's figures, links, the pose set. */
export function ReviewSidePanel({
  current,
  index,
  events,
  fps,
  canEdit,
  history,
  save,
  notices,
  command,
  openLabels,
  openKeys,
  retry,
  download,
  dismissNotice,
  suggestions,
  bar,
  onBar,
  agreement,
  posePanel,
}: {
  current: ReviewEvent | undefined;
  index: number;
  events: EventList | null;
  fps: number;
  canEdit: boolean;
  history: ReturnType<typeof useUndoRedo>;
  save: QueueSnapshot;
  notices: readonly ShownNotice[];
  command: (command: Command) => void;
  openLabels: () => void;
  openKeys: () => void;
  retry: () => void;
  download: () => void;
  dismissNotice: (id: number) => void;
  suggestions: ReturnType<typeof useSuggestions>;
  bar: number;
  onBar: (bar: number) => void;
  agreement: ReactNode;
  posePanel: ReactNode;
}) {
  return (
    <Card className="content-start">
      <CardContent>
        <EventPanel
          event={current}
          index={index}
          total={events?.size ?? 0}
          reviewed={events?.reviewed ?? 0}
          acceptedUnseen={events?.acceptedUnseen ?? 0}
          fps={fps}
          canEdit={canEdit}
          canUndo={history.canUndo}
          canRedo={history.canRedo}
          save={save}
          notices={notices}
          actions={{
            previous: () => command('previous'),
            next: () => command('next'),
            nextUnreviewed: () => command('next-unreviewed'),
            discard: () => command('discard'),
            flag: () => command('flag'),
            label: openLabels,
            undo: () => command('undo'),
            redo: () => command('redo'),
            keys: openKeys,
            retry,
            download,
            dismissNotice,
          }}
          suggestion={
            suggestions.enabled ? (
              <SuggestionCard event={current} canEdit={canEdit} onAccept={() => command('accept')} />
            ) : null
          }
        />
        {suggestions.enabled ? (
          <div className="mt-4 grid gap-4">
            <div className="border-t pt-4">
              <SuggestionControls
                suggestions={suggestions}
                bar={bar}
                onBar={onBar}
                canEdit={canEdit}
                currentId={current?.id}
                onOrder={() => command('order')}
              />
            </div>
          </div>
        ) : null}
        {agreement}
        {posePanel ? <div className="mt-6 border-t pt-4">{posePanel}</div> : null}
      </CardContent>
    </Card>
  );
}
