import { useQuery } from '@tanstack/react-query';
import { Download, Radar } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { SeriesChart } from '@/components/chart/series-chart';
import type { PlayerController } from '@/components/player/player-controller';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { type AnalysisRun, analysisApi, analysisQueries, type VideoRef } from '@/features/analysis/api';
import { posePartsOf, posePartsText, seriesLabel } from '@/features/analysis/series-names';
import { errorMessage } from '@/lib/errors';
import { countOf } from '@/lib/format';

/**
 * A finished pose-derived series: the shared chart locked to the player, what the points were like (frames with a
 * value, points missing and filled), "Detect events" on it, and its CSV.
 */
export function PoseSeriesResult({
  videoRef,
  run,
  player,
  onDetect,
}: {
  videoRef: VideoRef;
  run: AnalysisRun;
  player: PlayerController;
  /** Opens the event detection on this series; absent for viewers. */
  onDetect?: () => void;
}) {
  const series = useQuery(analysisQueries.series(videoRef, run.analysis_uuid));
  const [busy, setBusy] = useState(false);
  const summary = run.summary;
  const pose = summary?.pose_series;
  // Which individual each part is, when the parts are not all one animal's.
  const parts = posePartsText(posePartsOf(run.parameters));
  const download = async () => {
    setBusy(true);
    try {
      await analysisApi.download(videoRef, run.analysis_uuid, 'series', 'csv');
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="grid grid-cols-1 gap-5">
      <div className="min-w-0" data-testid="pose-series-chart">
        {series.data ? (
          <SeriesChart player={player} series={series.data} height={240} label={seriesLabel(run)} />
        ) : series.isError ? (
          <p className="text-destructive text-sm">The series could not be loaded: {errorMessage(series.error)}</p>
        ) : (
          <Skeleton className="h-60" />
        )}
      </div>
      <dl
        className="grid grid-cols-2 gap-x-6 gap-y-1.5 text-sm sm:grid-cols-3 lg:grid-cols-5"
        data-testid="pose-series-summary"
      >
        <Fact label="Pose set" value={pose?.pose_name ?? '—'} />
        <Fact label={`Body part${posePartsOf(run.parameters).length === 1 ? '' : 's'}`} value={parts || '—'} />
        <Fact
          label="Frames with a value"
          value={
            summary
              ? `${summary.valid_samples.toLocaleString('en-US')} of ${summary.samples.toLocaleString('en-US')}`
              : '—'
          }
        />
        <Fact label="Points missing" value={pose ? countOf(pose.missing_points, 'point') : '—'} />
        <Fact label="Filled by interpolation" value={pose ? countOf(pose.interpolated_points, 'point') : '—'} />
      </dl>
      <div className="flex flex-wrap gap-2">
        {onDetect ? (
          <Button onClick={onDetect}>
            <Radar aria-hidden="true" />
            Detect events
          </Button>
        ) : null}
        <Button variant="outline" disabled={busy} onClick={() => void download()}>
          <Download aria-hidden="true" />
          Series CSV
        </Button>
      </div>
    </div>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="truncate font-medium tabular-nums" title={value}>
        {value}
      </dd>
    </div>
  );
}
