import { FolderOpen, SlidersHorizontal } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import type { AnalysisRun } from '@/features/analysis/api';
import { EventCountsInline } from '@/features/analysis/components/event-counts';
import { RunStatusBadge } from '@/features/analysis/components/run-status';
import { runCountsLabel } from '@/features/analysis/event-counts';
import { KIND_LABELS } from '@/features/analysis/labels';
import { formatDate } from '@/lib/format';

/** The video's runs: open one, reuse its settings, or overlay its series on the open run's chart. */
export function EarlierRuns({
  runs,
  loading,
  openUuid,
  compareUuid,
  onOpen,
  onEdit,
  onCompare,
}: {
  runs: readonly AnalysisRun[];
  loading: boolean;
  openUuid: string | null;
  compareUuid: string | null;
  onOpen: (uuid: string) => void;
  onEdit: (uuid: string) => void;
  onCompare: (uuid: string | null) => void;
}) {
  if (loading) return <Skeleton className="h-24" />;
  if (runs.length === 0) {
    return <p className="text-muted-foreground text-sm">No runs on this video yet: preview, then run.</p>;
  }
  const comparable = runs.filter((run) => run.status === 'succeeded' && run.analysis_uuid !== openUuid);

  return (
    <div className="grid grid-cols-1 gap-3">
      {openUuid ? (
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor="md-compare" className="text-sm">
            Compare with
          </label>
          <NativeSelect
            id="md-compare"
            value={compareUuid ?? ''}
            onChange={(event) => onCompare(event.target.value || null)}
            disabled={comparable.length === 0}
            className="min-w-60"
          >
            <option value="">{comparable.length === 0 ? 'No other finished run' : 'No comparison'}</option>
            {comparable.map((run) => (
              <option key={run.analysis_uuid} value={run.analysis_uuid}>
                {formatDate(run.created_at)} · {KIND_LABELS[run.kind]} · {runCountsLabel(run)}
              </option>
            ))}
          </NativeSelect>
        </div>
      ) : null}
      <div className="-mx-6 border-t">
        <Table aria-label="Runs of this video">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead className="pl-6">Started</TableHead>
              <TableHead>Kind</TableHead>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">Events</TableHead>
              <TableHead className="hidden md:table-cell">By</TableHead>
              <TableHead className="pr-6 text-right">
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {runs.map((run) => {
              const open = run.analysis_uuid === openUuid;
              return (
                <TableRow key={run.analysis_uuid} data-state={open ? 'selected' : undefined} data-testid="run-row">
                  <TableCell className="pl-6">{formatDate(run.created_at)}</TableCell>
                  <TableCell>{KIND_LABELS[run.kind]}</TableCell>
                  <TableCell>
                    <RunStatusBadge status={run.status} />
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {run.event_counts ? <EventCountsInline counts={run.event_counts} /> : (run.event_count ?? '—')}
                  </TableCell>
                  <TableCell className="hidden text-muted-foreground md:table-cell">
                    {run.created_by?.display_name ?? '—'}
                  </TableCell>
                  <TableCell className="pr-6">
                    <div className="flex justify-end gap-1">
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => onOpen(run.analysis_uuid)}
                        disabled={open}
                        aria-label={`Open the run of ${formatDate(run.created_at)}`}
                      >
                        <FolderOpen aria-hidden="true" />
                        {open ? 'Shown' : 'Open'}
                      </Button>
                      {run.kind === 'movement_detection' ? (
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => onEdit(run.analysis_uuid)}
                          aria-label={`Start from the settings of the run of ${formatDate(run.created_at)}`}
                        >
                          <SlidersHorizontal aria-hidden="true" />
                          Reuse settings
                        </Button>
                      ) : null}
                    </div>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
