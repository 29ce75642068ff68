import { ChevronFirst, ChevronLast, Pause, Play, Rewind } from 'lucide-react';
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/select';
import { Slider } from '@/components/ui/slider';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { formatDuration } from '@/lib/format';
import type { Video } from '../api';

export const PLAYBACK_RATES = [0.25, 0.5, 1, 1.5, 2] as const;
const DEFAULT_FPS = 30;

/** Time of the frame `frame` at `fps`, nudged to the frame's middle so browsers land on it. */
export function frameTime(frame: number, fps: number): number {
  return Math.max(0, (frame + 0.5) / fps);
}

export function frameAt(time: number, fps: number): number {
  return Math.max(0, Math.floor(time * fps + 1e-6));
}

/**
 * The players' keyboard shortcuts: Space/k play or pause, ←/→ (or , and .) step a frame, Shift+←/→ jump a
 * second, Home goes to the start. Keys typed into the player's own controls are left to them.
 */
export function playerKeys(actions: {
  togglePlay: () => void;
  step: (frames: number) => void;
  seek: (seconds: number) => void;
  now: () => number;
}) {
  return (event: KeyboardEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest('select, [role="slider"], button, input')) return;
    if (event.key === ' ' || event.key === 'k') {
      event.preventDefault();
      actions.togglePlay();
    } else if (event.key === 'ArrowRight' || event.key === '.') {
      event.preventDefault();
      if (event.shiftKey) actions.seek(actions.now() + 1);
      else actions.step(1);
    } else if (event.key === 'ArrowLeft' || event.key === ',') {
      event.preventDefault();
      if (event.shiftKey) actions.seek(actions.now() - 1);
      else actions.step(-1);
    } else if (event.key === 'Home') {
      event.preventDefault();
      actions.seek(0);
    }
  };
}

/** The playback speed select of the players. */
export function SpeedSelect({ id, rate, onChange }: { id: string; rate: number; onChange: (rate: number) => void }) {
  return (
    <div className="ml-auto flex items-center gap-2">
      <label htmlFor={id} className="text-muted-foreground text-xs">
        Speed
      </label>
      <NativeSelect id={id} value={String(rate)} onChange={(e) => onChange(Number(e.target.value))}>
        {PLAYBACK_RATES.map((value) => (
          <option key={value} value={value}>
            {value}×
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

/** A player with play/pause, speed, frame stepping and seeking, all keyboard reachable. */
export function VideoPlayer({ video }: { video: Video }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(video.duration_s ?? 0);
  const [rate, setRate] = useState(1);
  const fps = video.fps && video.fps > 0 ? video.fps : DEFAULT_FPS;

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    // requestVideoFrameCallback gives frame-accurate time while playing; timeupdate is the fallback.
    let handle = 0;
    const supportsFrames = 'requestVideoFrameCallback' in element;
    const onFrame = () => {
      setTime(element.currentTime);
      handle = element.requestVideoFrameCallback(onFrame);
    };
    if (supportsFrames) handle = element.requestVideoFrameCallback(onFrame);
    return () => {
      if (supportsFrames) element.cancelVideoFrameCallback(handle);
    };
  }, []);

  const togglePlay = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    if (element.paused) void element.play().catch(() => setPlaying(false));
    else element.pause();
  }, []);

  const seek = useCallback(
    (seconds: number) => {
      const element = ref.current;
      if (!element) return;
      const max = Number.isFinite(element.duration) ? element.duration : duration;
      element.currentTime = Math.min(Math.max(0, seconds), max || 0);
      setTime(element.currentTime);
    },
    [duration],
  );

  const step = useCallback(
    (frames: number) => {
      const element = ref.current;
      if (!element) return;
      element.pause();
      seek(frameTime(frameAt(element.currentTime, fps) + frames, fps));
    },
    [fps, seek],
  );

  const changeRate = (value: number) => {
    setRate(value);
    if (ref.current) ref.current.playbackRate = value;
  };

  const onKeyDown = playerKeys({ togglePlay, step, seek, now: () => time });

  const frame = frameAt(time, fps);

  return (
    <div
      role="application"
      aria-roledescription="video player"
      aria-label={`Player: ${video.name}`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the player takes keyboard shortcuts (Space, arrows).
      tabIndex={0}
      onKeyDown={onKeyDown}
      className="overflow-hidden rounded-xl border bg-card outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      <div className="relative bg-black">
        <video
          ref={ref}
          src={video.stream_url ?? undefined}
          poster={video.thumbnail_url ?? undefined}
          preload="metadata"
          playsInline
          muted
          className="mx-auto aspect-video max-h-[60vh] w-full cursor-pointer object-contain"
          onClick={togglePlay}
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onEnded={() => setPlaying(false)}
          onTimeUpdate={(e) => setTime(e.currentTarget.currentTime)}
          onSeeked={(e) => setTime(e.currentTarget.currentTime)}
          onLoadedMetadata={(e) => {
            if (Number.isFinite(e.currentTarget.duration)) setDuration(e.currentTarget.duration);
            e.currentTarget.playbackRate = rate;
          }}
          data-testid="video-element"
        />
      </div>
      <div className="grid grid-cols-1 gap-3 p-3">
        <Slider
          aria-label="Seek"
          min={0}
          max={Math.max(duration, 0.001)}
          step={1 / fps}
          value={[Math.min(time, duration)]}
          onValueChange={([value]) => seek(value ?? 0)}
        />
        <div className="flex flex-wrap items-center gap-1.5">
          <TransportButtons playing={playing} onTogglePlay={togglePlay} onRestart={() => seek(0)} onStep={step} />
          <span className="ml-1 font-mono text-sm tabular-nums" data-testid="player-time">
            {formatDuration(time)} / {formatDuration(duration)}
          </span>
          <span className="hidden text-muted-foreground text-xs tabular-nums sm:inline" data-testid="player-frame">
            frame {frame}
          </span>
          <SpeedSelect id={`rate-${video.video_uuid}`} rate={rate} onChange={changeRate} />
        </div>
      </div>
    </div>
  );
}

/** Play/pause, back to start and frame steps, with their keys in the tooltips: the same in every player. */
export function TransportButtons({
  playing,
  onTogglePlay,
  onRestart,
  onStep,
}: {
  playing: boolean;
  onTogglePlay: () => void;
  onRestart: () => void;
  onStep: (frames: number) => void;
}) {
  return (
    <>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button size="icon" onClick={onTogglePlay} aria-label={playing ? 'Pause' : 'Play'}>
            {playing ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
          </Button>
        </TooltipTrigger>
        <TooltipContent>{playing ? 'Pause' : 'Play'} (Space)</TooltipContent>
      </Tooltip>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button variant="ghost" size="icon" onClick={onRestart} aria-label="Back to start">
            <Rewind aria-hidden="true" />
          </Button>
        </TooltipTrigger>
        <TooltipContent>Back to start (Home)</TooltipContent>
      </Tooltip>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button variant="ghost" size="icon" onClick={() => onStep(-1)} aria-label="Previous frame">
            <ChevronFirst aria-hidden="true" />
          </Button>
        </TooltipTrigger>
        <TooltipContent>Previous frame (←)</TooltipContent>
      </Tooltip>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button variant="ghost" size="icon" onClick={() => onStep(1)} aria-label="Next frame">
            <ChevronLast aria-hidden="true" />
          </Button>
        </TooltipTrigger>
        <TooltipContent>Next frame (→)</TooltipContent>
      </Tooltip>
    </>
  );
}
