import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, CircleAlert, ExternalLink, RotateCcw, Square } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import { useDataTable } from '@/components/data-table/use-data-table';
import { NotFoundContent } from '@/components/layout/error-boundary';
import { PageContainer } from '@/components/layout/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { Progress } from '@/components/ui/progress';
import { Spinner } from '@/components/ui/spinner';
import { RunStatus } from '@/features/analysis/components/run-status';
import { KIND_LABELS } from '@/features/analysis/labels';
import { resultUrl } from '@/features/analysis-logs/run-actions';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { protocolPath } from '@/features/protocols/api';
import { ApiError } from '@/lib/api-client';
import { countOf, formatDate } from '@/lib/format';
import { describeAdjustment } from '../adjustment';
import { type Batch, type BatchRun, batchQueries } from '../api';
import { useRetryBatch, useStopBatch } from '../hooks/use-batch-mutations';
import { batchPercent, countsLine, retryable, retryLabel, timeLeft } from '../progress';
import { ResultsSection } from './results-section';
import { StatisticsSection } from './statistics-section';

const runKey = (run: BatchRun) => run.video_uuid;
const RUNS_PAGE_SIZE = 50;

/**
 * One batch: overall progress and time left, each video's run with its status and progress (followed live while
 * any works), the failures with their reasons, Retry failed and Stop, and a link to every run.
 */
export function BatchPage({ projectUuid, batchUuid }: { projectUuid: string; batchUuid: string }) {
  const { data: batch, isLoading, error } = useQuery(batchQueries.detail(projectUuid, batchUuid));
  const permissions = useProjectPermissions();
  const retry = useRetryBatch(projectUuid, batchUuid);
  const stop = useStopBatch(projectUuid, batchUuid);
  const [confirmStop, setConfirmStop] = useState(false);
  const allRuns = batch?.runs ?? [];
  // A page at a time: a 200-run batch opens without drawing 200 rows at once.
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(RUNS_PAGE_SIZE);
  const runs = useMemo(() => allRuns.slice((page - 1) * pageSize, page * pageSize), [allRuns, page, pageSize]);
  const table = useDataTable(runs, runKey);

  if (isLoading) return <Spinner />;
  if (error instanceof ApiError && error.status === 404) return <NotFoundContent />;
  if (!batch) throw error ?? new Error('Batch missing');

  const running = batch.status === 'running';
  const failures = allRuns.filter((run) => run.status === 'failed');
  // Results and statistics are read again when a run finishes (its row appears) or a retry adds an attempt.
  const version = JSON.stringify([batch.counts, allRuns.reduce((sum, run) => sum + run.attempt, 0)]);
  const left = timeLeft(batch);
  const runLink = (run: BatchRun) =>
    resultUrl({
      project_uuid: projectUuid,
      subject_uuid: run.subject_uuid,
      video_uuid: run.video_uuid,
      analysis_uuid: run.analysis_uuid,
      kind: batch.kind,
    });

  const columns: DataTableColumn<BatchRun>[] = [
    { id: 'subject', header: 'Subject', cellClassName: 'font-medium', cell: (run) => run.subject_name },
    {
      id: 'group',
      header: 'Group',
      className: 'hidden sm:table-cell',
      cell: (run) => (run.group ? <Badge variant="secondary">{run.group}</Badge> : '—'),
    },
    { id: 'video', header: 'Video', cellClassName: 'max-w-64 truncate', cell: (run) => run.video_name },
    { id: 'status', header: 'Status', cell: (run) => <RunStatus run={run} /> },
    {
      id: 'adjusted',
      header: 'Adjustments',
      className: 'hidden lg:table-cell',
      cellClassName: 'text-muted-foreground text-xs',
      cell: (run) => describeAdjustment(run.overrides, batch.kind) || '—',
    },
    {
      id: 'attempt',
      header: 'Attempt',
      className: 'hidden md:table-cell text-right',
      cellClassName: 'tabular-nums',
      cell: (run) => run.attempt,
    },
  ];

  return (
    <PageContainer className="grid grid-cols-1 gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0 space-y-2">
          <Button asChild variant="link" className="h-auto p-0 text-muted-foreground">
            <Link to={`/projects/${projectUuid}/batches`}>
              <ArrowLeft aria-hidden="true" />
              Batches
            </Link>
          </Button>
          <h1 className="font-semibold text-2xl tracking-tight">
            <Link to={protocolPath(projectUuid, batch.protocol_uuid)} className="hover:underline">
              {batch.protocol_name}
            </Link>{' '}
            <span className="text-muted-foreground">v{batch.protocol_version}</span>
          </h1>
          <p className="text-muted-foreground text-sm">
            {KIND_LABELS[batch.kind]} on {countOf(batch.counts.videos, 'video')} · started{' '}
            {formatDate(batch.created_at)}
            {batch.created_by ? ` by ${batch.created_by.display_name}` : ''}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {permissions.canProcess && retryable(batch.counts) > 0 ? (
            <Button variant="outline" onClick={() => retry.mutate()} disabled={retry.isPending}>
              <RotateCcw aria-hidden="true" />
              {retryLabel(batch.counts)}
            </Button>
          ) : null}
          {permissions.canEditContent && running ? (
            <Button variant="outline" onClick={() => setConfirmStop(true)}>
              <Square aria-hidden="true" />
              Stop
            </Button>
          ) : null}
        </div>
      </div>

      <Card data-testid="batch-progress" data-status={batch.status}>
        <CardContent className="grid gap-2">
          <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
            <span className="font-mono tabular-nums" data-testid="batch-percent">
              {batchPercent(batch)}%
            </span>
            <span data-testid="batch-counts">{countsLine(batch.counts)}</span>
            {left ? (
              <span className="text-muted-foreground" data-testid="batch-time-left">
                {left}
              </span>
            ) : null}
            {!running ? <Badge variant="success">Finished</Badge> : null}
          </div>
          <Progress value={batchPercent(batch)} aria-label="Batch progress" />
        </CardContent>
      </Card>

      {failures.length ? <Failures runs={failures} /> : null}

      <Card className="gap-0 overflow-hidden py-0">
        <CardHeader className="py-4">
          <CardTitle>Videos</CardTitle>
          <CardDescription>Each video’s newest run; a retry adds an attempt.</CardDescription>
        </CardHeader>
        <DataTable
          label="Runs of the batch"
          rows={runs}
          rowKey={runKey}
          rowName={(run) => `${run.subject_name} / ${run.video_name}`}
          columns={columns}
          table={table}
          selectable={false}
          selectAllLabel="Select every run"
          rowTestId="batch-run-row"
          rowActions={(run) => (
            <Button variant="ghost" size="sm" asChild>
              <Link to={runLink(run)} aria-label={`Open the run of ${run.subject_name} / ${run.video_name}`}>
                <ExternalLink aria-hidden="true" />
                Run
              </Link>
            </Button>
          )}
          rowMenu={(run) => (
            <DropdownMenuItem asChild>
              <Link to={runLink(run)}>
                <ExternalLink aria-hidden="true" />
                Open the run
              </Link>
            </DropdownMenuItem>
          )}
          inset="card"
          headerClassName="bg-muted/40"
          pagination={{
            id: 'batch-runs',
            page,
            pageSize,
            total: allRuns.length,
            emptyLabel: 'No videos',
            onPageChange: setPage,
            onPageSizeChange: (size) => {
              setPageSize(size);
              setPage(1);
            },
          }}
        />
      </Card>

      <ResultsSection projectUuid={projectUuid} source={{ batchUuid }} version={version} />
      <StatisticsSection projectUuid={projectUuid} batchUuid={batchUuid} version={version} />

      <ConfirmDialog
        open={confirmStop}
        onOpenChange={setConfirmStop}
        title="Stop this batch?"
        description={stopWarning(batch)}
        confirmLabel="Stop batch"
        pending={stop.isPending}
        onConfirm={() => stop.mutate(undefined, { onSuccess: () => setConfirmStop(false) })}
      />
    </PageContainer>
  );
}

const stopWarning = (batch: Batch) =>
  `${countOf(batch.counts.queued + batch.counts.running, 'run')} that ${
    batch.counts.queued + batch.counts.running === 1 ? 'has' : 'have'
  } not finished ${batch.counts.queued + batch.counts.running === 1 ? 'is' : 'are'} revoked; finished runs keep their results. “Retry” runs the stopped videos again.`;

function Failures({ runs }: { runs: BatchRun[] }) {
  return (
    <Card className="border-destructive/40" data-testid="batch-failures">
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-destructive">
          <CircleAlert className="size-4" aria-hidden="true" />
          {countOf(runs.length, 'video')} failed
        </CardTitle>
        <CardDescription>The others went on; “Retry” runs these again.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-1.5 text-sm">
          {runs.map((run) => (
            <li key={run.video_uuid} data-testid="batch-failure">
              <span className="font-medium">
                {run.subject_name} / {run.video_name}
              </span>
              : <span className="text-destructive">{run.error ?? 'No reason was recorded.'}</span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
