import { type PointerEvent, useRef, useState, useSyncExternalStore } from 'react';
import type { PlayerController } from '@/components/player/player-controller';
import { PlayerControls } from '@/components/player/player-controls';
import { transportKeys } from '@/components/player/player-keys';
import type { TimeSource } from '@/components/player/time-store';
import { VideoPlayer } from '@/components/player/video-player';
import type { Video } from '@/features/videos/api';
import { playerSource } from '@/features/videos/player-source';
import { activeRoiIndex, type Point, type Roi, type RoiRect, rectFromDrag, type Size } from '../rois';

/**
 * The shared player with the ROI drawing layer in its overlay slot, its standard controls and keys (Space,
 * arrows, Home). The page owns the `player`, which the timeline, the chart and the event list also drive.
 */
export function RoiPlayer({
  video,
  picture,
  player,
  rois,
  onDrawRect,
}: {
  video: Video;
  picture: Size;
  player: PlayerController;
  rois: readonly Roi[];
  /** A rectangle drawn for the ROI in force at the current time. */
  onDrawRect: (rect: RoiRect) => void;
}) {
  return (
    <VideoPlayer
      player={player}
      source={{ ...playerSource(video), width: picture.width, height: picture.height }}
      onKeyDown={transportKeys(player)}
      overlay={
        <RoiOverlay
          picture={picture}
          rois={rois}
          clock={player.clock}
          onDrawRect={onDrawRect}
          onClick={() => player.togglePlay()}
        />
      }
      controls={<PlayerControls player={player} id={`md-rate-${video.video_uuid}`} />}
    />
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
  clock: TimeSource;
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
      <RoiShapes picture={picture} rois={rois} active={active} />
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

/**
 * ROIs drawn in video pixels inside an SVG whose viewBox is the picture: the one in force (`active`) highlighted and
 * named, the others dashed. The Movement Detector draws them over its player; a batch draws a protocol's (moved) ROIs.
 */
export function RoiShapes({ picture, rois, active }: { picture: Size; rois: readonly Roi[]; active: number }) {
  return (
    <>
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
    </>
  );
}
