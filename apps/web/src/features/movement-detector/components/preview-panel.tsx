import { Loader2 } from 'lucide-react';
import { useMemo } from 'react';
import { SeriesChart } from '@/components/chart/series-chart';
import type { Preview } from '@/features/analysis/api';
import { countOf, formatTime } from '@/lib/format';

/** A preview as shown: the answer and how long the whole round trip took. */
export interface PreviewShown {
  preview: Preview;
  roundTripMs: number;
}

/** The preview's highlighted frame and its window's trace with events and threshold. */
export function PreviewPanel({
  shown,
  pending,
  onSeek,
}: {
  shown: PreviewShown | null;
  pending: boolean;
  onSeek: (time: number) => void;
}) {
  const preview = shown?.preview;
  const series = useMemo(() => {
    if (!preview) return null;
    return {
      values: Float64Array.from(preview.values, (v) => (v === null ? Number.NaN : v)),
      times: Float64Array.from(preview.frames, (frame) => frame / preview.fps),
      fps: preview.fps,
    };
  }, [preview]);
  const events = useMemo(() => preview?.events.map((time) => ({ time })) ?? [], [preview]);

  if (!shown && !pending) return null;

  return (
    <section aria-label="Preview" className="grid grid-cols-1 gap-3" aria-busy={pending} data-testid="preview">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-medium text-sm">Preview</h3>
        {pending ? (
          <span role="status" className="flex items-center gap-1.5 text-muted-foreground text-xs">
            <Loader2 className="size-3.5 animate-spin" aria-hidden="true" />
            Computing the preview…
          </span>
        ) : shown ? (
          <span className="text-muted-foreground text-xs tabular-nums" data-testid="preview-elapsed">
            {formatTime(shown.preview.start_s)}–
            {formatTime(shown.preview.start_s + shown.preview.values.length / shown.preview.fps)} · computed in{' '}
            {Math.round(shown.preview.elapsed_ms)} ms ({Math.round(shown.roundTripMs)} ms round trip) ·{' '}
            {countOf(shown.preview.events.length, 'event')} · threshold {Number(shown.preview.threshold.toFixed(2))}
          </span>
        ) : null}
      </div>
      {shown && series ? (
        <div className={pending ? 'opacity-50 transition-opacity' : undefined}>
          <div className="grid grid-cols-1 gap-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
            <img
              src={shown.preview.image}
              alt="Last frame of the preview window: changed pixels in red, ROIs outlined"
              className="w-full rounded-md border bg-black object-contain"
              data-testid="preview-image"
            />
            <div className="min-w-0" data-testid="preview-trace">
              <SeriesChart
                series={series}
                events={events}
                threshold={shown.preview.threshold}
                onSeek={onSeek}
                height={200}
                label="changed pixels"
              />
            </div>
          </div>
        </div>
      ) : null}
    </section>
  );
}
