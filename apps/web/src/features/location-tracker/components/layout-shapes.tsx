import type { Size } from '@/components/player/picture-geometry';
import { type Polygon, vertexCentre } from '../geometry';
import type { Layout } from '../zones';

export const EXCLUSION_COLOR = '#ef4444';
export const SCALE_COLOR = '#ffffff';

export const toPath = (points: Polygon) => points.map(([x, y]) => `${x},${y}`).join(' ');

/** Sizes that read the same at any picture size: labels and handles scale with the picture's height. */
export const labelSizeOf = (picture: Size) => Math.max(10, picture.height / 24);
export const handleRadiusOf = (picture: Size) => Math.max(3, picture.height / 90);

/**
 * A layout's exclusion regions, zones (named, coloured) and scale line, drawn in video pixels inside an SVG whose
 * viewBox is the picture: the zone editor draws them, and a batch draws a protocol's (moved) zones over a video.
 */
export function LayoutShapes({
  picture,
  layout,
  selectedId = null,
}: {
  picture: Size;
  layout: Layout;
  selectedId?: string | null;
}) {
  const labelSize = labelSizeOf(picture);
  const handleRadius = handleRadiusOf(picture);
  return (
    <>
      {layout.exclusions.map((exclusion) => (
        <polygon
          key={exclusion.id}
          points={toPath(exclusion.points)}
          fill={EXCLUSION_COLOR}
          fillOpacity={0.18}
          stroke={EXCLUSION_COLOR}
          strokeWidth={selectedId === exclusion.id ? 3 : 1.5}
          strokeDasharray="5 4"
          vectorEffect="non-scaling-stroke"
          data-testid="exclusion-shape"
          data-selected={selectedId === exclusion.id || undefined}
        />
      ))}
      {layout.zones.map((zone) => {
        const centre = vertexCentre(zone.points);
        return (
          <g
            key={zone.id}
            data-testid="zone-shape"
            data-name={zone.name}
            data-selected={selectedId === zone.id || undefined}
          >
            <polygon
              points={toPath(zone.points)}
              fill={zone.color}
              fillOpacity={selectedId === zone.id ? 0.25 : 0.12}
              stroke={zone.color}
              strokeWidth={selectedId === zone.id ? 3 : 2}
              vectorEffect="non-scaling-stroke"
            />
            <text
              x={centre.x}
              y={centre.y}
              textAnchor="middle"
              dominantBaseline="middle"
              fill={zone.color}
              stroke="black"
              strokeWidth={0.6}
              paintOrder="stroke"
              style={{ font: `600 ${labelSize}px system-ui, sans-serif` }}
            >
              {zone.name}
            </text>
          </g>
        );
      })}
      {layout.scale ? (
        <g data-testid="scale-line">
          <line
            x1={layout.scale.a[0]}
            y1={layout.scale.a[1]}
            x2={layout.scale.b[0]}
            y2={layout.scale.b[1]}
            stroke={SCALE_COLOR}
            strokeWidth={2}
            vectorEffect="non-scaling-stroke"
          />
          {(
            [
              ['a', layout.scale.a],
              ['b', layout.scale.b],
            ] as const
          ).map(([end, [x, y]]) => (
            <circle
              key={end}
              cx={x}
              cy={y}
              r={handleRadius}
              fill={SCALE_COLOR}
              stroke="black"
              strokeWidth={1}
              vectorEffect="non-scaling-stroke"
            />
          ))}
        </g>
      ) : null}
    </>
  );
}
