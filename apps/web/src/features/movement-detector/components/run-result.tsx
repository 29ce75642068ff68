import { useQuery } from '@tanstack/react-query';
import { Download, Info, ListChecks } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { SeriesChart } from '@/components/chart/series-chart';
import type { PlayerController } from '@/components/player/player-controller';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import {
  type AnalysisEvent,
  type AnalysisRun,
  type AnalysisSummary,
  analysisApi,
  analysisQueries,
  type EventCounts,
  runBypassRanges,
  type VideoRef,
} from '@/features/analysis/api';
import { EventCountsFacts } from '@/features/analysis/components/event-counts';
import { countsChangedPixels, seriesLabel } from '@/features/analysis/series-names';
import { quickScorePath } from '@/features/quick-score/links';
import { errorMessage } from '@/lib/errors';
import { formatDate, formatTime, formatTimeAndFrame } from '@/lib/format';
import { cn } from '@/lib/utils';
import { noMovementAboveNoise } from '../still-series';

/**
 * A finished run: its series with events, bypassed parts and threshold (optionally over another run's series),
 * locked to the player both ways; the event list; the summary; the downloads.
 */
export function RunResult({
  videoRef,
  run,
  compareRun,
  player,
}: {
  videoRef: VideoRef;
  run: AnalysisRun;
  compareRun: AnalysisRun | null;
  /** The page's player: the chart follows it, and the chart and the event list seek it. */
  player: PlayerController;
}) {
  // What the series is — changed pixels, a pose series, an import — is the run's own (or its source's) to say.
  const label = seriesLabel(run);
  // Only a series of changed pixels gets the note on a video without movement above the noise.
  const movement = countsChangedPixels(run);
  const series = useQuery(analysisQueries.series(videoRef, run.analysis_uuid));
  const compareSeries = useQuery({
    ...analysisQueries.series(videoRef, compareRun?.analysis_uuid ?? ''),
    enabled: compareRun !== null,
  });
  const eventsQuery = useQuery(analysisQueries.events(videoRef, run.analysis_uuid));
  const [selectedId, setSelectedId] = useState<number | null>(null);

  const events = useMemo(
    () => [...(eventsQuery.data?.events ?? [])].sort((a, b) => a.time - b.time),
    [eventsQuery.data],
  );
  const chartEvents = useMemo(
    () => events.map((e) => ({ time: e.time, discarded: e.discarded, selected: e.id === selectedId })),
    [events, selectedId],
  );
  const bypassRanges = useMemo(() => runBypassRanges(run), [run]);
  const compare = useMemo(
    () =>
      compareRun && compareSeries.data
        ? { ...compareSeries.data, label: `Run of ${formatDate(compareRun.created_at)}` }
        : null,
    [compareRun, compareSeries.data],
  );

  const still = useMemo(
    () => (movement && series.data ? noMovementAboveNoise(series.data.values, run.summary?.noise_top) : false),
    [movement, series.data, run.summary?.noise_top],
  );

  const openEvent = (event: AnalysisEvent) => {
    setSelectedId(event.id);
    void player.seekTime(event.time);
  };

  return (
    <div className="grid grid-cols-1 gap-6">
      {still ? (
        <p
          className="flex items-start gap-2 rounded-md border border-dashed p-3 text-sm"
          role="note"
          data-testid="still-note"
        >
          <Info className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <span>
            This video has no movement above the noise: no frame changes more than the noise top (
            {number(run.summary?.noise_top)} changed pixels), so the threshold is {number(run.summary?.threshold)} and
            there is nothing to detect. The chart is a flat line; its scale means nothing. If the animal does move,
            check the ROIs and the pixel threshold.
          </span>
        </p>
      ) : null}
      <div className="min-w-0" data-testid="result-chart">
        {series.data ? (
          <SeriesChart
            player={player}
            series={series.data}
            events={chartEvents}
            bypassRanges={bypassRanges}
            threshold={run.summary?.threshold ?? null}
            compare={compare}
            height={260}
            label={label}
          />
        ) : series.isError ? (
          <p className="text-destructive text-sm">The series could not be loaded: {errorMessage(series.error)}</p>
        ) : (
          <Skeleton className="h-64" />
        )}
      </div>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <section aria-labelledby="md-events-title" className="grid grid-cols-1 content-start gap-2">
          <h3 id="md-events-title" className="font-medium text-sm">
            Events{' '}
            <span className="text-muted-foreground">
              ({events.filter((e) => !e.discarded).length}
              {events.some((e) => e.discarded) ? `, ${events.filter((e) => e.discarded).length} discarded` : ''})
            </span>
          </h3>
          {eventsQuery.isLoading ? (
            <Skeleton className="h-32" />
          ) : events.length === 0 ? (
            <p className="text-muted-foreground text-sm">No events: nothing rose above the threshold.</p>
          ) : (
            <ol className="max-h-80 overflow-y-auto rounded-md border" aria-label="Events">
              {events.map((event, index) => (
                <li key={event.id} className="border-b last:border-b-0">
                  <button
                    type="button"
                    onClick={() => openEvent(event)}
                    data-testid="event-item"
                    data-time={event.time}
                    aria-current={event.id === selectedId ? 'true' : undefined}
                    className={cn(
                      'flex w-full items-center gap-3 px-3 py-1.5 text-left text-sm outline-none hover:bg-muted/60 focus-visible:bg-muted',
                      event.id === selectedId && 'bg-primary/10',
                      event.discarded && 'text-muted-foreground line-through opacity-60',
                    )}
                  >
                    <span className="w-8 text-muted-foreground text-xs tabular-nums">{index + 1}</span>
                    <span className="font-mono tabular-nums">{formatTimeAndFrame(event.time, player.fps)}</span>
                    {event.label ? <span className="truncate text-xs">{event.label}</span> : null}
                    {event.discarded ? <span className="ml-auto text-xs no-underline">discarded</span> : null}
                  </button>
                </li>
              ))}
            </ol>
          )}
        </section>

        <section aria-labelledby="md-summary-title" className="grid grid-cols-1 content-start gap-2">
          <h3 id="md-summary-title" className="font-medium text-sm">
            Summary
          </h3>
          {run.summary ? (
            <Summary summary={run.summary} counts={run.event_counts} />
          ) : (
            <p className="text-muted-foreground text-sm">—</p>
          )}
          <div className="pt-2">
            <Button asChild size="sm">
              <Link
                to={quickScorePath(videoRef.projectUuid, {
                  subject: videoRef.subjectUuid,
                  video: videoRef.videoUuid,
                  run: run.analysis_uuid,
                })}
              >
                <ListChecks aria-hidden="true" />
                Review in Quick Score
              </Link>
            </Button>
          </div>
          <Downloads videoRef={videoRef} run={run} />
        </section>
      </div>
    </div>
  );
}

const number = (value: number | null | undefined, digits = 2) =>
  value == null || !Number.isFinite(value) ? '—' : String(Number(value.toFixed(digits)));

function Summary({ summary, counts }: { summary: AnalysisSummary; counts: EventCounts | null }) {
  const freezing = summary.freezing;
  return (
    <div className="grid grid-cols-1 gap-3">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1.5 text-sm" data-testid="run-summary">
        <Fact label="Frames" value={`${summary.samples} (${summary.valid_samples} analysed)`} />
        <Fact label="Duration" value={`${number(summary.duration_s)} s`} />
        {counts ? (
          <EventCountsFacts counts={counts} valueClassName="text-right font-medium tabular-nums" />
        ) : (
          <>
            <Fact label="Events" value={String(summary.events)} />
            <Fact label="Rate" value={`${number(summary.event_rate_per_min)} per minute`} />
          </>
        )}
        <Fact label="Threshold" value={number(summary.threshold)} />
        <Fact label="Noise top" value={number(summary.noise_top)} />
        {freezing ? <Fact label="Freezing" value={`${number(freezing.percent, 1)}%`} /> : null}
        <Fact
          label="Analysis speed"
          value={summary.frames_per_second == null ? '—' : `${Math.round(summary.frames_per_second)} frames/s`}
        />
      </dl>
      {freezing && freezing.bins.length > 0 ? (
        <table className="w-full text-sm" aria-label="Freezing per bin">
          <thead>
            <tr className="text-left text-muted-foreground text-xs">
              <th className="font-medium">Bin</th>
              <th className="text-right font-medium">Freezing</th>
            </tr>
          </thead>
          <tbody className="tabular-nums">
            {freezing.bins.map((bin) => (
              <tr key={bin.start_s}>
                <td>
                  {formatTime(bin.start_s)}–{formatTime(bin.end_s)}
                </td>
                <td className="text-right">{number(bin.percent, 1)}%</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-medium tabular-nums">{value}</dd>
    </>
  );
}

const DOWNLOADS = [
  { table: 'series', format: 'csv', label: 'Series CSV' },
  { table: 'series', format: 'xlsx', label: 'Series XLSX' },
  { table: 'events', format: 'csv', label: 'Events CSV' },
  { table: 'events', format: 'xlsx', label: 'Events XLSX' },
] as const;

function Downloads({ videoRef, run }: { videoRef: VideoRef; run: AnalysisRun }) {
  const [busy, setBusy] = useState<string | null>(null);
  const download = async (table: 'series' | 'events', format: 'csv' | 'xlsx', label: string) => {
    setBusy(label);
    try {
      await analysisApi.download(videoRef, run.analysis_uuid, table, format);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="flex flex-wrap gap-2 pt-2">
      {DOWNLOADS.map(({ table, format, label }) => (
        <Button
          key={label}
          variant="outline"
          size="sm"
          disabled={busy !== null}
          onClick={() => void download(table, format, label)}
        >
          <Download aria-hidden="true" />
          {label}
        </Button>
      ))}
    </div>
  );
}
