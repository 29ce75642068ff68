import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { clipAround, frameStart, nearestFrame } from '@/components/player/frames';
import { usePlayer } from '@/components/player/player-controller';
import { VideoPlayer } from '@/components/player/video-player';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { type AnalysisRun, analysisQueries, runBypassRanges, runRef } from '@/features/analysis/api';
import { seriesLabel } from '@/features/analysis/series-names';
import { displayName } from '@/features/auth/api';
import { useSession } from '@/features/auth/hooks/use-session';
import { usePoseOverlay } from '@/features/pose/hooks/use-pose-overlay';
import type { ScoringMode } from '@/features/scorers/api';
import type { Video } from '@/features/videos/api';
import { playerFacts, playerSource } from '@/features/videos/player-source';
import { errorMessage } from '@/lib/errors';
import { quickScoreQueries } from '../api';
import { useClipSpan } from '../hooks/use-clip-span';
import { useLabelChoice } from '../hooks/use-label-choice';
import { useNotices } from '../hooks/use-notices';
import { useResumePosition } from '../hooks/use-resume-position';
import { useUndoRedo } from '../hooks/use-review-actions';
import { useReviewKeys } from '../hooks/use-review-keys';
import { useReviewQueue } from '../hooks/use-review-queue';
import { usePrecisionBar, useSuggestions } from '../hooks/use-suggestions';
import { useTraceEdits } from '../hooks/use-trace-edits';
import type { Command } from '../review-keys';
import { AcceptAllDialog } from './accept-all-dialog';
import { AgreementLink } from './agreement-link';
import { ClipControls } from './clip-controls';
import { EventTrace } from './event-trace';
import { KeyMapDialog } from './key-map';
import { LabelMenu } from './label-menu';
import { downloadReviewActions } from './review-save-status';
import { ReviewSidePanel } from './review-side-panel';

/** Seconds of series shown on each side of the clip. */
const TRACE_MARGIN_S = 1;

/**
 * One run under review: the clip of the current event in the shared player, its trace, the event's state and
 * actions, the keys, and the queue that saves every action at once. Keyed by run.
 */
export function ReviewWorkspace({
  projectUuid,
  video,
  run,
  canEdit,
  scoring = 'consensus',
}: {
  projectUuid: string;
  video: Video;
  run: AnalysisRun;
  canEdit: boolean;
  scoring?: ScoringMode;
}) {
  const _queryClient = useQueryClient();
  const { user } = useSession();
  const me = useMemo(() => ({ id: user?.id ?? 0, display_name: displayName(user) }), [user]);
  const ref = useMemo(() => runRef(run), [run]);
  const player = usePlayer(playerFacts(video));
  const pose = usePoseOverlay({ projectUuid, video, player });
  const fps = player.fps;
  const halfFrame = 0.5 / fps;
  const duration = video.duration_s ?? player.frameCount / fps;
  const [span, setSpan] = useClipSpan();
  const [currentId, setCurrentId] = useState<number | null>(null);
  const lastIndex = useRef(0);
  const { notices, onNotice, dismissNotice } = useNotices();
  const [traceMessage, setTraceMessage] = useState<string | null>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);

  const renumberRef = useRef<(temporary: number, id: number) => void>(() => {});
  const onIdAssigned = useCallback((temporary: number, id: number) => {
    setCurrentId((current) => (current === temporary ? id : current));
    renumberRef.current(temporary, id);
  }, []);
  const [bar, setBar] = usePrecisionBar(me.id);
  const { queue, snapshot, error } = useReviewQueue({
    videoRef: ref,
    analysisUuid: run.analysis_uuid,
    me,
    halfFrame,
    onNotice,
    onIdAssigned,
    scoring,
    bar,
  });
  const events = queue?.events ?? null;
  const history = useUndoRedo(queue, events);
  const suggestions = useSuggestions({ run, queue, events, enabled: scoring === 'consensus' });
  renumberRef.current = history.renumber;

  const series = useQuery(analysisQueries.series(ref, run.analysis_uuid));
  const labels = useQuery(quickScoreQueries.labels(projectUuid));

  // The event shown: by id, so it stays the same event when others are added or moved before it.
  const found = events && currentId !== null ? events.indexOf(currentId) : -1;
  const index = events ? (found >= 0 ? found : Math.min(lastIndex.current, events.size - 1)) : -1;
  const current = events && index >= 0 ? events.at(index) : undefined;
  if (index >= 0) lastIndex.current = index;
  // The event shown went away (deleted here or elsewhere): its neighbour in the list is the current one now.
  const shownId = current?.id ?? null;
  useEffect(() => {
    if (shownId !== null && shownId !== currentId) setCurrentId(shownId);
  }, [shownId, currentId]);

  const clipOf = useCallback(
    (time: number) => clipAround(nearestFrame(time, fps), span, fps, player.frameCount),
    [fps, span, player],
  );

  /** Plays the event's clip (ending on the event's own frame) and preloads the next one's. */
  const play = useCallback(
    (at: number, requestedAt?: number) => {
      const list = queue?.events;
      const event = list?.at(at);
      if (!list || !event) return;
      const frame = nearestFrame(event.time, fps);
      const next = list.at(at + 1);
      void player.playClip(clipOf(event.time), { rest: frame, requestedAt }).then(() => {
        if (next) player.preloadClip(clipOf(next.time));
      });
    },
    [queue, fps, player, clipOf],
  );

  /** Shows event `at`; leaving the current one forwards marks it reviewed. */
  const goTo = useCallback(
    (at: number, options: { requestedAt?: number; markPast?: boolean } = {}) => {
      const list = queue?.events;
      const target = list?.at(at);
      if (!queue || !list || !target) return;
      // The clip first: nothing the page does for the new event may delay it.
      play(at, options.requestedAt);
      setTraceMessage(null);
      const leaving = current;
      if (
        options.markPast &&
        canEdit &&
        leaving &&
        leaving.id !== target.id &&
        leaving.id > 0 &&
        leaving.reviewed_by?.id !== me.id
      ) {
        queue.enqueue({ kind: 'review', id: leaving.id, at: leaving.time });
      }
      setCurrentId(target.id);
    },
    [queue, current, canEdit, me.id, play],
  );

  useResumePosition({
    videoRef: ref,
    analysisUuid: run.analysis_uuid,
    queue,
    currentId,
    onResume: (at) => goTo(at),
  });

  // A new clip length replays the current event with it.
  const spanKey = `${span.before}/${span.after}`;
  const playedSpan = useRef(spanKey);
  useEffect(() => {
    if (playedSpan.current === spanKey) return;
    playedSpan.current = spanKey;
    if (index >= 0) play(index);
  }, [spanKey, index, play]);

  const { moveTo, onDrop } = useTraceEdits({
    events,
    queue,
    current,
    canEdit,
    duration,
    halfFrame,
    perform: history.perform,
    play,
    show: setCurrentId,
    say: setTraceMessage,
  });

  const chooseLabel = useLabelChoice({
    projectUuid,
    current,
    canEdit,
    perform: history.perform,
    close: () => setMenuOpen(false),
  });

  const afterHistory = (action: ReturnType<typeof history.undo>) => {
    if (!action || !queue) return;
    const at = queue.events.indexOf(action.id);
    if (action.kind === 'delete') return;
    if (at >= 0 && action.id !== currentId) goTo(at);
    else if (action.kind === 'move' && at >= 0) play(at);
  };

  /** Marks the current event reviewed by me (leaving it with nowhere further to go). */
  const markReviewed = () => {
    if (queue && canEdit && current && current.id > 0 && current.reviewed_by?.id !== me.id) {
      queue.enqueue({ kind: 'review', id: current.id, at: current.time });
    }
  };

  const runCommand = (command: Command, requestedAt?: number) => {
    if (!events || index < 0) return;
    switch (command) {
      case 'next': {
        const at = suggestions.step(index, 1);
        if (at >= 0) goTo(at, { requestedAt, markPast: true });
        else markReviewed();
        return;
      }
      case 'previous': {
        const at = suggestions.step(index, -1);
        if (at >= 0) goTo(at, { requestedAt });
        return;
      }
      case 'order': {
        if (!suggestions.enabled) return;
        // Uncertain first starts at the least certain event.
        const first = suggestions.toggleOrder()?.[0];
        if (first !== undefined) goTo(events.indexOf(first), { requestedAt });
        return;
      }
      case 'next-unreviewed': {
        const at = suggestions.nextUndecided(index);
        if (at >= 0 && at !== index) goTo(at, { requestedAt, markPast: true });
        else {
          // The last one left: moving past it completes the review.
          markReviewed();
          toast.success('Every event of this run has been reviewed.');
        }
        return;
      }
      case 'replay':
        play(index, requestedAt);
        return;
      case 'rate-1':
      case 'rate-0.5':
      case 'rate-0.25':
        player.setRate(Number(command.slice(5)));
        return;
      case 'help':
        setHelpOpen((open) => !open);
        return;
    }
    if (!canEdit || !current) return;
    switch (command) {
      case 'discard':
        history.perform({ kind: current.discarded ? 'restore' : 'discard', id: current.id, at: current.time });
        return;
      case 'flag':
        history.perform({ kind: current.flagged ? 'unflag' : 'flag', id: current.id, at: current.time });
        return;
      case 'nudge-earlier':
      case 'nudge-later': {
        const frame = nearestFrame(current.time, fps) + (command === 'nudge-later' ? 1 : -1);
        moveTo(frameStart(frame, fps));
        return;
      }
      case 'accept': {
        if (!current.suggestion || !suggestions.enabled) return;
        history.perform({ kind: 'accept', id: current.id, at: current.time, suggestion: current.suggestion, bar });
        const at = suggestions.step(index, 1);
        if (at >= 0) goTo(at, { requestedAt, markPast: true });
        return;
      }
      case 'accept-all':
        if (suggestions.enabled) suggestions.setAcceptAllOpen(true);
        return;
      case 'undo':
        afterHistory(history.undo());
        return;
      case 'redo':
        afterHistory(history.redo());
        return;
    }
  };

  useReviewKeys({
    enabled: !menuOpen && !suggestions.acceptAllOpen,
    canEdit,
    helpOpen,
    onCommand: runCommand,
    onShiftTap: () => canEdit && current && setMenuOpen(true),
    onCloseHelp: () => setHelpOpen(false),
  });

  if (error) {
    return (
      <Card>
        <CardContent className="py-10 text-center text-destructive text-sm">
          The events of this run could not be loaded: {errorMessage(error)}
        </CardContent>
      </Card>
    );
  }

  const windowed: [number, number] | null = current
    ? [current.time - span.before - TRACE_MARGIN_S, current.time + span.after + TRACE_MARGIN_S]
    : null;
  const neighbours = events && windowed ? events.between(windowed[0], windowed[1]) : [];

  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
      <Card className="min-w-0">
        <CardContent className="grid grid-cols-1 gap-4">
          <VideoPlayer
            player={player}
            source={playerSource(video)}
            standby
            marks={pose.layer}
            onPictureClick={() => index >= 0 && play(index)}
            maxHeight="45vh"
            controls={
              <ClipControls
                player={player}
                span={span}
                onSpan={setSpan}
                onReplay={() => index >= 0 && play(index)}
                disabled={!current}
              />
            }
          />
          {!queue ? (
            <p className="flex items-center gap-2 text-muted-foreground text-sm">
              <Loader2 className="size-4 animate-spin" aria-hidden="true" />
              Loading the events…
            </p>
          ) : events && events.size === 0 ? (
            <p className="text-muted-foreground text-sm" data-testid="no-events">
              This run found no events. Alt+drag on the trace adds one by hand.
            </p>
          ) : null}
          {series.data && current && windowed ? (
            <EventTrace
              series={series.data}
              event={current}
              neighbours={neighbours}
              window={windowed}
              threshold={run.summary?.threshold ?? null}
              bypassRanges={runBypassRanges(run)}
              player={player}
              canEdit={canEdit}
              label={seriesLabel(run)}
              onDrop={onDrop}
            />
          ) : series.isError ? (
            <p className="text-destructive text-sm">The series could not be loaded: {errorMessage(series.error)}</p>
          ) : (
            <Skeleton className="h-[200px]" />
          )}
          {traceMessage ? (
            <p role="alert" className="text-destructive text-sm" data-testid="trace-message">
              {traceMessage}
            </p>
          ) : null}
        </CardContent>
      </Card>

      <ReviewSidePanel
        current={current}
        index={index}
        events={events}
        fps={fps}
        canEdit={canEdit}
        history={history}
        save={snapshot}
        notices={notices}
        command={runCommand}
        openLabels={() => setMenuOpen(true)}
        openKeys={() => setHelpOpen(true)}
        retry={() => queue?.retryNow()}
        download={() => queue && downloadReviewActions(queue, run.analysis_uuid)}
        dismissNotice={dismissNotice}
        suggestions={suggestions}
        bar={bar}
        onBar={setBar}
        agreement={<AgreementLink projectUuid={projectUuid} video={video} analysisUuid={run.analysis_uuid} />}
        posePanel={pose.panel}
      />

      <LabelMenu
        open={menuOpen && canEdit}
        labels={labels.data ?? []}
        current={current?.label ?? null}
        onChoose={chooseLabel}
        onClose={() => setMenuOpen(false)}
      />
      <KeyMapDialog open={helpOpen} canEdit={canEdit} onClose={() => setHelpOpen(false)} />
      <AcceptAllDialog
        open={suggestions.acceptAllOpen && canEdit}
        onClose={() => suggestions.setAcceptAllOpen(false)}
        acceptable={suggestions.acceptable}
        onConfirm={(minConfidence, taken) => suggestions.acceptAll(minConfidence, taken, bar)}
      />
    </div>
  );
}
