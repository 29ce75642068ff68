import { useQuery } from '@tanstack/react-query';
import { Download, ExternalLink, Table2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import { useDataTable } from '@/components/data-table/use-data-table';
import { Button } from '@/components/ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { resultUrl } from '@/features/analysis-logs/run-actions';
import { errorMessage } from '@/lib/errors';
import {
  type ResultCell,
  type Results,
  type ResultsSource,
  resultQueries,
  resultsApi,
  type TableFormat,
  type TableLayout,
} from '../api';
import { formatCell } from '../figures-text';

type Row = ResultCell[];
const RESULTS_PAGE_SIZE = 50;
const DOWNLOADS: { format: TableFormat; layout: TableLayout }[] = [
  { format: 'csv', layout: 'wide' },
  { format: 'csv', layout: 'long' },
  { format: 'xlsx', layout: 'wide' },
  { format: 'xlsx', layout: 'long' },
];

/** Where each identifying column sits in a row (-1 when the table has none). */
function columnIndex(results: Results | undefined, name: string) {
  return results?.columns.findIndex((column) => column.name === name) ?? -1;
}

/**
 * The results table (one row per run, one column per outcome measure; pages from the server, so a 200-run batch
 * is one small request), each measure's meaning on its header, and the downloads: CSV or XLSX, wide or long.
 */
export function ResultsSection({
  projectUuid,
  source,
  version,
  title = 'Results',
}: {
  projectUuid: string;
  source: ResultsSource;
  /** Changes when runs finish, so the table is read again. */
  version: string;
  title?: string;
}) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(RESULTS_PAGE_SIZE);
  const results = useQuery(resultQueries.page(projectUuid, source, page, pageSize, version));
  const data = results.data;
  const rows = data?.results ?? [];
  const runAt = columnIndex(data, 'analysis_uuid');
  const batchAt = columnIndex(data, 'batch_uuid');
  const subjectAt = columnIndex(data, 'subject_uuid');
  const videoAt = columnIndex(data, 'video_uuid');
  const rowKey = useMemo(
    () => (row: Row) => `${batchAt >= 0 ? row[batchAt] : ''}:${runAt >= 0 ? row[runAt] : rows.indexOf(row)}`,
    [batchAt, runAt, rows],
  );
  const table = useDataTable(rows, rowKey);
  const [downloading, setDownloading] = useState<string | null>(null);
  const meanings = new Map((data?.measures ?? []).map((measure) => [measure.name, measure.meaning]));

  const columns: DataTableColumn<Row>[] = (data?.columns ?? [])
    // Ids are for files; the page names subjects and videos.
    .map((column, index) => ({ column, index }))
    .filter(({ column }) => !column.name.endsWith('_uuid'))
    .map(({ column, index }) => ({
      id: column.name,
      header: (
        <span title={meanings.get(column.name)} className="whitespace-nowrap">
          {column.name}
          {column.unit && column.role === 'measure' ? (
            <span className="font-normal text-muted-foreground"> ({column.unit})</span>
          ) : null}
        </span>
      ),
      className: column.role === 'measure' ? 'text-right' : undefined,
      cellClassName: column.role === 'measure' ? 'tabular-nums' : 'max-w-48 truncate',
      cellTestId: `result-${column.name}`,
      cell: (row: Row) => formatCell(row[index] ?? null),
    }));

  const openRun = (row: Row) =>
    data && runAt >= 0 && subjectAt >= 0 && videoAt >= 0
      ? resultUrl({
          project_uuid: projectUuid,
          subject_uuid: String(row[subjectAt]),
          video_uuid: String(row[videoAt]),
          analysis_uuid: String(row[runAt]),
          kind: data.kind,
        })
      : null;

  const download = async (format: TableFormat, layout: TableLayout) => {
    setDownloading(`${format}-${layout}`);
    try {
      await resultsApi.download(projectUuid, source, format, layout);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setDownloading(null);
    }
  };

  return (
    <Card className="gap-0 overflow-hidden py-0" data-testid="results-section">
      <CardHeader className="flex flex-wrap items-start justify-between gap-3 py-4">
        <div className="grid gap-1.5">
          <CardTitle className="flex items-center gap-2">
            <Table2 className="size-4" aria-hidden="true" />
            {title}
          </CardTitle>
          <CardDescription>
            One row per succeeded run, one column per outcome measure (hover a header for its meaning). Reviewed event
            counts are filled only for runs whose events were all reviewed; the “reviewed” column says which.
          </CardDescription>
        </div>
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">Download the results</legend>
          {DOWNLOADS.map(({ format, layout }) => (
            <Button
              key={`${format}-${layout}`}
              variant="outline"
              size="sm"
              disabled={downloading !== null || !data?.count}
              onClick={() => void download(format, layout)}
            >
              <Download aria-hidden="true" />
              {format.toUpperCase()} {layout}
            </Button>
          ))}
        </fieldset>
      </CardHeader>
      <div className="overflow-x-auto">
        <DataTable
          label={title}
          rows={rows}
          rowKey={rowKey}
          rowName={(row) => rowName(data, row)}
          columns={columns}
          table={table}
          selectable={false}
          selectAllLabel="Select every row"
          rowTestId="result-row"
          rowMenu={(row) => {
            const href = openRun(row);
            return href ? (
              <DropdownMenuItem asChild>
                <Link to={href}>
                  <ExternalLink aria-hidden="true" />
                  Open the run
                </Link>
              </DropdownMenuItem>
            ) : null;
          }}
          inset="card"
          headerClassName="bg-muted/40"
          busy={results.isFetching}
          status={{
            loading: results.isLoading,
            error: results.isError ? `The results could not be loaded: ${errorMessage(results.error)}` : null,
            empty: (
              <p className="text-center text-muted-foreground text-sm">
                No run has succeeded yet: rows appear as runs finish.
              </p>
            ),
          }}
          pagination={{
            id: 'results',
            page,
            pageSize,
            total: data?.count ?? 0,
            emptyLabel: 'No rows',
            onPageChange: setPage,
            onPageSizeChange: (size) => {
              setPageSize(size);
              setPage(1);
            },
          }}
        />
      </div>
    </Card>
  );
}

function rowName(results: Results | undefined, row: Row): string {
  const subject = columnIndex(results, 'subject');
  const video = columnIndex(results, 'video');
  return [subject >= 0 ? row[subject] : null, video >= 0 ? row[video] : null].filter(Boolean).join(' / ') || 'run';
}
