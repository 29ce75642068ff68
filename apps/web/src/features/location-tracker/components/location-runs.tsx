import { FolderOpen, SlidersHorizontal } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import type { AnalysisRun } from '@/features/analysis/api';
import { RunStatusBadge } from '@/features/analysis/components/run-status';
import { formatDate } from '@/lib/format';

/** The video's location runs, newest first: open one's result, or start from its settings. */
export function LocationRuns({
  runs,
  loading,
  openUuid,
  onOpen,
  onEdit,
}: {
  runs: readonly AnalysisRun[];
  loading: boolean;
  openUuid: string | null;
  onOpen: (uuid: string) => void;
  onEdit: (uuid: string) => void;
}) {
  if (loading) return <Skeleton className="h-24" />;
  if (runs.length === 0) return <p className="text-muted-foreground text-sm">No location runs on this video yet.</p>;
  return (
    <div className="-mx-6 border-t">
      <Table aria-label="Location runs of this video">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead className="pl-6">Started</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="text-right">Zones</TableHead>
            <TableHead className="hidden md:table-cell">By</TableHead>
            <TableHead className="pr-6 text-right">
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {runs.map((run) => {
            const open = run.analysis_uuid === openUuid;
            const zones = Array.isArray(run.parameters.zones) ? run.parameters.zones.length : 0;
            return (
              <TableRow key={run.analysis_uuid} data-state={open ? 'selected' : undefined} data-testid="run-row">
                <TableCell className="pl-6">{formatDate(run.created_at)}</TableCell>
                <TableCell>
                  <RunStatusBadge status={run.status} />
                </TableCell>
                <TableCell className="text-right tabular-nums">{zones}</TableCell>
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
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => onEdit(run.analysis_uuid)}
                      aria-label={`Start from the settings of the run of ${formatDate(run.created_at)}`}
                    >
                      <SlidersHorizontal aria-hidden="true" />
                      Reuse settings
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}
