import { FolderOpen, SlidersHorizontal } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import type { AnalysisRun } from '@/features/analysis/api';
import { RunStatusBadge } from '@/features/analysis/components/run-status';
import { formatDate } from '@/lib/format';

/** A column a tool adds to its runs table, after Started (and before Status when `beforeStatus`). */
export interface RunColumn {
  header: string;
  /** Right-aligned, tabular figures. */
  numeric?: boolean;
  beforeStatus?: boolean;
  cell: (run: AnalysisRun) => ReactNode;
}

/**
 * A video's runs in a Video Tools page (the Movement Detector, the Location Tracker): when each started, its status,
 * the tool's own columns, who started it, and the actions — open its result, or start a new run from its settings.
 */
export function RunsTable({
  label,
  runs,
  openUuid,
  columns,
  canReuse = () => true,
  onOpen,
  onEdit,
}: {
  label: string;
  runs: readonly AnalysisRun[];
  openUuid: string | null;
  columns: readonly RunColumn[];
  /** Whether this tool can start from the run's settings (default: every run). */
  canReuse?: (run: AnalysisRun) => boolean;
  onOpen: (uuid: string) => void;
  onEdit: (uuid: string) => void;
}) {
  const head = (column: RunColumn) => (
    <TableHead key={column.header} className={column.numeric ? 'text-right' : undefined}>
      {column.header}
    </TableHead>
  );
  const cell = (column: RunColumn, run: AnalysisRun) => (
    <TableCell key={column.header} className={column.numeric ? 'text-right tabular-nums' : undefined}>
      {column.cell(run)}
    </TableCell>
  );
  const before = columns.filter((column) => column.beforeStatus);
  const after = columns.filter((column) => !column.beforeStatus);
  return (
    <div className="-mx-6 border-t">
      <Table aria-label={label}>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            <TableHead className="pl-6">Started</TableHead>
            {before.map(head)}
            <TableHead>Status</TableHead>
            {after.map(head)}
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
                {before.map((column) => cell(column, run))}
                <TableCell>
                  <RunStatusBadge status={run.status} />
                </TableCell>
                {after.map((column) => cell(column, run))}
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
                    {canReuse(run) ? (
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
  );
}
