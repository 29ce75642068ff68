import { Pause, Play, RotateCcw } from 'lucide-react';
import type { ClipSpan } from '@/components/player/frames';
import { type PlayerController, usePlayerState } from '@/components/player/player-controller';
import { FrameReadout, TimeReadout } from '@/components/player/player-controls';
import { Button } from '@/components/ui/button';
import { Kbd } from '@/components/ui/kbd';
import { NativeSelect } from '@/components/ui/select';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { cn } from '@/lib/utils';
import { SPAN_CHOICES } from '../hooks/use-clip-span';

const RATES = [
  { rate: 1, key: ',' },
  { rate: 0.5, key: '.' },
  { rate: 0.25, key: '/' },
] as const;

const spanLabel = (span: ClipSpan) =>
  span.before === span.after ? `±${span.before} s` : `−${span.before} s / +${span.after} s`;

/** Under the picture: replay, play/pause, the three review speeds, time and frame, the clip's length. */
export function ClipControls({
  player,
  span,
  onSpan,
  onReplay,
  disabled,
}: {
  player: PlayerController;
  span: ClipSpan;
  onSpan: (span: ClipSpan) => void;
  onReplay: () => void;
  disabled: boolean;
}) {
  const { playing, rate } = usePlayerState(player);
  const choices = SPAN_CHOICES.some((c) => c.before === span.before && c.after === span.after)
    ? SPAN_CHOICES
    : [...SPAN_CHOICES, span];
  return (
    <div className="flex flex-wrap items-center gap-1.5 p-3">
      <Tooltip>
        <TooltipTrigger asChild>
          <Button size="sm" onClick={onReplay} disabled={disabled}>
            <RotateCcw aria-hidden="true" />
            Replay
            <Kbd className="border-primary-foreground/30 bg-primary-foreground/15 text-primary-foreground">Space</Kbd>
          </Button>
        </TooltipTrigger>
        <TooltipContent>Play the clip again from its start</TooltipContent>
      </Tooltip>
      <Button
        variant="ghost"
        size="icon-sm"
        onClick={() => player.togglePlay()}
        aria-label={playing ? 'Pause' : 'Play'}
        disabled={disabled}
      >
        {playing ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
      </Button>
      <fieldset className="flex items-center rounded-md border p-0.5">
        <legend className="sr-only">Speed</legend>
        {RATES.map((choice) => (
          <Button
            key={choice.rate}
            variant="ghost"
            size="sm"
            className={cn('h-7 gap-1.5 px-2', rate === choice.rate && 'bg-accent text-accent-foreground')}
            aria-pressed={rate === choice.rate}
            onClick={() => player.setRate(choice.rate)}
          >
            {choice.rate}×<Kbd className="h-4 min-w-4 text-[0.65rem]">{choice.key}</Kbd>
          </Button>
        ))}
      </fieldset>
      <TimeReadout player={player} />
      <FrameReadout player={player} showTime />
      <div className="ml-auto flex items-center gap-2">
        <label htmlFor="qs-clip" className="text-muted-foreground text-xs">
          Clip
        </label>
        <NativeSelect
          id="qs-clip"
          value={`${span.before}/${span.after}`}
          onChange={(event) => {
            const [before, after] = event.target.value.split('/').map(Number);
            onSpan({ before: before ?? 0.5, after: after ?? 0.5 });
            // Back to the page's keys at once (arrows in a focused select would change it).
            event.target.blur();
          }}
        >
          {choices.map((choice) => (
            <option key={`${choice.before}/${choice.after}`} value={`${choice.before}/${choice.after}`}>
              {spanLabel(choice)}
            </option>
          ))}
        </NativeSelect>
      </div>
    </div>
  );
}
