import { useSyncExternalStore } from 'react';
import type { Size } from '@/components/player/picture-geometry';
import type { TimeSource } from '@/components/player/time-store';
import { type Track, trailPoints } from '../track';

/** Seconds of track drawn behind the point while the video plays. */
export const TRAIL_SECONDS = 1;

/**
 * A finished run's tracked point on the player, with the last second of its path: an SVG in video pixels over
 * the picture, following the player's clock frame by frame. It takes no pointer events (the zone editor beneath
 * keeps them).
 */
export function TrackTrail({ picture, track, clock }: { picture: Size; track: Track; clock: TimeSource }) {
  // Re-render only when the frame changes.
  const frame = useSyncExternalStore(clock.subscribe, () => Math.floor(clock.get() * track.fps + 1e-6));
  const trail = trailPoints(track, frame - Math.round(TRAIL_SECONDS * track.fps), frame);
  const x = track.x[frame];
  const y = track.y[frame];
  const found = x !== undefined && y !== undefined && !Number.isNaN(x) && !Number.isNaN(y);
  const radius = Math.max(3, picture.height / 60);
  return (
    <svg
      viewBox={`0 0 ${picture.width} ${picture.height}`}
      preserveAspectRatio="xMidYMid meet"
      className="pointer-events-none absolute inset-0 size-full"
      aria-hidden="true"
      data-testid="track-trail"
      data-frame={frame}
      data-found={found || undefined}
    >
      {trail.length > 1 ? (
        <polyline
          points={trail.map(([px, py]) => `${px},${py}`).join(' ')}
          fill="none"
          stroke="rgb(244 63 94)"
          strokeOpacity={0.8}
          strokeWidth={2}
          strokeLinejoin="round"
          vectorEffect="non-scaling-stroke"
        />
      ) : null}
      {found ? (
        <circle
          cx={x}
          cy={y}
          r={radius}
          fill="rgb(244 63 94)"
          stroke="white"
          strokeWidth={1.5}
          vectorEffect="non-scaling-stroke"
          data-testid="track-point"
        />
      ) : null}
    </svg>
  );
}
