import {
  type PointerEvent,
  type RefObject,
  useCallback,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import type { Video } from '@/features/videos/api';
import {
  frameAt,
  frameTime,
  playerKeys,
  SpeedSelect,
  TransportButtons,
} from '@/features/videos/components/video-player';
import { formatDuration } from '@/lib/format';
import { useClockTime, type VideoClock } from '../hooks/video-clock';
import { activeRoiIndex, type Point, type Roi, type RoiRect, rectFromDrag, type Size } from '../rois';

/**
 * The features/videos player cannot host an overlay or hand out its element, so this one keeps its controls
 * (play, speed, frame steps, keys) and adds the ROI drawing layer. The video element belongs to the page
 * (`videoRef`), which seeks it from the timeline, the chart and the event list.
 */
export function RoiPlayer({
  video,
  picture,
  fps,
  videoRef,
  clock,
  rois,
  onSeek,
  onDrawRect,
}: {
  video: Video;
  picture: Size;
  fps: number;
  videoRef: RefObject<HTMLVideoElement | null>;
  clock: VideoClock;
  rois: readonly Roi[];
  onSeek: (time: number) => void;
  /** A rectangle drawn for the ROI in force at the current time. */
  onDrawRect: (rect: RoiRect) => void;
}) {
  const [playing, setPlaying] = useState(false);
  const [duration, setDuration] = useState(video.duration_s ?? 0);
  const [rate, setRate] = useState(1);
  const time = useClockTime(clock);

  // While playing, publish the time on every animation frame (timeupdate alone fires ~4 times a second).
  useEffect(() => {
    const element = videoRef.current;
    if (!playing || !element) return;
    let handle = 0;
    const tick = () => {
      clock.set(element.currentTime);
      handle = requestAnimationFrame(tick);
    };
    handle = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(handle);
  }, [playing, clock, videoRef]);

  const togglePlay = useCallback(() => {
    const element = videoRef.current;
    if (!element) return;
    if (element.paused) void element.play().catch(() => setPlaying(false));
    else element.pause();
  }, [videoRef]);

  const step = (frames: number) => {
    videoRef.current?.pause();
    onSeek(frameTime(frameAt(clock.get(), fps) + frames, fps));
  };

  const changeRate = (value: number) => {
    setRate(value);
    if (videoRef.current) videoRef.current.playbackRate = value;
  };

  const onKeyDown = playerKeys({ togglePlay, step, seek: onSeek, now: () => clock.get() });

  const ratio = picture.width / picture.height;

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
      <div className="bg-black">
        {/* Sized to the picture's own ratio, so the drawing layer lies exactly over the picture. */}
        <div
          className="relative mx-auto w-full"
          style={{ aspectRatio: `${picture.width} / ${picture.height}`, maxWidth: `calc(60vh * ${ratio})` }}
        >
          <video
            ref={videoRef}
            src={video.stream_url}
            poster={video.thumbnail_url ?? undefined}
            preload="auto"
            playsInline
            muted
            className="absolute inset-0 size-full object-contain"
            onPlay={() => setPlaying(true)}
            onPause={() => setPlaying(false)}
            onEnded={() => setPlaying(false)}
            onTimeUpdate={(e) => clock.set(e.currentTarget.currentTime)}
            onSeeked={(e) => clock.set(e.currentTarget.currentTime)}
            onLoadedMetadata={(e) => {
              if (Number.isFinite(e.currentTarget.duration)) setDuration(e.currentTarget.duration);
              e.currentTarget.playbackRate = rate;
            }}
            data-testid="video-element"
          />
          <RoiOverlay picture={picture} rois={rois} clock={clock} onDrawRect={onDrawRect} onClick={togglePlay} />
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-1.5 p-3">
        <TransportButtons playing={playing} onTogglePlay={togglePlay} onRestart={() => onSeek(0)} onStep={step} />
        <span className="ml-1 font-mono text-sm tabular-nums" data-testid="player-time">
          {formatDuration(time)} / {formatDuration(duration)}
        </span>
        <span className="text-muted-foreground text-xs tabular-nums" data-testid="player-frame">
          frame {frameAt(time, fps)} · {time.toFixed(2)} s
        </span>
        <SpeedSelect id={`md-rate-${video.video_uuid}`} rate={rate} onChange={changeRate} />
      </div>
    </div>
  );
}

/**
 * The drawing layer: an SVG in video pixels (its viewBox is the picture, fitted like the video), showing every
 * ROI's outline with the active one highlighted. A drag draws the active ROI's rectangle; a click plays/pauses.
 */
function RoiOverlay({
  picture,
  rois,
  clock,
  onDrawRect,
  onClick,
}: {
  picture: Size;
  rois: readonly Roi[];
  clock: VideoClock;
  onDrawRect: (rect: RoiRect) => void;
  onClick: () => void;
}) {
  const svgRef = useRef<SVGSVGElement>(null);
  const [drag, setDrag] = useState<{ from: Point; to: Point } | null>(null);
  // Re-render only when the active ROI changes, not on every frame.
  const active = useSyncExternalStore(clock.subscribe, () => activeRoiIndex(rois, clock.get()));

  const local = (event: PointerEvent<SVGSVGElement>): { point: Point; box: Size } => {
    const bounds = event.currentTarget.getBoundingClientRect();
    return {
      point: { x: event.clientX - bounds.left, y: event.clientY - bounds.top },
      box: { width: bounds.width, height: bounds.height },
    };
  };

  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0) return;
    // No text selection or native drag while drawing.
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    const { point } = local(event);
    setDrag({ from: point, to: point });
  };
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    if (!drag) return;
    const { point } = local(event);
    setDrag({ from: drag.from, to: point });
  };
  const onPointerUp = (event: PointerEvent<SVGSVGElement>) => {
    if (!drag) return;
    const { point, box } = local(event);
    setDrag(null);
    const rect = rectFromDrag(drag.from, point, box, picture);
    if (rect) onDrawRect(rect);
    else onClick();
  };

  const bounds = svgRef.current?.getBoundingClientRect();
  const draft =
    drag && bounds
      ? rectFromDrag(drag.from, drag.to, { width: bounds.width, height: bounds.height }, picture, 0)
      : null;

  return (
    <svg
      ref={svgRef}
      viewBox={`0 0 ${picture.width} ${picture.height}`}
      preserveAspectRatio="xMidYMid meet"
      className="absolute inset-0 size-full cursor-crosshair touch-none select-none"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => setDrag(null)}
      aria-label="Drag on the picture to draw the region of interest"
      role="img"
      data-testid="roi-overlay"
    >
      {rois.map((roi, index) => {
        if (!roi.rect || index === active) return null;
        return (
          <rect
            // biome-ignore lint/suspicious/noArrayIndexKey: an ROI is identified by its place in the list.
            key={index}
            {...roi.rect}
            fill="none"
            stroke="white"
            strokeOpacity={0.55}
            strokeDasharray="6 4"
            strokeWidth={1.5}
            vectorEffect="non-scaling-stroke"
            data-testid="roi-outline"
          />
        );
      })}
      {rois[active]?.rect ? (
        <g data-testid="roi-active">
          <rect
            {...rois[active].rect}
            fill="rgb(250 204 21 / 0.06)"
            stroke="rgb(250 204 21)"
            strokeWidth={2.5}
            vectorEffect="non-scaling-stroke"
          />
          <text
            x={rois[active].rect.x + 4}
            y={rois[active].rect.y + 4}
            dominantBaseline="hanging"
            fill="rgb(250 204 21)"
            style={{ font: `600 ${Math.max(10, picture.height / 22)}px system-ui, sans-serif` }}
          >
            ROI {active + 1}
          </text>
        </g>
      ) : null}
      {draft ? (
        <rect
          {...draft}
          fill="rgb(56 189 248 / 0.15)"
          stroke="rgb(56 189 248)"
          strokeWidth={2}
          strokeDasharray="4 3"
          vectorEffect="non-scaling-stroke"
        />
      ) : null}
    </svg>
  );
}
