import { useQuery } from '@tanstack/react-query';
import { BookMarked, FolderOpen, Layers, Plus } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DeleteRowsDialog } from '@/components/data-table/bulk-delete';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import { SearchInput } from '@/components/data-table/search-input';
import { useDataTable } from '@/components/data-table/use-data-table';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { NativeSelect } from '@/components/ui/select';
import { KIND_LABELS } from '@/features/analysis/labels';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { formatDate } from '@/lib/format';
import { patchSearchParams } from '@/lib/search-params';
import { useDebounced } from '@/lib/use-debounced';
import {
  PROTOCOL_KINDS,
  PROTOCOL_PAGE_SIZE,
  type ProtocolKind,
  type ProtocolSummary,
  protocolPath,
  protocolQueries,
} from '../api';
import { useDeleteProtocol } from '../hooks/use-protocol-mutations';
import { deleteProtocolWarning, newBatchPath } from '../text';

const protocolKey = (protocol: ProtocolSummary) => protocol.protocol_uuid;
const ORDERINGS = ['name', 'updated_at', 'created_at'] as const;

/** The project's protocols: name, kind, current version, who changed it last and when; members create and delete. */
export function ProtocolsPage({ projectUuid }: { projectUuid: string }) {
  const [params, setParams] = useSearchParams();
  const permissions = useProjectPermissions();
  const canWrite = permissions.canEditContent;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const pageSize = Number(params.get('page_size')) || PROTOCOL_PAGE_SIZE;
  const ordering = params.get('ordering') ?? 'name';
  const kindParam = params.get('kind');
  const kind = PROTOCOL_KINDS.find((item) => item === kindParam);
  const [searchInput, setSearchInput] = useState(params.get('search') ?? '');
  const search = useDebounced(searchInput.trim(), 300);
  const update = (patch: Record<string, string | null>) =>
    setParams((prev) => patchSearchParams(prev, patch), { replace: true });

  // biome-ignore lint/correctness/useExhaustiveDependencies: only the debounced text drives the URL.
  useEffect(() => {
    if ((params.get('search') ?? '') !== search) update({ search: search || null, page: null });
  }, [search]);

  const listParams = useMemo(
    () => ({ page, page_size: pageSize, ordering, ...(search ? { search } : {}), ...(kind ? { kind } : {}) }),
    [page, pageSize, ordering, search, kind],
  );
  const { data, isLoading, isFetching, isError } = useQuery(protocolQueries.list(projectUuid, listParams));
  const protocols = data?.results ?? [];
  const table = useDataTable(protocols, protocolKey);
  const remove = useDeleteProtocol(projectUuid);
  const toDelete = protocols.find((protocol) => protocol.protocol_uuid === table.toDelete?.[0]);

  const sort = (field: (typeof ORDERINGS)[number]): DataTableColumn<ProtocolSummary>['sort'] => ({
    direction: ordering === field ? 'ascending' : ordering === `-${field}` ? 'descending' : 'none',
    onSort: () => update({ ordering: ordering === field ? `-${field}` : field, page: null }),
  });
  const columns: DataTableColumn<ProtocolSummary>[] = [
    {
      id: 'name',
      header: 'Name',
      sort: sort('name'),
      cellClassName: 'max-w-72 truncate font-medium',
      cellTestId: 'protocol-name',
      cell: (protocol) => (
        <Link to={protocolPath(projectUuid, protocol.protocol_uuid)} className="hover:underline">
          {protocol.name}
        </Link>
      ),
    },
    {
      id: 'kind',
      header: 'Kind',
      cell: (protocol) => <Badge variant="secondary">{KIND_LABELS[protocol.kind]}</Badge>,
    },
    {
      id: 'version',
      header: 'Version',
      className: 'text-right',
      cellClassName: 'tabular-nums',
      cellTestId: 'protocol-version',
      cell: (protocol) => `v${protocol.current_version}`,
    },
    {
      id: 'updated',
      header: 'Updated',
      sort: sort('updated_at'),
      className: 'hidden md:table-cell',
      cellClassName: 'text-muted-foreground',
      cell: (protocol) => (
        <>
          {formatDate(protocol.version_created_at)}
          {protocol.version_created_by ? ` by ${protocol.version_created_by.display_name}` : ''}
        </>
      ),
    },
  ];

  return (
    <PageContainer>
      <PageHeader
        title="Protocols"
        description="Named analysis settings: run them on many videos at once, and every run records the version it used."
        actions={
          canWrite ? (
            <Button asChild>
              <Link to={`/projects/${projectUuid}/protocols/new`}>
                <Plus aria-hidden="true" />
                New protocol
              </Link>
            </Button>
          ) : null
        }
      />
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center">
        <SearchInput
          label="Search protocols"
          placeholder="Search by name…"
          value={searchInput}
          onChange={setSearchInput}
        />
        <NativeSelect
          aria-label="Kind"
          className="sm:w-56"
          value={kind ?? ''}
          onChange={(event) => update({ kind: event.target.value || null, page: null })}
        >
          <option value="">Every kind</option>
          {PROTOCOL_KINDS.map((item) => (
            <option key={item} value={item}>
              {KIND_LABELS[item as ProtocolKind]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <Card className="gap-0 overflow-hidden py-0">
        <DataTable
          label="Protocols"
          rows={protocols}
          rowKey={protocolKey}
          rowName={(protocol) => protocol.name}
          columns={columns}
          table={table}
          selectable={false}
          selectAllLabel="Select all protocols on this page"
          rowTestId="protocol-row"
          rowMenu={(protocol) => (
            <>
              <DropdownMenuItem asChild>
                <Link to={protocolPath(projectUuid, protocol.protocol_uuid)}>
                  <FolderOpen aria-hidden="true" />
                  Open
                </Link>
              </DropdownMenuItem>
              {permissions.canProcess ? (
                <DropdownMenuItem asChild>
                  <Link to={newBatchPath(projectUuid, protocol.protocol_uuid)}>
                    <Layers aria-hidden="true" />
                    Run on many videos
                  </Link>
                </DropdownMenuItem>
              ) : null}
            </>
          )}
          onDelete={canWrite}
          inset="card"
          headerClassName="bg-muted/40"
          busy={isFetching}
          status={{
            loading: isLoading,
            error: isError ? 'The protocols could not be loaded.' : null,
            empty: (
              <div className="flex flex-col items-center gap-2 text-center">
                <BookMarked className="size-8 text-muted-foreground" aria-hidden="true" />
                <p className="font-medium">{search || kind ? 'No protocols match' : 'No protocols yet'}</p>
                <p className="text-muted-foreground text-sm">
                  {search || kind
                    ? 'Try another name or kind.'
                    : 'Save a run’s settings with “Save as protocol” in the Movement Detector, the Location Tracker or Analysis Logs, or make one here.'}
                </p>
              </div>
            ),
          }}
          pagination={{
            id: 'protocols',
            page,
            pageSize,
            total: data?.count ?? 0,
            emptyLabel: 'No protocols',
            onPageChange: (next) => update({ page: next > 1 ? String(next) : null }),
            onPageSizeChange: (size) => update({ page_size: String(size), page: null }),
          }}
        />
      </Card>
      <DeleteRowsDialog
        table={table}
        noun={{ one: 'protocol', many: 'protocols' }}
        consequence={() => deleteProtocolWarning(toDelete?.name ?? 'this protocol')}
        pending={remove.isPending}
        onConfirm={(keys) => {
          const protocol = protocols.find((item) => item.protocol_uuid === keys[0]);
          if (protocol) remove.mutate(protocol, { onSuccess: table.deleted });
        }}
      />
    </PageContainer>
  );
}
