import { useMemo, useRef } from 'react';
import type uPlot from 'uplot';
import type { ChartEvent, ChartSeries } from '@/components/chart/chart-data';
import { useSeriesChart } from '@/components/chart/use-series-chart';
import type { PlayerController } from '@/components/player/player-controller';
import { countOf, formatTime } from '@/lib/format';
import type { ReviewEvent } from '../review-events';

/** How near the centre line (CSS px) a press grabs it. */
const GRAB_PX = 8;

export interface TraceDrop {
  kind: 'move' | 'add';
  /** Snapped to the start of a frame (may be before 0 s: the page refuses it with a message). */
  time: number;
}

/**
 * The run's series around the current event: its centre line (drag it to move the event, snapped to frames),
 * neighbouring events, the threshold, and the player's time. Alt+drag adds an event where it is released; a plain
 * click seeks the player. Only the window's few hundred points are traced, whatever the series' length.
 */
export function EventTrace({
  series,
  event,
  neighbours,
  window,
  threshold,
  bypassRanges,
  player,
  canEdit,
  label,
  onDrop,
}: {
  series: ChartSeries;
  event: ReviewEvent;
  /** Events inside `window` (the current one included). */
  neighbours: readonly ReviewEvent[];
  window: readonly [number, number];
  threshold: number | null;
  bypassRanges: readonly (readonly [number, number])[];
  player: PlayerController;
  canEdit: boolean;
  /** The y-axis label: what the series counts. */
  label: string;
  onDrop: (drop: TraceDrop) => void;
}) {
  const live = useRef({ event, canEdit, onDrop, fps: player.fps });
  live.current = { event, canEdit, onDrop, fps: player.fps };
  const events: ChartEvent[] = useMemo(
    () => neighbours.map((e) => ({ time: e.time, discarded: e.discarded, selected: e.id === event.id })),
    [neighbours, event.id],
  );
  const { hostRef, readoutRef } = useSeriesChart({
    series,
    events,
    bypassRanges,
    threshold,
    cursor: player.clock,
    onSeek: (time) => void player.seekTime(time),
    height: 180,
    label,
    window,
    onChart: (u) => attachDragging(u, live),
  });

  return (
    <div className="grid min-w-0 grid-cols-1 gap-1" data-testid="event-trace">
      <div className="flex min-h-5 items-center justify-between gap-3 text-muted-foreground text-xs">
        <span>
          {canEdit ? 'Drag the red line to move the event · Alt+drag to add one' : 'The series around the event'}
        </span>
        <span ref={readoutRef} className="font-mono tabular-nums" />
      </div>
      <div
        ref={hostRef}
        className="min-w-0 overflow-hidden [&_.u-cursor-x]:border-muted-foreground/60"
        style={{ height: 180 }}
        role="img"
        aria-label={`Series from ${formatTime(window[0])} to ${formatTime(window[1])} around the event at ${formatTime(event.time)}; ${countOf(neighbours.length, 'event')} in view${threshold != null ? `; threshold ${threshold}` : ''}.`}
      />
    </div>
  );
}

type Live = { current: { event: ReviewEvent; canEdit: boolean; onDrop: (drop: TraceDrop) => void; fps: number } };

/**
 * Pointer work on the plot: a press on the centre line drags it, Alt+press drags a new event out; a ghost line
 * follows the pointer and the drop is reported snapped to a frame. Other presses are left to the chart (click to seek).
 */
function attachDragging(u: uPlot, live: Live): () => void {
  const over = u.over;
  const ghost = document.createElement('div');
  Object.assign(ghost.style, {
    position: 'absolute',
    top: '0',
    left: '0',
    height: '100%',
    width: '0',
    borderLeft: '2px dashed var(--destructive, #dc2626)',
    pointerEvents: 'none',
    display: 'none',
  });
  ghost.dataset.testid = 'trace-ghost';
  over.appendChild(ghost);
  let drag: { kind: TraceDrop['kind']; pointer: number; time: number } | null = null;
  let swallowClick = false;

  const place = (time: number) => {
    ghost.style.display = '';
    ghost.style.transform = `translateX(${u.valToPos(time, 'x') - 1}px)`;
  };

  const onDown = (event: PointerEvent) => {
    if (event.button !== 0 || !live.current.canEdit) return;
    const x = event.clientX - over.getBoundingClientRect().left;
    const lineX = u.valToPos(live.current.event.time, 'x');
    const kind = event.altKey ? 'add' : Math.abs(x - lineX) <= GRAB_PX ? 'move' : null;
    if (!kind) return;
    // No text selection, no zoom, no seek: this press is ours.
    event.preventDefault();
    event.stopPropagation();
    over.setPointerCapture(event.pointerId);
    const time = kind === 'move' ? live.current.event.time : signedSnap(u, over, event.clientX, live.current.fps);
    drag = { kind, pointer: event.pointerId, time };
    swallowClick = true;
    place(time);
  };
  const onMove = (event: PointerEvent) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    drag.time = signedSnap(u, over, event.clientX, live.current.fps);
    place(drag.time);
  };
  const onUp = (event: PointerEvent) => {
    if (!drag || event.pointerId !== drag.pointer) return;
    const done = drag;
    drag = null;
    ghost.style.display = 'none';
    done.time = signedSnap(u, over, event.clientX, live.current.fps);
    live.current.onDrop({ kind: done.kind, time: done.time });
  };
  const onCancel = () => {
    drag = null;
    ghost.style.display = 'none';
  };
  const onClick = (event: MouseEvent) => {
    if (!swallowClick) return;
    swallowClick = false;
    event.stopImmediatePropagation();
  };
  over.addEventListener('pointerdown', onDown, true);
  over.addEventListener('pointermove', onMove);
  over.addEventListener('pointerup', onUp);
  over.addEventListener('pointercancel', onCancel);
  over.addEventListener('click', onClick, true);
  return () => {
    over.removeEventListener('pointerdown', onDown, true);
    over.removeEventListener('pointermove', onMove);
    over.removeEventListener('pointerup', onUp);
    over.removeEventListener('pointercancel', onCancel);
    over.removeEventListener('click', onClick, true);
    ghost.remove();
  };
}

/** The time under the pointer snapped to a frame start, keeping its sign (a drop before 0 s must be seen as such). */
function signedSnap(u: uPlot, over: HTMLElement, clientX: number, fps: number): number {
  const time = u.posToVal(clientX - over.getBoundingClientRect().left, 'x');
  return Math.round(time * fps) / fps || 0;
}
