import { Ban, ChevronRight, ExternalLink, ListChecks, Pencil, Radar, RotateCcw, Scale, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { RowActionsMenu } from '@/components/ui/row-actions-menu';
import { TableCell, TableRow } from '@/components/ui/table';
import { agreementPath } from '@/features/agreement/links';
import { type AnalysisRun, isRunActive } from '@/features/analysis/api';
import { EventCountsInline } from '@/features/analysis/components/event-counts';
import { RunStatus } from '@/features/analysis/components/run-status';
import { KIND_LABELS } from '@/features/analysis/labels';
import { formatDate, formatDuration } from '@/lib/format';
import { cn } from '@/lib/utils';
import { eventDetectionSource, quickScoreUrl, resultUrl, sameParametersBody } from '../run-actions';
import { runLabel } from '../run-display';
import { RunDetails } from './run-details';

export const RUN_COLUMNS = 9;

export interface RunRowActions {
  onRevoke: (run: AnalysisRun) => void;
  onRerun: (run: AnalysisRun) => void;
  onEditEvents: (run: AnalysisRun) => void;
  onDelete: (run: AnalysisRun) => void;
}

export function RunRow({
  run,
  projectUuid,
  readOnly,
  actions,
}: {
  run: AnalysisRun;
  projectUuid: string;
  readOnly: boolean;
  actions: RunRowActions;
}) {
  const [expanded, setExpanded] = useState(false);
  const label = runLabel(run);
  const detailsId = `run-details-${run.analysis_uuid}`;
  return (
    <>
      <TableRow data-testid="run-row" data-run={run.analysis_uuid} data-state={expanded ? 'selected' : undefined}>
        <TableCell className="w-10 pl-2 sm:pl-4">
          <Button
            variant="ghost"
            size="icon-sm"
            aria-expanded={expanded}
            aria-controls={expanded ? detailsId : undefined}
            aria-label={`${expanded ? 'Hide' : 'Show'} details of ${label}`}
            onClick={() => setExpanded((e) => !e)}
          >
            <ChevronRight className={cn('transition-transform', expanded && 'rotate-90')} aria-hidden="true" />
          </Button>
        </TableCell>
        <TableCell>
          <div className="max-w-28 whitespace-normal font-medium sm:max-w-none sm:whitespace-nowrap">
            {KIND_LABELS[run.kind]}
          </div>
          {/* Narrow screens fold subject and video in here. */}
          <div className="max-w-28 truncate text-muted-foreground text-xs sm:max-w-48 md:hidden">
            {run.subject_name} · {run.video_name}
          </div>
        </TableCell>
        <TableCell className="hidden md:table-cell">
          <div className="max-w-32 truncate">
            <Link to={`/projects/${projectUuid}/subjects/${run.subject_uuid}`} className="hover:underline">
              {run.subject_name}
            </Link>
          </div>
        </TableCell>
        <TableCell className="hidden md:table-cell">
          <div className="max-w-44 truncate" title={run.video_name}>
            {run.video_name}
          </div>
        </TableCell>
        <TableCell>
          <RunStatus run={run} />
        </TableCell>
        <TableCell className="hidden lg:table-cell">
          <div className="max-w-48 truncate" data-testid="run-by">
            {run.created_by?.display_name ?? '—'}
          </div>
          <div className="whitespace-nowrap text-muted-foreground text-xs" data-testid="run-when">
            {formatDate(run.created_at)}
          </div>
        </TableCell>
        <TableCell className="hidden text-right tabular-nums xl:table-cell" data-testid="run-duration">
          {run.duration_s === null ? '—' : formatDuration(run.duration_s)}
        </TableCell>
        <TableCell className="hidden text-right tabular-nums sm:table-cell" data-testid="run-events">
          {run.event_counts ? <EventCountsInline counts={run.event_counts} /> : (run.event_count ?? '—')}
        </TableCell>
        <TableCell className="pr-2 sm:pr-4">
          <div className="flex items-center justify-end gap-1">
            {/* On phones, Revoke sits in the menu. */}
            {isRunActive(run) && !readOnly ? (
              <Button
                variant="outline"
                size="sm"
                className="hidden sm:inline-flex"
                aria-label={`Revoke ${label}`}
                onClick={() => actions.onRevoke(run)}
              >
                <Ban aria-hidden="true" />
                Revoke
              </Button>
            ) : null}
            <RunMenu run={run} label={label} readOnly={readOnly} actions={actions} />
          </div>
        </TableCell>
      </TableRow>
      {expanded ? (
        <TableRow id={detailsId} className="bg-muted/20 hover:bg-muted/20">
          <TableCell colSpan={RUN_COLUMNS} className="whitespace-normal px-4 sm:pl-14">
            <RunDetails run={run} />
          </TableCell>
        </TableRow>
      ) : null}
    </>
  );
}

function RunMenu({
  run,
  label,
  readOnly,
  actions,
}: {
  run: AnalysisRun;
  label: string;
  readOnly: boolean;
  actions: RunRowActions;
}) {
  const succeeded = run.status === 'succeeded';
  const rerun = readOnly ? null : sameParametersBody(run);
  const ownPage = run.kind === 'movement_detection' || run.kind === 'location_tracking' || run.kind === 'pose_series';
  const editable = !readOnly && (ownPage || eventDetectionSource(run) !== null);
  // A pose series is edited on the Pose page; events are detected on it here, as on an imported series.
  const detectable = !readOnly && run.kind === 'pose_series' && eventDetectionSource(run) !== null;
  // A location run has positions, a pose series values, not events: nothing for Quick Score or Agreement to review
  // (an event detection on the pose series has them).
  const hasEvents = run.kind !== 'location_tracking' && run.kind !== 'pose_series';
  const revocable = !readOnly && isRunActive(run);
  const deletable = !readOnly;
  if (!succeeded && !rerun && !editable && !revocable && !deletable) {
    return <span className="inline-block size-8" aria-hidden="true" />;
  }
  return (
    <RowActionsMenu name={label}>
      {succeeded ? (
        <DropdownMenuItem asChild>
          <Link to={resultUrl(run)}>
            <ExternalLink aria-hidden="true" />
            Open result
          </Link>
        </DropdownMenuItem>
      ) : null}
      {succeeded && hasEvents ? (
        <>
          <DropdownMenuItem asChild>
            <Link to={quickScoreUrl(run)}>
              <ListChecks aria-hidden="true" />
              Quick Score
            </Link>
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <Link
              to={agreementPath(run.project_uuid, {
                subject: run.subject_uuid,
                video: run.video_uuid,
                candidate: { kind: 'run_reviewed', analysisUuid: run.analysis_uuid },
              })}
            >
              <Scale aria-hidden="true" />
              Agreement
            </Link>
          </DropdownMenuItem>
        </>
      ) : null}
      {succeeded && (rerun || editable) ? <DropdownMenuSeparator /> : null}
      {rerun ? (
        <DropdownMenuItem onSelect={() => actions.onRerun(run)}>
          <RotateCcw aria-hidden="true" />
          {run.kind === 'timeseries_import' ? 'Detect events again' : 'Re-run with the same parameters'}
        </DropdownMenuItem>
      ) : null}
      {editable ? (
        ownPage ? (
          <DropdownMenuItem asChild>
            <Link to={resultUrl(run, { edit: true })}>
              <Pencil aria-hidden="true" />
              Re-run with edited parameters
            </Link>
          </DropdownMenuItem>
        ) : (
          <DropdownMenuItem onSelect={() => actions.onEditEvents(run)}>
            <Pencil aria-hidden="true" />
            Re-run with edited parameters
          </DropdownMenuItem>
        )
      ) : null}
      {detectable ? (
        <DropdownMenuItem onSelect={() => actions.onEditEvents(run)}>
          <Radar aria-hidden="true" />
          Detect events
        </DropdownMenuItem>
      ) : null}
      {(succeeded || rerun || editable) && (revocable || deletable) ? <DropdownMenuSeparator /> : null}
      {revocable ? (
        <DropdownMenuItem variant="destructive" onSelect={() => actions.onRevoke(run)}>
          <Ban aria-hidden="true" />
          Revoke
        </DropdownMenuItem>
      ) : null}
      {deletable ? (
        <DropdownMenuItem variant="destructive" onSelect={() => actions.onDelete(run)}>
          <Trash2 aria-hidden="true" />
          Delete run
        </DropdownMenuItem>
      ) : null}
    </RowActionsMenu>
  );
}
