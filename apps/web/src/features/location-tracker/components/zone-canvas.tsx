import { type KeyboardEvent, type PointerEvent, useRef, useState } from 'react';
import { displayScale, type Point, type Size, toVideoPoint } from '@/components/player/picture-geometry';
import {
  clampToPicture,
  ellipsePolygon,
  hitsPolygon,
  isDragShape,
  nearestVertex,
  type Polygon,
  rectanglePolygon,
  type Vertex,
} from '../geometry';
import { type Layout, moveShape, moveVertex, shapePoints } from '../zones';
import { EXCLUSION_COLOR, handleRadiusOf, LayoutShapes, SCALE_COLOR, toPath } from './layout-shapes';

export type Tool = 'select' | 'polygon' | 'rectangle' | 'ellipse' | 'scale';
/** What the polygon, rectangle and ellipse tools draw. */
export type Target = 'zone' | 'exclusion';

/** Hit tolerances in displayed pixels, whatever the picture's size on screen. */
const VERTEX_HIT_PX = 9;
const EDGE_HIT_PX = 6;
const CLOSE_HIT_PX = 10;
const MIN_DRAG_PX = 4;

type Gesture =
  | { kind: 'move'; id: string; from: Polygon; start: Point }
  | { kind: 'vertex'; id: string; index: number }
  | { kind: 'scale-end'; end: 'a' | 'b' }
  | { kind: 'box'; from: Point; to: Point };

/**
 * The drawing layer of the Location Tracker: an SVG in video pixels over the player (its viewBox is the picture,
 * fitted like the video, so shapes scale with the displayed size). Tools: polygon by clicks (closed on the first
 * point or with Enter; Escape drops it, Backspace its last point), rectangle and ellipse by dragging, the scale
 * line by two clicks; in select mode a click selects a shape, a drag moves it or one of its vertices, Delete
 * removes it. Finished shapes go to `onFinish`; edits to `onChange`.
 */
export function ZoneCanvas({
  picture,
  layout,
  tool,
  target,
  selectedId,
  onChange,
  onFinish,
  onScale,
  onSelect,
  onDelete,
}: {
  picture: Size;
  layout: Layout;
  tool: Tool;
  target: Target;
  selectedId: string | null;
  onChange: (layout: Layout) => void;
  /** A polygon drawn with the polygon, rectangle or ellipse tool. */
  onFinish: (points: Vertex[]) => void;
  /** The scale line's two points, drawn with the scale tool. */
  onScale: (a: Vertex, b: Vertex) => void;
  onSelect: (id: string | null) => void;
  onDelete: (id: string) => void;
}) {
  const svgRef = useRef<SVGSVGElement>(null);
  const [draft, setDraft] = useState<Vertex[]>([]);
  const [hover, setHover] = useState<Vertex | null>(null);
  const [gesture, setGesture] = useState<Gesture | null>(null);

  const measure = (event: { clientX: number; clientY: number }) => {
    const bounds = svgRef.current?.getBoundingClientRect();
    const box = { width: bounds?.width ?? 0, height: bounds?.height ?? 0 };
    // Before layout (or in a test without one) the picture is taken at its own size.
    const sized = box.width > 0 && box.height > 0 ? box : picture;
    const local = { x: event.clientX - (bounds?.left ?? 0), y: event.clientY - (bounds?.top ?? 0) };
    return { point: toVideoPoint(local, sized, picture), perPixel: 1 / displayScale(sized, picture) };
  };

  const finishPolygon = (points: Vertex[]) => {
    setDraft([]);
    setHover(null);
    if (points.length >= 3) onFinish(points);
  };

  const shapes = [
    ...layout.zones.map((zone) => ({ id: zone.id, points: zone.points })),
    ...layout.exclusions.map((exclusion) => ({ id: exclusion.id, points: exclusion.points })),
  ];

  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    // For Enter, Escape and Delete; not scrolled to, which would move the picture under the pointer.
    svgRef.current?.focus({ preventScroll: true });
    const { point, perPixel } = measure(event);
    const vertex = clampToPicture(point, picture);
    if (tool === 'polygon') {
      const first = draft[0];
      if (first && draft.length >= 3 && Math.hypot(point.x - first[0], point.y - first[1]) <= CLOSE_HIT_PX * perPixel) {
        finishPolygon(draft);
      } else setDraft([...draft, vertex]);
      return;
    }
    if (tool === 'scale') {
      const first = draft[0];
      if (first) {
        setDraft([]);
        setHover(null);
        if (first[0] !== vertex[0] || first[1] !== vertex[1]) onScale(first, vertex);
      } else setDraft([vertex]);
      return;
    }
    event.currentTarget.setPointerCapture?.(event.pointerId);
    if (tool === 'rectangle' || tool === 'ellipse') {
      setGesture({ kind: 'box', from: point, to: point });
      return;
    }
    // Select: the selected shape's vertices first, then the scale's ends, then the topmost shape under the point.
    const selected = selectedId ? shapePoints(layout, selectedId) : null;
    const index = selected ? nearestVertex(point, selected, VERTEX_HIT_PX * perPixel) : null;
    if (selectedId && index !== null) {
      setGesture({ kind: 'vertex', id: selectedId, index });
      return;
    }
    if (layout.scale) {
      const end = nearestVertex(point, [layout.scale.a, layout.scale.b], VERTEX_HIT_PX * perPixel);
      if (end !== null) {
        setGesture({ kind: 'scale-end', end: end === 0 ? 'a' : 'b' });
        return;
      }
    }
    const hit = [...shapes].reverse().find((shape) => hitsPolygon(point, shape.points, EDGE_HIT_PX * perPixel));
    onSelect(hit?.id ?? null);
    if (hit) setGesture({ kind: 'move', id: hit.id, from: hit.points, start: point });
  };

  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const { point } = measure(event);
    if ((tool === 'polygon' || tool === 'scale') && draft.length > 0) {
      setHover(clampToPicture(point, picture));
      return;
    }
    if (!gesture) return;
    if (gesture.kind === 'box') setGesture({ ...gesture, to: point });
    else if (gesture.kind === 'move') {
      onChange(
        moveShape(layout, gesture.id, gesture.from, point.x - gesture.start.x, point.y - gesture.start.y, picture),
      );
    } else if (gesture.kind === 'vertex') {
      onChange(moveVertex(layout, gesture.id, gesture.index, clampToPicture(point, picture)));
    } else if (layout.scale) {
      onChange({ ...layout, scale: { ...layout.scale, [gesture.end]: clampToPicture(point, picture) } });
    }
  };

  const onPointerUp = (event: PointerEvent<SVGSVGElement>) => {
    if (gesture?.kind === 'box') {
      const { point, perPixel } = measure(event);
      if (isDragShape(gesture.from, point, MIN_DRAG_PX * perPixel)) {
        const a = clampToPicture(gesture.from, picture);
        const b = clampToPicture(point, picture);
        const corners = [
          { x: a[0], y: a[1] },
          { x: b[0], y: b[1] },
        ] as const;
        onFinish(tool === 'ellipse' ? ellipsePolygon(...corners) : rectanglePolygon(...corners));
      }
    }
    setGesture(null);
  };

  const onKeyDown = (event: KeyboardEvent<SVGSVGElement>) => {
    let handled = true;
    if (event.key === 'Enter' && tool === 'polygon' && draft.length >= 3) finishPolygon(draft);
    else if (event.key === 'Escape' && draft.length > 0) {
      setDraft([]);
      setHover(null);
    } else if (event.key === 'Backspace' && draft.length > 0) setDraft(draft.slice(0, -1));
    else if ((event.key === 'Delete' || event.key === 'Backspace') && tool === 'select' && selectedId) {
      onDelete(selectedId);
    } else handled = false;
    // Keys the editor uses are not the player's (Space and the arrows still are).
    if (handled) {
      event.preventDefault();
      event.stopPropagation();
    }
  };

  const box = gesture?.kind === 'box' ? gesture : null;
  const boxDraft =
    box && isDragShape(box.from, box.to, 1)
      ? tool === 'ellipse'
        ? ellipsePolygon(box.from, box.to)
        : rectanglePolygon(box.from, box.to)
      : null;
  const handleRadius = handleRadiusOf(picture);

  return (
    <svg
      ref={svgRef}
      viewBox={`0 0 ${picture.width} ${picture.height}`}
      preserveAspectRatio="xMidYMid meet"
      className="absolute inset-0 size-full cursor-crosshair touch-none select-none outline-none"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => setGesture(null)}
      onKeyDown={onKeyDown}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the drawing takes Enter, Escape and Delete.
      tabIndex={0}
      role="img"
      aria-label="Zone editor: draw on the picture"
      data-testid="zone-canvas"
      data-tool={tool}
    >
      <LayoutShapes picture={picture} layout={layout} selectedId={selectedId} />
      {selectedId
        ? (shapePoints(layout, selectedId) ?? []).map(([x, y], index) => (
            <circle
              // biome-ignore lint/suspicious/noArrayIndexKey: a vertex is its place in the polygon.
              key={index}
              cx={x}
              cy={y}
              r={handleRadius}
              fill="white"
              stroke="black"
              strokeWidth={1}
              vectorEffect="non-scaling-stroke"
              data-testid="vertex-handle"
            />
          ))
        : null}
      {draft.length > 0 ? (
        <g data-testid="draft">
          <polyline
            points={toPath(hover ? [...draft, hover] : draft)}
            fill="none"
            stroke={tool === 'scale' ? SCALE_COLOR : target === 'zone' ? 'rgb(56 189 248)' : EXCLUSION_COLOR}
            strokeWidth={2}
            strokeDasharray="4 3"
            vectorEffect="non-scaling-stroke"
          />
          {draft.map(([x, y], index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a draft point is its place in the draft.
            <circle key={index} cx={x} cy={y} r={handleRadius} fill={index === 0 ? 'rgb(56 189 248)' : 'white'} />
          ))}
        </g>
      ) : null}
      {boxDraft ? (
        <polygon
          points={toPath(boxDraft)}
          fill="rgb(56 189 248 / 0.15)"
          stroke={target === 'zone' ? 'rgb(56 189 248)' : EXCLUSION_COLOR}
          strokeWidth={2}
          strokeDasharray="4 3"
          vectorEffect="non-scaling-stroke"
          data-testid="draft"
        />
      ) : null}
    </svg>
  );
}
