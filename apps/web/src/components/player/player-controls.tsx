import { ChevronFirst, ChevronLast, Pause, Play, Rewind } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/select';
import { Slider } from '@/components/ui/slider';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { formatTime } from '@/lib/format';
import { frameAt, frameStart } from './frames';
import { PLAYBACK_RATES, type PlayerController, usePlayerState } from './player-controller';
import { useTime } from './time-store';

/**
 * The default control bar under the picture: transport buttons, time and frame readouts, speed, and optionally a
 * seek slider. Each readout subscribes to the player's clock on its own, so a playing video re-renders only them.
 */
export function PlayerControls({
  player,
  id,
  seekBar = false,
}: {
  player: PlayerController;
  /** Unique per page: the speed select's id. */
  id: string;
  seekBar?: boolean;
}) {
  return (
    <div className="grid grid-cols-1 gap-3 p-3">
      {seekBar ? <SeekSlider player={player} /> : null}
      <div className="flex flex-wrap items-center gap-1.5">
        <TransportButtons player={player} />
        <TimeReadout player={player} />
        <FrameReadout player={player} />
        <SpeedSelect id={id} player={player} />
      </div>
    </div>
  );
}

/** Play/pause, back to start and frame steps, with their usual keys in the tooltips. */
export function TransportButtons({ player }: { player: PlayerController }) {
  const { playing } = usePlayerState(player);
  return (
    <>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button size="icon" onClick={() => player.togglePlay()} aria-label={playing ? 'Pause' : 'Play'}>
            {playing ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
          </Button>
        </TooltipTrigger>
        <TooltipContent>{playing ? 'Pause' : 'Play'} (Space)</TooltipContent>
      </Tooltip>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button variant="ghost" size="icon" onClick={() => void player.seekFrame(0)} aria-label="Back to start">
            <Rewind aria-hidden="true" />
          </Button>
        </TooltipTrigger>
        <TooltipContent>Back to start (Home)</TooltipContent>
      </Tooltip>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button variant="ghost" size="icon" onClick={() => void player.step(-1)} aria-label="Previous frame">
            <ChevronFirst aria-hidden="true" />
          </Button>
        </TooltipTrigger>
        <TooltipContent>Previous frame (←)</TooltipContent>
      </Tooltip>
      <Tooltip>
        <TooltipTrigger asChild>
          <Button variant="ghost" size="icon" onClick={() => void player.step(1)} aria-label="Next frame">
            <ChevronLast aria-hidden="true" />
          </Button>
        </TooltipTrigger>
        <TooltipContent>Next frame (→)</TooltipContent>
      </Tooltip>
    </>
  );
}

/**
 * The clock: the shown frame's start time (the time the series, the events and the exports give that frame), so it
 * always agrees with the frame readout — frame 30 at 30 fps reads 0:00:01.000, never 0:00:00.999 or a rounded 1.00.
 */
export function TimeReadout({ player }: { player: PlayerController }) {
  const time = useTime(player.clock);
  const { duration } = usePlayerState(player);
  return (
    <span className="ml-1 font-mono text-sm tabular-nums" data-testid="player-time">
      {formatTime(frameStart(frameAt(time, player.fps), player.fps))} / {formatTime(duration)}
    </span>
  );
}

/** The shown frame's number, and with `showTime` its start time (where no clock is beside it). */
export function FrameReadout({ player, showTime = false }: { player: PlayerController; showTime?: boolean }) {
  const time = useTime(player.clock);
  const frame = frameAt(time, player.fps);
  return (
    <span className="text-muted-foreground text-xs tabular-nums" data-testid="player-frame">
      frame {frame}
      {showTime ? ` · ${formatTime(frameStart(frame, player.fps))}` : ''}
    </span>
  );
}

/** The playback speed select. */
export function SpeedSelect({ id, player }: { id: string; player: PlayerController }) {
  const { rate } = usePlayerState(player);
  const rates: readonly number[] = PLAYBACK_RATES.includes(rate as (typeof PLAYBACK_RATES)[number])
    ? PLAYBACK_RATES
    : [...PLAYBACK_RATES, rate].sort((a, b) => a - b);
  return (
    <div className="ml-auto flex items-center gap-2">
      <label htmlFor={id} className="text-muted-foreground text-xs">
        Speed
      </label>
      <NativeSelect id={id} value={String(rate)} onChange={(e) => player.setRate(Number(e.target.value))}>
        {rates.map((value) => (
          <option key={value} value={value}>
            {value}×
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

function SeekSlider({ player }: { player: PlayerController }) {
  const time = useTime(player.clock);
  const { duration } = usePlayerState(player);
  return (
    <Slider
      aria-label="Seek"
      min={0}
      max={Math.max(duration, 0.001)}
      step={1 / player.fps}
      value={[Math.min(time, duration)]}
      onValueChange={([value]) => void player.seekTime(value ?? 0)}
    />
  );
}
