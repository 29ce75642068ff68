import { formatTime } from '@/lib/format';
import type { ActionQueue } from '../action-queue';
import type { TraceDrop } from '../components/event-trace';
import type { EventList, ReviewAction, ReviewEvent } from '../review-events';

/**
 * Moving and adding events on the trace (drag the centre line, Alt+drag, Alt+←/→): the page refuses a time before
 * 0 s, after the video's end or on a frame that has an event — the server's own rule — and says why.
 */
export function useTraceEdits({
  events,
  queue,
  current,
  canEdit,
  duration,
  halfFrame,
  perform,
  play,
  show,
  say,
}: {
  events: EventList | null;
  queue: ActionQueue | null;
  current: ReviewEvent | undefined;
  canEdit: boolean;
  duration: number;
  halfFrame: number;
  perform: (action: ReviewAction) => void;
  play: (index: number) => void;
  show: (id: number) => void;
  say: (message: string | null) => void;
}) {
  /** Why a time cannot take an event (null when it can). */
  const refusal = (time: number, except?: number): string | null => {
    if (time < 0) return 'An event cannot be before 0 s.';
    if (time > duration + 1e-9) return `An event cannot be after the end of the video (${formatTime(duration)}).`;
    const there = events?.occupiedAt(time, halfFrame, except);
    return there ? `There is already an event at ${formatTime(there.time)}.` : null;
  };

  const moveTo = (time: number) => {
    if (!current || time === current.time) return;
    const problem = refusal(time, current.id);
    if (problem) {
      say(problem);
      return;
    }
    say(null);
    perform({ kind: 'move', id: current.id, time, before: current.time });
    if (events) play(events.indexOf(current.id));
  };

  const onDrop = (drop: TraceDrop) => {
    if (!canEdit || !queue) return;
    if (drop.kind === 'move') {
      moveTo(drop.time);
      return;
    }
    const problem = refusal(drop.time);
    if (problem) {
      say(problem);
      return;
    }
    say(null);
    const id = queue.newTemporaryId();
    perform({ kind: 'add', id, time: drop.time, label: null });
    show(id);
    play(queue.events.indexOf(id));
  };

  return { moveTo, onDrop };
}
