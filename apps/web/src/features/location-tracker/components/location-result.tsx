import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { SeriesChart } from '@/components/chart/series-chart';
import type { PlayerController } from '@/components/player/player-controller';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import {
  type AnalysisRun,
  type AnalysisSummary,
  analysisApi,
  analysisQueries,
  type VideoRef,
} from '@/features/analysis/api';
import { errorMessage } from '@/lib/errors';
import { countOf, formatTime } from '@/lib/format';
import { cumulativeDistance, splitTrack } from '../track';
import { JumpList } from './jump-list';
import { LocationFigures } from './location-figures';

export type LocationSummary = NonNullable<NonNullable<AnalysisSummary>['location']>;
type ZoneFigures = LocationSummary['zones'][number];

const number = (value: number | null | undefined, digits = 2) =>
  value == null || !Number.isFinite(value) ? '—' : String(Number(value.toFixed(digits)));

/** The scale's unit per pixel from the run's parameters, or null when the run has no scale. */
function runScale(run: AnalysisRun): { perPixel: number; unit: string } | null {
  const scale = run.parameters.scale as { px_distance?: unknown; true_distance?: unknown; unit?: unknown } | null;
  if (!scale || typeof scale.px_distance !== 'number' || typeof scale.true_distance !== 'number') return null;
  if (!(scale.px_distance > 0) || typeof scale.unit !== 'string') return null;
  return { perPixel: scale.true_distance / scale.px_distance, unit: scale.unit };
}

/**
 * A finished location run: its figures, the zone table, the bins table, the distance travelled over time
 * (the shared chart, locked to the player) and the series downloads.
 */
export function LocationResult({
  videoRef,
  run,
  player,
}: {
  videoRef: VideoRef;
  run: AnalysisRun;
  player: PlayerController;
}) {
  const location = run.summary?.location ?? null;
  const scale = runScale(run);
  const series = useQuery(analysisQueries.series(videoRef, run.analysis_uuid));
  const distance = useMemo(() => {
    const track = series.data ? splitTrack(series.data) : null;
    return track ? cumulativeDistance(track, scale?.perPixel ?? 1) : null;
  }, [series.data, scale?.perPixel]);
  const unit = scale?.unit ?? 'px';
  const inUnit = (px: number) => (scale ? px * scale.perPixel : px);

  if (!location) return <p className="text-muted-foreground text-sm">This run has no location summary.</p>;

  return (
    <div className="grid grid-cols-1 gap-6">
      {location.notes.length > 0 ? (
        <ul
          className="grid gap-1 rounded-md border border-dashed p-3 text-sm"
          aria-label="Notes on the reference"
          data-testid="location-notes"
        >
          {location.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
      {location.pose ? (
        <p className="text-muted-foreground text-sm" data-testid="location-pose-source">
          Positions from the body part {location.pose.part}
          {location.pose.individual !== 'single' ? ` of ${location.pose.individual}` : ''} in the pose set “
          {location.pose.pose_name}”: {countOf(location.pose.missing_points, 'point')} missing or below the cutoff,{' '}
          {countOf(location.pose.interpolated_points, 'point')} of them filled.
        </p>
      ) : null}
      <dl className="grid grid-cols-2 gap-x-6 gap-y-1.5 text-sm sm:grid-cols-4" data-testid="location-summary">
        <Fact label="Frames tracked" value={`${location.frames_tracked} of ${location.frames}`} />
        <Fact label="Tracked time" value={`${number(location.tracked_s)} s`} />
        <Fact
          label="Distance"
          value={
            location.distance != null
              ? `${number(location.distance)} ${location.unit}`
              : `${number(location.distance_px)} px`
          }
        />
        <Fact
          label="Mean speed"
          value={location.mean_speed == null ? '—' : `${number(location.mean_speed)} ${location.unit ?? 'px'}/s`}
        />
      </dl>

      <section aria-labelledby="lt-zones-result" className="grid grid-cols-1 gap-2">
        <h3 id="lt-zones-result" className="font-medium text-sm">
          Zones
        </h3>
        {location.zones.length === 0 ? (
          <p className="text-muted-foreground text-sm">This run had no zones.</p>
        ) : (
          <ZoneTable zones={location.zones} unit={unit} inUnit={inUnit} label="Zones" />
        )}
      </section>

      {location.bins.length > 0 ? (
        <section aria-labelledby="lt-bins-result" className="grid grid-cols-1 gap-2">
          <h3 id="lt-bins-result" className="font-medium text-sm">
            Bins
          </h3>
          <div className="overflow-x-auto rounded-md border">
            <Table aria-label="Bins">
              <TableHeader>
                <TableRow className="hover:bg-transparent">
                  <TableHead>Bin</TableHead>
                  <TableHead className="text-right">Frames tracked</TableHead>
                  <TableHead className="text-right">Distance ({unit})</TableHead>
                  {location.zones.map((zone) => (
                    <TableHead key={zone.name} className="text-right">
                      {zone.name}: time (s) · entries
                    </TableHead>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody className="tabular-nums">
                {location.bins.map((bin) => (
                  <TableRow key={bin.start_s} data-testid="bin-row">
                    <TableCell>
                      {formatTime(bin.start_s)}–{formatTime(bin.end_s)}
                    </TableCell>
                    <TableCell className="text-right">{bin.frames_tracked}</TableCell>
                    <TableCell className="text-right">{number(inUnit(bin.distance_px))}</TableCell>
                    {bin.zones.map((zone) => (
                      <TableCell key={zone.name} className="text-right">
                        {number(zone.time_s)} · {zone.entries}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </section>
      ) : null}

      <JumpList videoRef={videoRef} analysisUuid={run.analysis_uuid} threshold={location.jumps} player={player} />

      <section
        aria-labelledby="lt-distance-chart"
        className="grid min-w-0 grid-cols-1 gap-2"
        data-testid="distance-chart"
      >
        <h3 id="lt-distance-chart" className="font-medium text-sm">
          Distance travelled ({unit})
        </h3>
        {distance ? (
          <SeriesChart player={player} series={distance} height={220} label={`distance (${unit})`} />
        ) : series.isError ? (
          <p className="text-destructive text-sm">The track could not be loaded: {errorMessage(series.error)}</p>
        ) : (
          <Skeleton className="h-56" />
        )}
      </section>

      <LocationFigures videoRef={videoRef} run={run} />

      <Downloads videoRef={videoRef} run={run} />
    </div>
  );
}

function ZoneTable({
  zones,
  unit,
  inUnit,
  label,
}: {
  zones: readonly ZoneFigures[];
  unit: string;
  inUnit: (px: number) => number;
  label: string;
}) {
  return (
    <div className="overflow-x-auto rounded-md border">
      <Table aria-label={label}>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead>Zone</TableHead>
            <TableHead className="text-right">Time (s)</TableHead>
            <TableHead className="text-right">Time (%)</TableHead>
            <TableHead className="text-right">Entries</TableHead>
            <TableHead className="text-right">Latency (s)</TableHead>
            <TableHead className="text-right">Distance inside ({unit})</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody className="tabular-nums">
          {zones.map((zone) => (
            <TableRow key={zone.name} data-testid="zone-result-row" data-zone={zone.name}>
              <TableCell className="font-medium">{zone.name}</TableCell>
              <TableCell className="text-right">{number(zone.time_s)}</TableCell>
              <TableCell className="text-right">{number(zone.percent, 1)}</TableCell>
              <TableCell className="text-right">{zone.entries}</TableCell>
              <TableCell className="text-right">{zone.latency_s == null ? 'never' : number(zone.latency_s)}</TableCell>
              <TableCell className="text-right">{number(inUnit(zone.distance_px))}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="font-medium tabular-nums">{value}</dd>
    </div>
  );
}

const DOWNLOADS = [
  { format: 'csv', label: 'Series CSV' },
  { format: 'xlsx', label: 'Series XLSX' },
] as const;

/** The per-frame series (frame, time, x, y, distance, one 0/1 column per zone) as CSV or XLSX. */
function Downloads({ videoRef, run }: { videoRef: VideoRef; run: AnalysisRun }) {
  const [busy, setBusy] = useState(false);
  const download = async (format: 'csv' | 'xlsx') => {
    setBusy(true);
    try {
      await analysisApi.download(videoRef, run.analysis_uuid, 'series', format);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-wrap gap-2">
      {DOWNLOADS.map(({ format, label }) => (
        <Button key={format} variant="outline" size="sm" disabled={busy} onClick={() => void download(format)}>
          <Download aria-hidden="true" />
          {label}
        </Button>
      ))}
    </div>
  );
}
