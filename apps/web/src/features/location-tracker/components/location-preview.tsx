import { Loader2 } from 'lucide-react';
import type { LocationPreview } from '@/features/analysis/api';
import { formatTime } from '@/lib/format';

/** How many of the window's positions the table lists (evenly spaced over it). */
const LISTED = 8;

/** A preview as shown: the answer and how long the whole round trip took. */
export interface LocationPreviewShown {
  preview: LocationPreview;
  roundTripMs: number;
}

/** Evenly spaced rows of the window, its last frame always among them (the one the picture shows). */
export function listedRows(count: number, listed = LISTED): number[] {
  if (count <= listed) return Array.from({ length: count }, (_, i) => i);
  return Array.from({ length: listed }, (_, k) => Math.round((k * (count - 1)) / (listed - 1)));
}

const pixels = (value: number | null) => (value === null ? '—' : value.toFixed(1));

/**
 * The preview of a location run: the window's last frame with the zones, the track and the tracked point, a few
 * positions of the window (a click seeks the player there), and what the server found about the reference.
 */
export function LocationPreviewPanel({
  shown,
  pending,
  onSeek,
}: {
  shown: LocationPreviewShown | null;
  pending: boolean;
  onSeek: (time: number) => void;
}) {
  if (!shown && !pending) return null;
  const preview = shown?.preview;
  const tracked = preview ? preview.x.filter((x) => x !== null).length : 0;

  return (
    <section aria-label="Preview" className="grid grid-cols-1 gap-3" aria-busy={pending} data-testid="preview">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-medium text-sm">Preview</h3>
        {pending ? (
          <span role="status" className="flex items-center gap-1.5 text-muted-foreground text-xs">
            <Loader2 className="size-3.5 animate-spin" aria-hidden="true" />
            Tracking the preview…
          </span>
        ) : shown && preview ? (
          <span className="text-muted-foreground text-xs tabular-nums" data-testid="preview-elapsed">
            {formatTime(preview.start_s)}–{formatTime(preview.start_s + preview.frames.length / preview.fps)} ·{' '}
            {tracked} of {preview.frames.length} frames tracked · computed in {Math.round(preview.elapsed_ms)} ms (
            {Math.round(shown.roundTripMs)} ms round trip) · reference{' '}
            {preview.reference.cached ? 'reused' : 'computed and kept for this video'}
          </span>
        ) : null}
      </div>
      {shown && preview ? (
        <div className={pending ? 'opacity-50 transition-opacity' : undefined}>
          {preview.reference.notes.length > 0 ? (
            <ul className="mb-3 grid gap-1 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900 text-sm dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
              {preview.reference.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
          ) : null}
          <div className="grid grid-cols-1 gap-3 lg:grid-cols-[minmax(0,3fr)_minmax(15rem,2fr)]">
            <img
              src={preview.image}
              alt="Last frame of the preview: zones outlined, the track in yellow, the tracked point in red"
              className="w-full rounded-md border bg-black object-contain"
              data-testid="preview-image"
            />
            <table className="h-fit w-full text-sm tabular-nums" data-testid="preview-positions">
              <caption className="sr-only">Positions in the preview (video pixels)</caption>
              <thead>
                <tr className="border-b text-left text-muted-foreground text-xs">
                  <th className="py-1 pr-3 font-medium">Frame</th>
                  <th className="py-1 pr-3 font-medium">Time</th>
                  <th className="py-1 pl-3 text-right font-medium">x</th>
                  <th className="py-1 pl-3 text-right font-medium">y</th>
                </tr>
              </thead>
              <tbody>
                {listedRows(preview.frames.length).map((row) => {
                  const frame = preview.frames[row]!;
                  return (
                    <tr key={frame} className="border-b last:border-0">
                      <td className="py-1 pr-3">
                        <button
                          type="button"
                          className="underline-offset-2 hover:underline"
                          onClick={() => onSeek(frame / preview.fps)}
                        >
                          {frame}
                        </button>
                      </td>
                      <td className="py-1 pr-3">{formatTime(frame / preview.fps)}</td>
                      <td className="py-1 pl-3 text-right">{pixels(preview.x[row] ?? null)}</td>
                      <td className="py-1 pl-3 text-right">{pixels(preview.y[row] ?? null)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
    </section>
  );
}
