import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { frameAt } from '@/components/player/frames';
import type { Size } from '@/components/player/picture-geometry';
import type { TimeSource } from '@/components/player/time-store';
import type { PoseSet } from '../api';
import { individualColour, type PoseView, visiblePose } from '../pose-shapes';
import type { PoseWindowCache } from '../pose-windows';

/**
 * A pose set's keypoints and skeleton on the player: one SVG in video pixels over the picture, following the
 * player's clock. It re-renders when the frame on screen changes or its window of frames arrives, and asks the
 * cache for the frames ahead. It takes no pointer events.
 */
export function PoseLayer({
  picture,
  set,
  cache,
  clock,
  fps,
  view,
}: {
  picture: Size;
  set: Pick<PoseSet, 'individuals' | 'keypoints' | 'edges'>;
  cache: PoseWindowCache;
  clock: TimeSource;
  fps: number;
  view: PoseView;
}) {
  const frame = useSyncExternalStore(clock.subscribe, () => frameAt(clock.get(), fps));
  const data = useSyncExternalStore(cache.subscribe, () => cache.frame(frame));
  useEffect(() => cache.ensure(frame), [cache, frame]);
  const { points, edges } = useMemo(() => visiblePose(set, data, view), [set, data, view]);
  const radius = Math.max(2.5, picture.height / 110);
  return (
    <svg
      viewBox={`0 0 ${picture.width} ${picture.height}`}
      preserveAspectRatio="xMidYMid meet"
      className="pointer-events-none absolute inset-0 size-full"
      aria-hidden="true"
      data-testid="pose-layer"
      data-frame={frame}
      data-loaded={data ? true : undefined}
    >
      {edges.map(({ individual, from, to }) => (
        <line
          key={`${individual}\u0000${from.bodypart}\u0000${to.bodypart}`}
          x1={from.x}
          y1={from.y}
          x2={to.x}
          y2={to.y}
          stroke={individualColour(set, individual)}
          strokeOpacity={0.85}
          strokeWidth={2}
          strokeLinecap="round"
          vectorEffect="non-scaling-stroke"
          data-testid="pose-edge"
          data-individual={individual}
          data-from={from.bodypart}
          data-to={to.bodypart}
        />
      ))}
      {points.map((point) => (
        <circle
          key={`${point.individual}\u0000${point.bodypart}`}
          cx={point.x}
          cy={point.y}
          r={radius}
          fill={individualColour(set, point.individual)}
          stroke="white"
          strokeWidth={1}
          vectorEffect="non-scaling-stroke"
          data-testid="pose-point"
          data-individual={point.individual}
          data-part={point.bodypart}
        />
      ))}
    </svg>
  );
}
