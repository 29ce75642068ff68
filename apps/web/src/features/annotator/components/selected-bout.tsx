import { formatTime, formatTimecode } from '@/lib/format';
import type { Selection } from '../marking';

/** The selected bout: its track, edges (time and frame) and length; Delete removes it. */
export function SelectedBout({
  selection,
  trackName,
  fps,
}: {
  selection: Selection | null;
  trackName: string | undefined;
  fps: number;
}) {
  if (!selection || !trackName) {
    return <span className="text-muted-foreground text-sm">Click a bout to select it.</span>;
  }
  const [start, end] = selection.range;
  const first = Math.round(start * fps);
  const after = Math.round(end * fps);
  return (
    <span
      className="text-sm tabular-nums"
      data-testid="selected-bout"
      data-start={start}
      data-end={end}
      data-track={selection.track}
    >
      <span className="font-medium">{trackName}</span> {formatTimecode(first, fps)} – {formatTimecode(after, fps)}{' '}
      <span className="text-muted-foreground">
        (frames {first}–{after}, {formatTime(end - start)})
      </span>
    </span>
  );
}
