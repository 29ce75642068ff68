import { type KeyboardEvent, type PointerEvent, useMemo, useRef, useState } from 'react';
import { containedPicture, type Size } from '@/components/player/picture-geometry';
import { LayoutShapes } from '@/features/location-tracker/components/layout-shapes';
import { fromParameters } from '@/features/location-tracker/zones';
import { RoiShapes } from '@/features/movement-detector/components/roi-player';
import { roisFromParameters } from '@/features/movement-detector/rois';
import type { ProtocolKind } from '@/features/protocols/api';
import {
  adjustedGeometry,
  type GeometryMove,
  geometryBounds,
  geometryPoints,
  type Point,
  scaleToward,
} from '../adjustment';

type Gesture = { kind: 'move'; from: Point; start: GeometryMove } | { kind: 'scale'; start: GeometryMove };

const HANDLE_PX = 10;
const BOX_COLOR = 'rgb(56 189 248)';

/**
 * A protocol's geometry over one video's picture, moved and scaled as the batch will run it: the Movement
 * Detector's ROIs or the Location Tracker's zones, exclusions and scale line, drawn by those tools' own shapes. Drag
 * inside the dashed box to move it all, drag its corner handle to scale it about its centre; the arrow keys move
 * by a pixel (Shift: ten), + and − scale by 5 %.
 */
export function GeometryOverlay({
  picture,
  kind,
  parameters,
  move,
  onChange,
}: {
  picture: Size;
  kind: ProtocolKind;
  parameters: Record<string, unknown>;
  move: GeometryMove;
  onChange: (move: GeometryMove) => void;
}) {
  const svgRef = useRef<SVGSVGElement>(null);
  const [gesture, setGesture] = useState<Gesture | null>(null);
  const moved = useMemo(
    () => ({ ...parameters, ...adjustedGeometry(kind, parameters, move) }),
    [kind, parameters, move],
  );
  const layout = useMemo(
    () => (kind === 'location_tracking' ? fromParameters(moved, picture) : null),
    [kind, moved, picture],
  );
  const rois = useMemo(() => (kind === 'movement_detection' ? roisFromParameters(moved.rois) : null), [kind, moved]);

  const original = geometryBounds(geometryPoints(kind, parameters), picture);
  const box = geometryBounds(geometryPoints(kind, moved), picture);
  const corner: Point = [original.right, original.bottom];

  const measure = (event: { clientX: number; clientY: number }) => {
    const bounds = svgRef.current?.getBoundingClientRect();
    const size =
      bounds && bounds.width > 0 && bounds.height > 0 ? { width: bounds.width, height: bounds.height } : picture;
    // Not clamped to the picture: a move may take the geometry past its edge (the server then says so for that video).
    const shown = containedPicture(size, picture);
    const x = ((event.clientX - (bounds?.left ?? 0) - shown.left) * picture.width) / shown.width;
    const y = ((event.clientY - (bounds?.top ?? 0) - shown.top) * picture.height) / shown.height;
    return { point: [x, y] as Point, perPixel: picture.width / shown.width };
  };

  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    svgRef.current?.focus({ preventScroll: true });
    const { point, perPixel } = measure(event);
    const handle = HANDLE_PX * perPixel;
    if (Math.abs(point[0] - box.right) <= handle && Math.abs(point[1] - box.bottom) <= handle) {
      event.currentTarget.setPointerCapture?.(event.pointerId);
      setGesture({ kind: 'scale', start: move });
      return;
    }
    if (point[0] >= box.left && point[0] <= box.right && point[1] >= box.top && point[1] <= box.bottom) {
      event.currentTarget.setPointerCapture?.(event.pointerId);
      setGesture({ kind: 'move', from: point, start: move });
    }
  };

  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    if (!gesture) return;
    const { point } = measure(event);
    if (gesture.kind === 'move') {
      onChange({
        ...gesture.start,
        dx: Math.round(gesture.start.dx + point[0] - gesture.from[0]),
        dy: Math.round(gesture.start.dy + point[1] - gesture.from[1]),
      });
    } else {
      onChange({ ...move, scale: scaleToward(corner, point, move.origin, move.dx, move.dy) });
    }
  };

  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    const step = event.shiftKey ? 10 : 1;
    const next: Partial<GeometryMove> | null =
      event.key === 'ArrowLeft'
        ? { dx: move.dx - step }
        : event.key === 'ArrowRight'
          ? { dx: move.dx + step }
          : event.key === 'ArrowUp'
            ? { dy: move.dy - step }
            : event.key === 'ArrowDown'
              ? { dy: move.dy + step }
              : event.key === '+' || event.key === '='
                ? { scale: Math.round(move.scale * 1.05 * 1000) / 1000 }
                : event.key === '-'
                  ? { scale: Math.max(0.05, Math.round((move.scale / 1.05) * 1000) / 1000) }
                  : null;
    if (!next) return;
    event.preventDefault();
    event.stopPropagation();
    onChange({ ...move, ...next });
  };

  const handleRadius = Math.max(4, picture.height / 80);
  return (
    <svg
      ref={svgRef}
      viewBox={`0 0 ${picture.width} ${picture.height}`}
      preserveAspectRatio="xMidYMid meet"
      className="absolute inset-0 size-full cursor-move touch-none select-none outline-none"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={() => setGesture(null)}
      onPointerCancel={() => setGesture(null)}
      onKeyDown={onKeyDown}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the geometry moves with the arrow keys.
      tabIndex={0}
      role="img"
      aria-label="The protocol’s geometry on this video: drag to move, drag the corner to scale"
      data-testid="geometry-overlay"
      data-dx={move.dx}
      data-dy={move.dy}
      data-scale={move.scale}
    >
      {layout ? <LayoutShapes picture={picture} layout={layout} /> : null}
      {rois ? <RoiShapes picture={picture} rois={rois} active={0} /> : null}
      <rect
        x={box.left}
        y={box.top}
        width={Math.max(0, box.right - box.left)}
        height={Math.max(0, box.bottom - box.top)}
        fill="none"
        stroke={BOX_COLOR}
        strokeDasharray="4 3"
        strokeWidth={1.5}
        vectorEffect="non-scaling-stroke"
        data-testid="geometry-box"
      />
      <circle
        cx={box.right}
        cy={box.bottom}
        r={handleRadius}
        fill="white"
        stroke={BOX_COLOR}
        strokeWidth={2}
        vectorEffect="non-scaling-stroke"
        className="cursor-nwse-resize"
        data-testid="geometry-scale-handle"
      />
    </svg>
  );
}
