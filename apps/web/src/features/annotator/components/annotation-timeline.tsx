import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { countOf } from '@/lib/format';
import { cn } from '@/lib/utils';
import { type Range, rangeIndexAt, sameRange, visibleSlice } from '../bouts';
import { edgeTarget, type Selection, type VideoFrames } from '../marking';
import {
  drawTimeline,
  LANE_GAP,
  LANE_HEIGHT,
  type LaneModel,
  laneTop,
  RULER_HEIGHT,
  type TimelineColors,
  timelineColors,
  timelineHeight,
} from '../timeline-draw';
import { panBy, type TimelineView, timeToX, type ViewLimits, xToTime, ZOOM_STEP, zoomAt } from '../timeline-view';

export interface TimelineTrack {
  id: string;
  name: string;
  color: string;
  hotkey: string | null;
}

/** The playhead's time: read on each frame without re-rendering the timeline. */
export interface PlayheadSource {
  get(): number;
  subscribe(listener: () => void): () => void;
}

export interface AnnotationTimelineProps {
  tracks: readonly TimelineTrack[];
  ranges: Readonly<Record<string, Range[]>>;
  /** Bouts being marked by key (from the start frame to the current one), per track. */
  marking: Readonly<Record<string, Range | null>>;
  selected: Selection | null;
  view: TimelineView;
  onViewChange: (view: TimelineView) => void;
  /** The lanes' width in CSS pixels, when it changes (the zoom limit depends on it). */
  onWidthChange?: (width: number) => void;
  video: VideoFrames & { duration: number };
  playhead: PlayheadSource;
  readOnly: boolean;
  onSeek: (time: number) => void;
  onSelect: (selection: Selection | null) => void;
  onDraw: (track: string, from: number, to: number) => void;
  /** An edge being dragged (`done` false: the video should show it) or released (`done` true: commit). */
  onEdgeDrag: (track: string, bout: Range, edge: 'start' | 'end', time: number, done: boolean) => void;
}

/** How close (CSS px) to a bout's edge a press grabs the edge. */
const EDGE_GRAB_PX = 6;
/** Movement (CSS px) that turns a press into a drag. */
const DRAG_THRESHOLD_PX = 4;

type Gesture =
  | { kind: 'press'; track: string | null; x: number; time: number; onRuler: boolean }
  | { kind: 'draw'; track: string; from: number; to: number }
  | { kind: 'edge'; track: string; bout: Range; edge: 'start' | 'end'; target: Range }
  | { kind: 'pan'; lastX: number };

function readColors(): TimelineColors {
  if (typeof document === 'undefined') return timelineColors(() => '');
  const style = getComputedStyle(document.documentElement);
  return timelineColors((variable) => style.getPropertyValue(variable));
}

/**
 * The Annotator's timeline: one lane per track on a canvas, zoomable from the whole video to single frames
 * (Ctrl/⌘+wheel, pinch, the +/− keys of the page), panned by dragging the ruler or scrolling sideways. A click seeks;
 * a drag on a lane draws a bout; a drag on a bout's edge moves it; a click on a bout selects it. Only the bouts inside
 * the window are drawn, and the playhead moves without redrawing them.
 */
export function AnnotationTimeline(props: AnnotationTimelineProps) {
  const { tracks, ranges, marking, selected, view, video, playhead, readOnly } = props;
  const hostRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const playheadRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [colors, setColors] = useState<TimelineColors>(readColors);
  const [gesture, setGesture] = useState<Gesture | null>(null);
  const gestureRef = useRef<Gesture | null>(null);
  const touches = useRef(new Map<number, number>());
  const pinch = useRef<{ distance: number; view: TimelineView } | null>(null);
  const height = timelineHeight(tracks.length);

  const limits: ViewLimits = useMemo(
    () => ({ duration: video.duration, fps: video.fps, width: Math.max(1, width) }),
    [video.duration, video.fps, width],
  );
  // Handlers read the latest props without being re-created on every render.
  const live = useRef({ props, limits, width });
  live.current = { props, limits, width };

  useEffect(() => {
    if (width > 0) live.current.props.onWidthChange?.(width);
  }, [width]);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    setWidth(Math.floor(host.getBoundingClientRect().width));
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => setWidth(Math.floor(entries[0]?.contentRect.width ?? 0)));
    observer.observe(host);
    return () => observer.disconnect();
  }, []);

  // The theme provider switches a class on <html>: re-read the colours.
  useEffect(() => {
    if (typeof MutationObserver === 'undefined') return;
    const observer = new MutationObserver(() => setColors(readColors()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class', 'style'] });
    return () => observer.disconnect();
  }, []);

  const lanes: LaneModel[] = useMemo(
    () =>
      tracks.map((track) => {
        let trackRanges = ranges[track.id] ?? [];
        let pending = marking[track.id] ?? null;
        let laneSelected = selected?.track === track.id ? selected.range : null;
        if (gesture?.kind === 'draw' && gesture.track === track.id) {
          pending = [Math.min(gesture.from, gesture.to), Math.max(gesture.from, gesture.to)];
        }
        if (gesture?.kind === 'edge' && gesture.track === track.id) {
          // The bout as it will be: drawn in place of the old one while its edge moves.
          trackRanges = trackRanges.filter((r) => !sameRange(r, gesture.bout));
          pending = gesture.target;
          laneSelected = gesture.target;
        }
        return { color: track.color, ranges: trackRanges, pending, selected: laneSelected };
      }),
    [tracks, ranges, marking, selected, gesture],
  );

  useLayoutEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || width <= 0) return;
    const dpr = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
    const pixelWidth = Math.round(width * dpr);
    const pixelHeight = Math.round(height * dpr);
    if (canvas.width !== pixelWidth) canvas.width = pixelWidth;
    if (canvas.height !== pixelHeight) canvas.height = pixelHeight;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const started = performance.now();
    const shown = drawTimeline(ctx, { width, height, dpr, view, fps: video.fps, lanes, colors });
    performance.measure('annotator-timeline-draw', { start: started, end: performance.now() });
    canvas.dataset.shownBouts = String(shown);
  }, [width, height, view, video.fps, lanes, colors]);

  // The playhead follows the video by moving an element, never by redrawing the canvas.
  useEffect(() => {
    const place = () => {
      const line = playheadRef.current;
      if (!line) return;
      const { width: w, props: p } = live.current;
      const x = timeToX(p.view, w, playhead.get());
      line.style.transform = `translateX(${x}px)`;
      line.style.visibility = x < -1 || x > w + 1 ? 'hidden' : 'visible';
    };
    place();
    return playhead.subscribe(place);
  }, [playhead]);
  useLayoutEffect(() => {
    const line = playheadRef.current;
    if (!line) return;
    const x = timeToX(view, width, playhead.get());
    line.style.transform = `translateX(${x}px)`;
    line.style.visibility = x < -1 || x > width + 1 ? 'hidden' : 'visible';
  }, [view, width, playhead]);

  const setGestureBoth = (next: Gesture | null) => {
    gestureRef.current = next;
    setGesture(next);
  };

  const locate = useCallback((event: { clientX: number; clientY: number }) => {
    const rect = canvasRef.current!.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    const { props: p, width: w } = live.current;
    const time = xToTime(p.view, w, x);
    const laneIndex = y < RULER_HEIGHT ? -1 : Math.floor((y - RULER_HEIGHT) / (LANE_HEIGHT + LANE_GAP));
    const inLane = laneIndex >= 0 && y - laneTop(laneIndex) <= LANE_HEIGHT;
    const track = inLane ? (p.tracks[laneIndex]?.id ?? null) : null;
    return { x, y, time, track, onRuler: y < RULER_HEIGHT };
  }, []);

  /** The edge of a bout of `track` within grabbing distance of x, nearest first. */
  const edgeNear = (track: string, x: number) => {
    const { props: p, width: w } = live.current;
    const list = p.ranges[track] ?? [];
    const slack = (EDGE_GRAB_PX / Math.max(1, w)) * p.view.span;
    const time = xToTime(p.view, w, x);
    const [from, to] = visibleSlice(list, time - slack, time + slack);
    let best: { bout: Range; edge: 'start' | 'end'; distance: number } | null = null;
    for (let i = from; i < to; i++) {
      const bout = list[i]!;
      for (const edge of ['start', 'end'] as const) {
        const distance = Math.abs(timeToX(p.view, w, edge === 'start' ? bout[0] : bout[1]) - x);
        if (distance <= EDGE_GRAB_PX && (!best || distance < best.distance)) best = { bout, edge, distance };
      }
    }
    return best;
  };

  const onPointerDown = (event: React.PointerEvent<HTMLCanvasElement>) => {
    if (event.button !== 0) return;
    if (event.pointerType === 'touch') {
      touches.current.set(event.pointerId, event.clientX);
      if (touches.current.size === 2) {
        const [a, b] = [...touches.current.values()];
        pinch.current = { distance: Math.abs(a! - b!), view: live.current.props.view };
        setGestureBoth(null);
        return;
      }
    }
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const at = locate(event);
    if (at.track && !live.current.props.readOnly) {
      const edge = edgeNear(at.track, at.x);
      if (edge) {
        setGestureBoth({ kind: 'edge', track: at.track, bout: edge.bout, edge: edge.edge, target: edge.bout });
        return;
      }
    }
    setGestureBoth({ kind: 'press', track: at.track, x: at.x, time: at.time, onRuler: at.onRuler });
  };

  const onPointerMove = (event: React.PointerEvent<HTMLCanvasElement>) => {
    if (event.pointerType === 'touch' && touches.current.has(event.pointerId)) {
      touches.current.set(event.pointerId, event.clientX);
      if (pinch.current && touches.current.size === 2) {
        const [a, b] = [...touches.current.values()];
        const distance = Math.abs(a! - b!);
        const rect = canvasRef.current!.getBoundingClientRect();
        const centre = (a! + b!) / 2 - rect.left;
        const { view: start } = pinch.current;
        const anchor = xToTime(start, live.current.width, centre);
        const factor = distance / Math.max(1, pinch.current.distance);
        live.current.props.onViewChange(zoomAt(start, factor, anchor, live.current.limits));
        return;
      }
    }
    const current = gestureRef.current;
    if (!current) {
      updateCursor(event);
      return;
    }
    const at = locate(event);
    const { props: p, limits: l } = live.current;
    let gestureNow = current;
    if (current.kind === 'press') {
      if (Math.abs(at.x - current.x) < DRAG_THRESHOLD_PX) return;
      if (!current.onRuler && current.track && !p.readOnly) {
        setGestureBoth({ kind: 'draw', track: current.track, from: current.time, to: at.time });
        return;
      }
      // The ruler, the space below the lanes, or a viewer's lanes: the drag pans, from where it was pressed.
      gestureNow = { kind: 'pan', lastX: current.x };
    }
    if (gestureNow.kind === 'draw') {
      setGestureBoth({ ...gestureNow, to: at.time });
    } else if (gestureNow.kind === 'pan') {
      const seconds = ((gestureNow.lastX - at.x) / Math.max(1, live.current.width)) * p.view.span;
      p.onViewChange(panBy(p.view, seconds, l));
      setGestureBoth({ kind: 'pan', lastX: at.x });
    } else if (gestureNow.kind === 'edge') {
      const target = edgeTarget(gestureNow.bout, gestureNow.edge, at.time, p.video);
      if (!sameRange(target, gestureNow.target)) {
        setGestureBoth({ ...gestureNow, target });
        const edgeTime = gestureNow.edge === 'start' ? target[0] : target[1];
        p.onEdgeDrag(gestureNow.track, gestureNow.bout, gestureNow.edge, edgeTime, false);
      }
    }
  };

  const finish = (event: React.PointerEvent<HTMLCanvasElement>) => {
    if (event.pointerType === 'touch') {
      touches.current.delete(event.pointerId);
      if (touches.current.size < 2) pinch.current = null;
    }
    const current = gestureRef.current;
    setGestureBoth(null);
    if (!current || event.type === 'pointercancel') return;
    const p = live.current.props;
    if (current.kind === 'press') {
      // A click: select the bout under it (or clear the selection) and show that moment.
      const list = current.track ? (p.ranges[current.track] ?? []) : [];
      const index = current.track ? rangeIndexAt(list, current.time) : -1;
      if (current.track && index >= 0) p.onSelect({ track: current.track, range: list[index]! });
      else p.onSelect(null);
      p.onSeek(Math.min(Math.max(current.time, 0), p.video.end));
    } else if (current.kind === 'draw') {
      p.onDraw(current.track, current.from, current.to);
    } else if (current.kind === 'edge') {
      const { target, edge } = current;
      p.onEdgeDrag(current.track, current.bout, edge, edge === 'start' ? target[0] : target[1], true);
    }
  };

  const updateCursor = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const at = locate(event);
    const resize = at.track && !live.current.props.readOnly && edgeNear(at.track, at.x);
    canvas.style.cursor = resize ? 'ew-resize' : at.onRuler ? 'grab' : 'crosshair';
  };

  // Wheel: Ctrl/⌘ (and trackpad pinch, which browsers send as Ctrl+wheel) zooms around the pointer; a sideways
  // scroll (or Shift+wheel) pans. A native listener, because React's wheel handler cannot prevent the page zoom.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const onWheel = (event: WheelEvent) => {
      const { props: p, limits: l, width: w } = live.current;
      if (event.ctrlKey || event.metaKey) {
        event.preventDefault();
        const rect = canvas.getBoundingClientRect();
        const anchor = xToTime(p.view, w, event.clientX - rect.left);
        const factor = Math.exp(-event.deltaY * (event.deltaMode === 1 ? 0.05 : 0.0025));
        p.onViewChange(zoomAt(p.view, factor, anchor, l));
      } else if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
        event.preventDefault();
        const delta = event.shiftKey ? event.deltaY || event.deltaX : event.deltaX;
        p.onViewChange(panBy(p.view, (delta / Math.max(1, w)) * p.view.span, l));
      }
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => canvas.removeEventListener('wheel', onWheel);
  }, []);

  const boutCount = tracks.reduce((sum, track) => sum + (ranges[track.id]?.length ?? 0), 0);

  return (
    <div className="flex min-w-0 select-none" data-testid="annotation-timeline">
      <div className="w-24 shrink-0 border-r pr-2 sm:w-40" aria-hidden="true">
        <div style={{ height: RULER_HEIGHT }} />
        {tracks.map((track) => (
          <div
            key={track.id}
            className="flex items-center gap-2 overflow-hidden text-sm"
            style={{ height: LANE_HEIGHT, marginBottom: LANE_GAP }}
          >
            <span className="size-3 shrink-0 rounded-sm" style={{ backgroundColor: track.color }} />
            <span className="truncate">{track.name}</span>
            {track.hotkey ? (
              <kbd className="ml-auto hidden rounded border bg-muted px-1 font-mono text-[11px] uppercase sm:inline">
                {track.hotkey}
              </kbd>
            ) : null}
          </div>
        ))}
      </div>
      <div ref={hostRef} className="relative min-w-0 flex-1 overflow-hidden">
        <canvas
          ref={canvasRef}
          role="img"
          aria-label={`Timeline: ${countOf(tracks.length, 'track')}, ${countOf(boutCount, 'bout')}; showing ${formatWindow(view)}`}
          data-testid="timeline-canvas"
          className={cn('block touch-none', readOnly ? 'cursor-default' : 'cursor-crosshair')}
          style={{ width: '100%', height }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={finish}
          onPointerCancel={finish}
        />
        <div
          ref={playheadRef}
          data-testid="timeline-playhead"
          className="pointer-events-none absolute top-0 left-0 w-0.5 -translate-x-px bg-destructive"
          style={{ height }}
        />
      </div>
    </div>
  );
}

function formatWindow(view: TimelineView): string {
  const seconds = (t: number) => `${Math.round(t * 100) / 100} s`;
  return `${seconds(view.start)} to ${seconds(view.start + view.span)}`;
}

/** Zoom in/out around the playhead by one step (the +/− keys and buttons). */
export function zoomStep(view: TimelineView, direction: 1 | -1, anchor: number, limits: ViewLimits): TimelineView {
  return zoomAt(view, direction > 0 ? ZOOM_STEP : 1 / ZOOM_STEP, anchor, limits);
}
