import { useQuery } from '@tanstack/react-query';
import { FolderOpen, Layers, Plus } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import { useDataTable } from '@/components/data-table/use-data-table';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { Progress } from '@/components/ui/progress';
import { KIND_LABELS } from '@/features/analysis/labels';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { formatDate } from '@/lib/format';
import { patchSearchParams } from '@/lib/search-params';
import { BATCH_PAGE_SIZE, type BatchSummary, batchPath, batchQueries } from '../api';
import { batchPercent, countsLine } from '../progress';

const batchKey = (batch: BatchSummary) => batch.batch_uuid;

/** The project's batches, newest first: the protocol and version, the videos' progress, who started it and when. */
export function BatchesPage({ projectUuid }: { projectUuid: string }) {
  const [params, setParams] = useSearchParams();
  const permissions = useProjectPermissions();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const pageSize = Number(params.get('page_size')) || BATCH_PAGE_SIZE;
  const update = (patch: Record<string, string | null>) =>
    setParams((prev) => patchSearchParams(prev, patch), { replace: true });
  const { data, isLoading, isFetching, isError } = useQuery(
    batchQueries.list(projectUuid, { page, page_size: pageSize }),
  );
  const batches = data?.results ?? [];
  const table = useDataTable(batches, batchKey);

  const columns: DataTableColumn<BatchSummary>[] = [
    {
      id: 'protocol',
      header: 'Protocol',
      cellClassName: 'max-w-72 truncate font-medium',
      cell: (batch) => (
        <Link to={batchPath(projectUuid, batch.batch_uuid)} className="hover:underline">
          {batch.protocol_name} <span className="text-muted-foreground">v{batch.protocol_version}</span>
        </Link>
      ),
    },
    {
      id: 'kind',
      header: 'Kind',
      className: 'hidden md:table-cell',
      cell: (batch) => <Badge variant="secondary">{KIND_LABELS[batch.kind]}</Badge>,
    },
    {
      id: 'progress',
      header: 'Progress',
      cellTestId: 'batch-list-progress',
      cell: (batch) => (
        <div className="grid gap-1">
          <div className="flex items-center gap-2">
            <Progress value={batchPercent(batch)} aria-label="Batch progress" className="h-1.5 w-20" />
            <span className="text-xs tabular-nums">{batchPercent(batch)}%</span>
          </div>
          <span className="text-muted-foreground text-xs">{countsLine(batch.counts)}</span>
        </div>
      ),
    },
    {
      id: 'started',
      header: 'Started',
      className: 'hidden md:table-cell',
      cellClassName: 'text-muted-foreground',
      cell: (batch) => (
        <>
          {formatDate(batch.created_at)}
          {batch.created_by ? ` by ${batch.created_by.display_name}` : ''}
        </>
      ),
    },
  ];

  return (
    <PageContainer>
      <PageHeader
        title="Batches"
        description="Protocols run on many videos at once: each video’s run, the results table and the group statistics."
        actions={
          permissions.canProcess ? (
            <Button asChild>
              <Link to={`/projects/${projectUuid}/batches/new`}>
                <Plus aria-hidden="true" />
                Run a protocol on many videos
              </Link>
            </Button>
          ) : null
        }
      />
      <Card className="gap-0 overflow-hidden py-0">
        <DataTable
          label="Batches"
          rows={batches}
          rowKey={batchKey}
          rowName={(batch) => `${batch.protocol_name} v${batch.protocol_version}`}
          columns={columns}
          table={table}
          selectable={false}
          selectAllLabel="Select every batch"
          rowTestId="batch-row"
          rowMenu={(batch) => (
            <DropdownMenuItem asChild>
              <Link to={batchPath(projectUuid, batch.batch_uuid)}>
                <FolderOpen aria-hidden="true" />
                Open
              </Link>
            </DropdownMenuItem>
          )}
          inset="card"
          headerClassName="bg-muted/40"
          busy={isFetching}
          status={{
            loading: isLoading,
            error: isError ? 'The batches could not be loaded.' : null,
            empty: (
              <div className="flex flex-col items-center gap-2 text-center">
                <Layers className="size-8 text-muted-foreground" aria-hidden="true" />
                <p className="font-medium">No batches yet</p>
                <p className="text-muted-foreground text-sm">
                  Open a protocol and choose “Run on many videos” to analyse a whole experiment at once.
                </p>
              </div>
            ),
          }}
          pagination={{
            id: 'batches',
            page,
            pageSize,
            total: data?.count ?? 0,
            emptyLabel: 'No batches',
            onPageChange: (next) => update({ page: next > 1 ? String(next) : null }),
            onPageSizeChange: (size) => update({ page_size: String(size), page: null }),
          }}
        />
      </Card>
    </PageContainer>
  );
}
