import { useQuery } from '@tanstack/react-query';
import { Maximize2, Minus, Plus, Redo2, Undo2 } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { toast } from 'sonner';
import { frameAt, nearestFrame } from '@/components/player/frames';
import { type PlayerController, usePlayer } from '@/components/player/player-controller';
import { PlayerControls } from '@/components/player/player-controls';
import { useTime } from '@/components/player/time-store';
import { VideoPlayer } from '@/components/player/video-player';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { usePoseOverlay } from '@/features/pose/hooks/use-pose-overlay';
import type { Video } from '@/features/videos/api';
import { playerFacts, playerSource } from '@/features/videos/player-source';
import { saveJson } from '@/lib/download';
import { formatTimecode } from '@/lib/format';
import { type AnnotationVideoRef, annotationQueries, annotationsApi } from '../api';
import type { Range } from '../bouts';
import { useAnnotationEditor } from '../hooks/use-annotation-editor';
import { useAnnotationSync } from '../hooks/use-annotation-sync';
import { useAnnotatorKeys } from '../hooks/use-annotator-keys';
import { boutFromFrames, type VideoFrames } from '../marking';
import { follow, type TimelineView, type ViewLimits, wholeVideo } from '../timeline-view';
import { AnnotationTimeline, zoomStep } from './annotation-timeline';
import { SaveStatus } from './save-status';
import { SelectedBout } from './selected-bout';
import { TrackPanel } from './track-panel';

/** How often the track list is re-read, to show what others saved meanwhile. */
const TRACKS_POLL_MS = 10_000;

/**
 * The Annotator for one video: the shared player above a timeline with one lane per track; bouts marked by keys
 * and mouse, each change saved at once through the persisted queue; track settings, CSV and BORIS files beside.
 */
export function AnnotatorWorkspace({
  projectUuid,
  video,
  userId,
  readOnly,
}: {
  projectUuid: string;
  video: Video;
  userId: number;
  readOnly: boolean;
}) {
  const videoRef: AnnotationVideoRef = useMemo(
    () => ({ projectUuid, subjectUuid: video.subject_uuid, videoUuid: video.video_uuid }),
    [projectUuid, video.subject_uuid, video.video_uuid],
  );
  const player = usePlayer(playerFacts(video));
  const pose = usePoseOverlay({ projectUuid, video, player });
  const frames: VideoFrames & { duration: number } = useMemo(() => {
    const lastFrameEnd = player.frameCount / player.fps;
    const end = Math.max(video.duration_s ?? 0, lastFrameEnd);
    return { fps: player.fps, end, duration: end };
  }, [player, video.duration_s]);

  const tracksQuery = useQuery({ ...annotationQueries.tracks(videoRef), refetchInterval: TRACKS_POLL_MS });
  const tracks = useMemo(() => tracksQuery.data ?? [], [tracksQuery.data]);
  const { sync, status } = useAnnotationSync(videoRef, userId);

  const editorTracks = useMemo(() => tracks.map((t) => ({ id: t.annotation_config_uuid, name: t.name })), [tracks]);
  const editor = useAnnotationEditor({
    tracks: editorTracks,
    video: frames,
    onEdit: (edit, trackName) => sync?.save({ track: edit.track, trackName, change: edit.change }),
    notify: (message) => toast.info(message),
  });
  const { rebase, dropTrack } = editor;

  // Each track's bouts: loaded once, and again when someone else saved a newer version and nothing of ours waits.
  // (The save queue may read a track itself, to send an edit left from an earlier visit: that is not a load.)
  const loading = useRef(new Set<string>());
  const loaded = useRef(new Set<string>());
  useEffect(() => {
    if (!sync) return;
    for (const track of tracks) {
      const id = track.annotation_config_uuid;
      const known = sync.confirmedVersion(id);
      const stale = known !== undefined && track.version > known && sync.pendingChanges(id).length === 0;
      if ((loaded.current.has(id) && !stale) || loading.current.has(id)) continue;
      loading.current.add(id);
      // The edits this tab and closed tabs left waiting are drawn on top: wait for them too.
      Promise.all([annotationsApi.ranges(videoRef, id), sync.queue.ready])
        .then(([answer]) => {
          rebase(id, sync.withPending(id, sync.setConfirmed(id, answer.ranges, answer.version)));
          loaded.current.add(id);
        })
        .catch(() => toast.error(`The bouts of "${track.name}" could not be loaded.`))
        .finally(() => loading.current.delete(id));
    }
    const ids = new Set(tracks.map((t) => t.annotation_config_uuid));
    for (const id of loaded.current) {
      if (ids.has(id)) continue;
      loaded.current.delete(id);
      dropTrack(id);
    }
  }, [tracks, sync, videoRef, rebase, dropTrack]);

  // What the save queue learns: someone else's version (our edits re-applied on top), a refusal, a deleted track.
  useEffect(() => {
    if (!sync) return;
    return sync.subscribe((event) => {
      if (event.type === 'rebase') {
        rebase(event.track, event.ranges);
        if (event.notice) toast.info(event.notice);
      } else if (event.type === 'refused') {
        toast.error(event.message);
      } else {
        toast.error(`The track "${event.trackName}" was deleted by someone else.`);
        void tracksQuery.refetch();
      }
    });
  }, [sync, rebase, tracksQuery.refetch]);

  // The timeline's window: the whole video at first; it follows the playhead.
  const widthRef = useRef(1000);
  const limits = useCallback(
    (): ViewLimits => ({ duration: frames.duration, fps: frames.fps, width: widthRef.current }),
    [frames],
  );
  const [view, setView] = useState<TimelineView>(() => wholeVideo(limits()));
  useEffect(
    () => player.clock.subscribe(() => setView((current) => follow(current, player.clock.get(), limits()))),
    [player, limits],
  );

  // A bout started by its key grows with the playhead; the clock is only followed while one is open.
  const anyOpen = Object.keys(editor.state.open).length > 0;
  const subscribeClock = useCallback(
    (listener: () => void) => (anyOpen ? player.clock.subscribe(listener) : () => {}),
    [anyOpen, player],
  );
  const now = useSyncExternalStore(subscribeClock, player.clock.get, player.clock.get);
  const marking = useMemo(() => {
    const out: Record<string, Range | null> = {};
    const current = nearestFrame(now, frames.fps);
    for (const [track, start] of Object.entries(editor.state.open)) out[track] = boutFromFrames(start, current, frames);
    return out;
  }, [editor.state.open, now, frames]);

  /**
   * The frame a track key marks. Paused: the frame on screen. Playing: the frame under the media clock at the key
   * press; the last composited frame (the player's clock) trails it by up to a frame or two of compositing, and a
   * bout must start where the key was pressed, not where the picture was a moment before.
   */
  const frameOfKeyPress = () => {
    const element = player.element;
    if (!element || element.paused) return player.currentFrame();
    return Math.min(frameAt(element.currentTime, player.fps), player.frameCount - 1);
  };
  const trackForKey = (key: string) => tracks.find((t) => t.hotkey === key)?.annotation_config_uuid ?? null;
  useAnnotatorKeys({
    readOnly,
    trackForKey,
    pressTrackKey: (track) => editor.pressKey(track, frameOfKeyPress()),
    togglePlay: () => player.togglePlay(),
    step: (n) => void player.step(n),
    jump: (seconds) => void player.seekFrame(player.currentFrame() + Math.round(seconds * player.fps)),
    setRate: (rate) => player.setRate(rate),
    deleteSelected: editor.deleteSelected,
    undo: editor.undo,
    redo: editor.redo,
    zoom: (direction) => setView((v) => zoomStep(v, direction, player.clock.get(), limits())),
    cancel: editor.cancel,
  });

  const timelineTracks = useMemo(
    () => tracks.map((t) => ({ id: t.annotation_config_uuid, name: t.name, color: t.color, hotkey: t.hotkey ?? null })),
    [tracks],
  );

  const onEdgeDrag = (track: string, bout: Range, edge: 'start' | 'end', time: number, done: boolean) => {
    // The video shows the frame the edge is on while it moves.
    void player.seekFrame(nearestFrame(time, frames.fps));
    if (done) editor.moveEdge(track, bout, edge, time);
  };

  const selectedTrack = tracks.find((t) => t.annotation_config_uuid === editor.state.selected?.track);

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <VideoPlayer
          player={player}
          source={playerSource(video)}
          maxHeight="45vh"
          marks={pose.layer}
          controls={<PlayerControls player={player} id={`annotator-rate-${video.video_uuid}`} seekBar />}
        />
        <Card className="content-start py-4">
          <CardContent className="grid gap-6">
            <TrackPanel
              videoRef={videoRef}
              tracks={tracks}
              ranges={editor.state.ranges}
              readOnly={readOnly}
              hasPendingSaves={(track) => (sync?.pendingChanges(track).length ?? 0) > 0}
              versionOf={(track) => sync?.confirmedVersion(track)}
              onImported={(track, result) => {
                sync?.setConfirmed(track, result.ranges, result.version);
                editor.recordSaved(track, result.ranges);
              }}
              onDeleted={(track) => editor.dropTrack(track)}
            />
            {pose.panel}
          </CardContent>
        </Card>
      </div>
      <Card className="gap-3 py-3">
        <CardContent className="grid grid-cols-1 gap-3">
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <SaveStatus
              status={status}
              onRetry={() => sync?.queue.retryNow()}
              onDownload={() =>
                sync &&
                saveJson(
                  { video_uuid: videoRef.videoUuid, kind: 'annotation-edits', edits: sync.pendingEdits() },
                  `unsaved-annotations-${videoRef.videoUuid}.json`,
                )
              }
            />
            <Position player={player} />
            <SelectedBout selection={editor.state.selected} trackName={selectedTrack?.name} fps={frames.fps} />
            <div className="ml-auto flex items-center gap-1">
              {readOnly ? null : (
                <>
                  <IconButton
                    label="Undo"
                    shortcut="Ctrl/⌘+Z"
                    onClick={editor.undo}
                    disabled={!editor.state.undo.length}
                  >
                    <Undo2 aria-hidden="true" />
                  </IconButton>
                  <IconButton
                    label="Redo"
                    shortcut="Shift+Ctrl/⌘+Z"
                    onClick={editor.redo}
                    disabled={!editor.state.redo.length}
                  >
                    <Redo2 aria-hidden="true" />
                  </IconButton>
                </>
              )}
              <IconButton
                label="Zoom out"
                shortcut="−"
                onClick={() => setView((v) => zoomStep(v, -1, player.clock.get(), limits()))}
              >
                <Minus aria-hidden="true" />
              </IconButton>
              <IconButton
                label="Zoom in"
                shortcut="+"
                onClick={() => setView((v) => zoomStep(v, 1, player.clock.get(), limits()))}
              >
                <Plus aria-hidden="true" />
              </IconButton>
              <IconButton label="Whole video" onClick={() => setView(wholeVideo(limits()))}>
                <Maximize2 aria-hidden="true" />
              </IconButton>
            </div>
          </div>
          {tracks.length === 0 ? (
            <p className="py-6 text-center text-muted-foreground text-sm">
              {readOnly ? 'No tracks to show.' : 'Add a track to start marking bouts.'}
            </p>
          ) : (
            <AnnotationTimeline
              tracks={timelineTracks}
              ranges={editor.state.ranges}
              marking={marking}
              selected={editor.state.selected}
              view={view}
              onViewChange={setView}
              onWidthChange={(width) => {
                widthRef.current = width;
              }}
              video={frames}
              playhead={player.clock}
              readOnly={readOnly}
              onSeek={(time) => void player.seekTime(time)}
              onSelect={editor.select}
              onDraw={editor.draw}
              onEdgeDrag={onEdgeDrag}
            />
          )}
          <KeyHelp readOnly={readOnly} />
        </CardContent>
      </Card>
    </div>
  );
}

function IconButton({
  label,
  shortcut,
  onClick,
  disabled,
  children,
}: {
  label: string;
  shortcut?: string;
  onClick: () => void;
  disabled?: boolean;
  children: React.ReactNode;
}) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={label} onClick={onClick} disabled={disabled}>
          {children}
        </Button>
      </TooltipTrigger>
      <TooltipContent>
        {label}
        {shortcut ? ` (${shortcut})` : ''}
      </TooltipContent>
    </Tooltip>
  );
}

function KeyHelp({ readOnly }: { readOnly: boolean }) {
  const keys: [string, string][] = readOnly
    ? [
        ['Space', 'play / pause'],
        ['← →', 'one frame'],
        ['Shift+← →', 'one second'],
        [', . /', '1× 0.5× 0.25×'],
        ['Ctrl/⌘+wheel, + −', 'zoom'],
      ]
    : [
        ['Track key', 'start / end a bout'],
        ['Drag', 'draw a bout · move an edge'],
        ['Delete', 'remove the selected bout'],
        ['Ctrl/⌘+Z', 'undo (Shift: redo)'],
        ['Space', 'play / pause'],
        ['← →', 'one frame (Shift: a second)'],
        [', . /', '1× 0.5× 0.25×'],
        ['Ctrl/⌘+wheel, + −', 'zoom'],
      ];
  return (
    <p className="flex flex-wrap gap-x-4 gap-y-1 text-muted-foreground text-xs">
      {keys.map(([key, action]) => (
        <span key={key}>
          <kbd className="rounded border bg-muted px-1 font-mono">{key}</kbd> {action}
        </span>
      ))}
    </p>
  );
}

/** The shown frame as the ruler's timecode (m:ss+ff), so the status line, the ruler and the bouts read alike. */
function Position({ player }: { player: PlayerController }) {
  const time = useTime(player.clock);
  return (
    <span className="font-mono text-sm tabular-nums" data-testid="annotator-position" title="Shown frame">
      {formatTimecode(frameAt(time, player.fps), player.fps)}
    </span>
  );
}
