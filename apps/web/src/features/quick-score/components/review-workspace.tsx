import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, Scale } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { clipAround, frameStart, nearestFrame } from '@/components/player/frames';
import { usePlayer } from '@/components/player/player-controller';
import { VideoPlayer } from '@/components/player/video-player';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { agreementPath } from '@/features/agreement/links';
import { type AnalysisRun, analysisQueries, runBypassRanges, runRef } from '@/features/analysis/api';
import { displayName } from '@/features/auth/api';
import { useSession } from '@/features/auth/hooks/use-session';
import type { ScoringMode } from '@/features/scorers/api';
import type { Video } from '@/features/videos/api';
import { playerFacts, playerSource } from '@/features/videos/player-source';
import { errorMessage } from '@/lib/errors';
import { formatTime } from '@/lib/format';
import { quickScoreApi, quickScoreKeys, quickScoreQueries } from '../api';
import { useClipSpan } from '../hooks/use-clip-span';
import { useNotices } from '../hooks/use-notices';
import { useResumePosition } from '../hooks/use-resume-position';
import { useUndoRedo } from '../hooks/use-review-actions';
import { useReviewKeys } from '../hooks/use-review-keys';
import { useReviewQueue } from '../hooks/use-review-queue';
import type { Command } from '../review-keys';
import { ClipControls } from './clip-controls';
import { EventPanel } from './event-panel';
import { EventTrace, type TraceDrop } from './event-trace';
import { KeyMapDialog } from './key-map';
import { type LabelChoice, LabelMenu } from './label-menu';
import { downloadReviewActions } from './review-save-status';

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
  const queryClient = useQueryClient();
  const { user } = useSession();
  const me = useMemo(() => ({ id: user?.id ?? 0, display_name: displayName(user) }), [user]);
  const ref = useMemo(() => runRef(run), [run]);
  const player = usePlayer(playerFacts(video));
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
  const { queue, snapshot, error } = useReviewQueue({
    videoRef: ref,
    analysisUuid: run.analysis_uuid,
    me,
    halfFrame,
    onNotice,
    onIdAssigned,
    scoring,
  });
  const events = queue?.events ?? null;
  const history = useUndoRedo(queue, events);
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
      setTraceMessage(problem);
      return;
    }
    setTraceMessage(null);
    history.perform({ kind: 'move', id: current.id, time, before: current.time });
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
      setTraceMessage(problem);
      return;
    }
    setTraceMessage(null);
    const id = queue.newTemporaryId();
    history.perform({ kind: 'add', id, time: drop.time, label: null });
    setCurrentId(id);
    play(queue.events.indexOf(id));
  };

  const chooseLabel = (choice: LabelChoice) => {
    setMenuOpen(false);
    if (!current || !canEdit) return;
    if (choice.kind === 'create') {
      queryClient.setQueryData<string[]>(quickScoreKeys.labels(projectUuid), (names = []) =>
        names.some((name) => name.toLowerCase() === choice.label.toLowerCase()) ? names : [...names, choice.label],
      );
      // The label is kept with the event's change anyway; saving it on its own shows it in other tabs at once.
      void quickScoreApi.createLabel(projectUuid, choice.label).catch(() => {});
    }
    const label = choice.label;
    if ((current.label ?? null) === label) return;
    history.perform({ kind: 'label', id: current.id, at: current.time, label, before: current.label ?? null });
  };

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
      case 'next':
        if (index < events.size - 1) goTo(index + 1, { requestedAt, markPast: true });
        else markReviewed();
        return;
      case 'previous':
        if (index > 0) goTo(index - 1, { requestedAt });
        return;
      case 'next-unreviewed': {
        const at = events.nextUnreviewed(index);
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
      case 'undo':
        afterHistory(history.undo());
        return;
      case 'redo':
        afterHistory(history.redo());
        return;
    }
  };

  useReviewKeys({
    enabled: !menuOpen,
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
              label={run.kind === 'movement_detection' ? 'changed pixels' : 'value'}
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

      <Card className="content-start">
        <CardContent>
          <EventPanel
            event={current}
            index={index}
            total={events?.size ?? 0}
            reviewed={events?.reviewed ?? 0}
            fps={fps}
            canEdit={canEdit}
            canUndo={history.canUndo}
            canRedo={history.canRedo}
            save={snapshot}
            notices={notices}
            actions={{
              previous: () => runCommand('previous'),
              next: () => runCommand('next'),
              nextUnreviewed: () => runCommand('next-unreviewed'),
              discard: () => runCommand('discard'),
              flag: () => runCommand('flag'),
              label: () => setMenuOpen(true),
              undo: () => runCommand('undo'),
              redo: () => runCommand('redo'),
              keys: () => setHelpOpen(true),
              retry: () => queue?.retryNow(),
              download: () => queue && downloadReviewActions(queue, run.analysis_uuid),
              dismissNotice,
            }}
          />
          <Button variant="outline" size="sm" className="mt-4 w-full" asChild>
            <Link
              to={agreementPath(projectUuid, {
                subject: video.subject_uuid,
                video: video.video_uuid,
                candidate: { kind: 'run_reviewed', analysisUuid: run.analysis_uuid },
              })}
            >
              <Scale aria-hidden="true" />
              Agreement with another scoring
            </Link>
          </Button>
        </CardContent>
      </Card>

      <LabelMenu
        open={menuOpen && canEdit}
        labels={labels.data ?? []}
        current={current?.label ?? null}
        onChoose={chooseLabel}
        onClose={() => setMenuOpen(false)}
      />
      <KeyMapDialog open={helpOpen} canEdit={canEdit} onClose={() => setHelpOpen(false)} />
    </div>
  );
}
