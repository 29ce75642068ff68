import type { TimeRange } from '@app/time-ranges';
import { Plus, Trash2 } from 'lucide-react';
import { type KeyboardEvent, type PointerEvent, useRef, useSyncExternalStore } from 'react';
import { type TimeSource, useTime } from '@/components/player/time-store';
import { Button } from '@/components/ui/button';
import { formatTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { activeRoiIndex, describeRoiRect, type Roi, type Size } from '../rois';

const DRAG_START_PX = 3;

/**
 * The ROI timeline under the player: one marker per ROI at its start (the first fixed at 0 s), bypass ranges
 * shaded, the playhead. Clicking the track seeks; a marker drags within its neighbours (arrow keys move it by a
 * frame), and hovering or focusing it reveals its delete button.
 */
export function RoiTimeline({
  duration,
  fps,
  picture,
  rois,
  bypassRanges,
  clock,
  onSeek,
  onAdd,
  onMove,
  onDelete,
  errors,
}: {
  duration: number;
  fps: number;
  picture: Size;
  rois: readonly Roi[];
  bypassRanges: readonly TimeRange[];
  clock: TimeSource;
  onSeek: (time: number) => void;
  onAdd: () => void;
  onMove: (index: number, time: number) => void;
  onDelete: (index: number) => void;
  errors?: string[] | undefined;
}) {
  const trackRef = useRef<HTMLDivElement>(null);
  const active = useSyncExternalStore(clock.subscribe, () => activeRoiIndex(rois, clock.get()));
  const span = duration > 0 ? duration : 1;
  const percent = (time: number) => `${(Math.min(Math.max(time, 0), span) / span) * 100}%`;

  const timeAt = (clientX: number) => {
    const bounds = trackRef.current?.getBoundingClientRect();
    if (!bounds || bounds.width === 0) return 0;
    return (Math.min(Math.max(clientX - bounds.left, 0), bounds.width) / bounds.width) * span;
  };

  const activeRoi = rois[active];

  return (
    <div className="grid grid-cols-1 gap-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm" data-testid="active-roi">
          <span className="font-medium">
            ROI {active + 1} of {rois.length}
          </span>
          <span className="text-muted-foreground">
            {' '}
            · from {formatTime(activeRoi?.start_s)} · {describeRoiRect(activeRoi?.rect ?? null, picture)}
          </span>
        </p>
        <Button variant="outline" size="sm" onClick={onAdd} aria-label="Add an ROI at the current time">
          <Plus aria-hidden="true" />
          ROI here
        </Button>
      </div>
      <div
        ref={trackRef}
        className="relative h-14 cursor-pointer touch-none rounded-md border bg-muted/60"
        onPointerDown={(event) => {
          if (event.button === 0) onSeek(timeAt(event.clientX));
        }}
        data-testid="roi-timeline"
      >
        {/* The span each ROI is in force, alternately tinted, the active one strongest. */}
        {rois.map((roi, index) => {
          const end = rois[index + 1]?.start_s ?? span;
          return (
            <div
              // biome-ignore lint/suspicious/noArrayIndexKey: an ROI is identified by its place in the list.
              key={index}
              aria-hidden="true"
              className={cn(
                'absolute inset-y-0',
                index === active ? 'bg-amber-400/25' : index % 2 ? 'bg-foreground/5' : 'bg-transparent',
              )}
              style={{ left: percent(roi.start_s), width: `calc(${percent(end)} - ${percent(roi.start_s)})` }}
            />
          );
        })}
        {bypassRanges.map(([start, end]) => (
          <div
            key={`${start}-${end}`}
            className="absolute inset-y-0 bg-[repeating-linear-gradient(135deg,var(--color-muted-foreground)_0_2px,transparent_2px_6px)] opacity-40"
            style={{ left: percent(start), width: `calc(${percent(end)} - ${percent(start)})` }}
            title={`Bypassed: ${formatTime(start)} – ${formatTime(end)}`}
            data-testid="bypass-span"
          />
        ))}
        <Playhead clock={clock} percent={percent} />
        {rois.map((roi, index) => (
          <RoiMarker
            // biome-ignore lint/suspicious/noArrayIndexKey: an ROI is identified by its place in the list.
            key={index}
            index={index}
            roi={roi}
            left={percent(roi.start_s)}
            active={index === active}
            fps={fps}
            timeAt={timeAt}
            onSeek={onSeek}
            onMove={onMove}
            onDelete={onDelete}
          />
        ))}
      </div>
      <div className="flex justify-between text-muted-foreground text-xs tabular-nums" aria-hidden="true">
        <span>0 s</span>
        <span>{(span / 2).toFixed(1)} s</span>
        <span>{span.toFixed(1)} s</span>
      </div>
      {errors?.length ? (
        <p className="text-destructive text-xs" role="alert" data-testid="roi-error">
          {errors.join(' ')}
        </p>
      ) : (
        <p className="text-muted-foreground text-xs">
          Drag on the picture to draw the ROI in force at the current time. Add an ROI where the animal or camera moves;
          drag a marker to change when it starts.
        </p>
      )}
    </div>
  );
}

function Playhead({ clock, percent }: { clock: TimeSource; percent: (time: number) => string }) {
  const time = useTime(clock);
  return (
    <div
      aria-hidden="true"
      className="pointer-events-none absolute inset-y-0 w-0.5 -translate-x-1/2 bg-primary"
      style={{ left: percent(time) }}
      data-testid="timeline-playhead"
    />
  );
}

function RoiMarker({
  index,
  roi,
  left,
  active,
  fps,
  timeAt,
  onSeek,
  onMove,
  onDelete,
}: {
  index: number;
  roi: Roi;
  left: string;
  active: boolean;
  fps: number;
  timeAt: (clientX: number) => number;
  onSeek: (time: number) => void;
  onMove: (index: number, time: number) => void;
  onDelete: (index: number) => void;
}) {
  const fixed = index === 0;
  const drag = useRef<{ x: number; moved: boolean } | null>(null);

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    event.stopPropagation();
    if (event.button !== 0) return;
    drag.current = { x: event.clientX, moved: false };
    if (!fixed) event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLButtonElement>) => {
    const state = drag.current;
    if (!state || fixed) return;
    if (!state.moved && Math.abs(event.clientX - state.x) < DRAG_START_PX) return;
    state.moved = true;
    onMove(index, timeAt(event.clientX));
  };
  const onPointerUp = () => {
    const state = drag.current;
    drag.current = null;
    // A press without a drag is a click: go to where the ROI starts.
    if (state && !state.moved) onSeek(roi.start_s);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (fixed) return;
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      // Aim at the middle of the neighbouring frame so rounding lands on it.
      const frames = event.key === 'ArrowLeft' ? -0.5 : 1.5;
      onMove(index, roi.start_s + frames / fps);
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      onDelete(index);
    }
  };

  return (
    <div
      className="group absolute inset-y-0 z-10 flex w-0 flex-col items-center justify-between"
      style={{ left }}
      data-testid="roi-marker"
      data-start={roi.start_s}
    >
      {fixed ? (
        <span />
      ) : (
        <Button
          variant="destructive"
          size="icon"
          className="-mt-3 size-6 opacity-0 transition-opacity focus-visible:opacity-100 group-focus-within:opacity-100 group-hover:opacity-100"
          aria-label={`Delete ROI ${index + 1}`}
          onPointerDown={(event) => event.stopPropagation()}
          onClick={() => onDelete(index)}
        >
          <Trash2 aria-hidden="true" className="size-3.5" />
        </Button>
      )}
      <div aria-hidden="true" className={cn('w-0.5 flex-1', active ? 'bg-amber-500' : 'bg-foreground/50')} />
      <button
        type="button"
        className={cn(
          'mb-0.5 flex h-5 min-w-5 items-center justify-center rounded-full border px-1 font-medium text-[10px] shadow-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
          active ? 'border-amber-600 bg-amber-400 text-amber-950' : 'bg-background',
          fixed ? 'cursor-pointer' : 'cursor-ew-resize',
        )}
        aria-label={
          fixed
            ? `ROI 1 at ${formatTime(0)} (fixed)`
            : `ROI ${index + 1} at ${formatTime(roi.start_s)}: drag or use arrow keys to move, Delete to remove`
        }
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          drag.current = null;
        }}
        onKeyDown={onKeyDown}
        onClick={(event) => {
          // Keyboard activation (Enter/Space) arrives as a click with no pointer press: seek there too.
          if (event.detail === 0) onSeek(roi.start_s);
        }}
      >
        {index + 1}
      </button>
    </div>
  );
}
