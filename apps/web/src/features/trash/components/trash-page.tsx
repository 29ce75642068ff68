import { useQuery } from '@tanstack/react-query';
import { Loader2, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { TablePagination } from '@/components/ui/table-pagination';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { formatDate } from '@/lib/format';
import { patchSearchParams } from '@/lib/search-params';
import { TRASH_PAGE_SIZE, type TrashItem, trashQueries } from '../api';
import { useTrashDays } from '../hooks/use-trash-days';
import { useEmptyTrash, useRestoreTrashItem } from '../hooks/use-trash-mutations';
import { containsSummary, emptyTrashWarning, KIND_LABELS } from '../trash-text';

const COLUMNS = 6;

/** A project's trash: what was deleted, by whom, when it goes for good; restore one, or empty it (admins). */
export function TrashPage({ projectUuid }: { projectUuid: string }) {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const pageSize = Number(params.get('page_size')) || TRASH_PAGE_SIZE;
  const update = (patch: Record<string, string | null>) =>
    setParams((prev) => patchSearchParams(prev, patch), { replace: true });

  const { data, isLoading, isFetching, isError } = useQuery(
    trashQueries.list(projectUuid, { page, page_size: pageSize }),
  );
  const items = data?.results ?? [];
  const total = data?.count ?? 0;
  const days = useTrashDays();
  const permissions = useProjectPermissions();
  const restore = useRestoreTrashItem(projectUuid);
  const empty = useEmptyTrash(projectUuid);
  const [confirmEmpty, setConfirmEmpty] = useState(false);
  const restoring = restore.isPending ? restore.variables?.item_uuid : null;

  return (
    <PageContainer>
      <PageHeader
        title="Trash"
        description={`Deleted subjects, videos, runs and tracks stay here for ${days} days, then they are purged for good.`}
        actions={
          permissions.canEmptyTrash && total > 0 ? (
            <Button variant="destructive" onClick={() => setConfirmEmpty(true)}>
              <Trash2 aria-hidden="true" />
              Empty trash
            </Button>
          ) : null
        }
      />
      <Card className="gap-0 overflow-hidden py-0">
        <Table aria-busy={isFetching} aria-label="Trash">
          <TableHeader className="bg-muted/40">
            <TableRow className="hover:bg-transparent">
              <TableHead className="hidden pl-4 sm:table-cell">Kind</TableHead>
              <TableHead className="pl-4 sm:pl-2">Name</TableHead>
              <TableHead className="hidden lg:table-cell">Deleted by</TableHead>
              <TableHead className="hidden md:table-cell">Deleted</TableHead>
              <TableHead className="hidden sm:table-cell">Purged on</TableHead>
              <TableHead className="w-px pr-4">
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {isLoading ? (
              Array.from({ length: 3 }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder rows.
                <TableRow key={i}>
                  <TableCell colSpan={COLUMNS} className="px-4">
                    <Skeleton className="h-6" />
                  </TableCell>
                </TableRow>
              ))
            ) : isError ? (
              <TableRow>
                <TableCell colSpan={COLUMNS} className="py-10 text-center text-muted-foreground">
                  The trash could not be loaded.
                </TableCell>
              </TableRow>
            ) : items.length === 0 ? (
              <TableRow className="hover:bg-transparent">
                <TableCell colSpan={COLUMNS} className="py-12">
                  <div className="flex flex-col items-center gap-2 text-center">
                    <Trash2 className="size-8 text-muted-foreground" aria-hidden="true" />
                    <p className="font-medium">The trash is empty</p>
                    <p className="text-muted-foreground text-sm">
                      What members delete in this project waits here for {days} days before it is gone.
                    </p>
                  </div>
                </TableCell>
              </TableRow>
            ) : (
              items.map((item) => (
                <TrashRow
                  key={item.item_uuid}
                  item={item}
                  canRestore={permissions.canRestoreTrash}
                  restoring={restoring === item.item_uuid}
                  onRestore={() => restore.mutate(item)}
                />
              ))
            )}
          </TableBody>
        </Table>
        <TablePagination
          id="trash"
          page={page}
          pageSize={pageSize}
          total={total}
          emptyLabel="Nothing in the trash"
          onPageChange={(next) => update({ page: next > 1 ? String(next) : null })}
          onPageSizeChange={(size) => update({ page_size: String(size), page: null })}
        />
      </Card>
      <ConfirmDialog
        open={confirmEmpty}
        onOpenChange={setConfirmEmpty}
        title="Empty the trash?"
        description={emptyTrashWarning(total)}
        confirmLabel="Empty trash"
        pending={empty.isPending}
        onConfirm={() => empty.mutate(undefined, { onSuccess: () => setConfirmEmpty(false) })}
      />
    </PageContainer>
  );
}

function TrashRow({
  item,
  canRestore,
  restoring,
  onRestore,
}: {
  item: TrashItem;
  canRestore: boolean;
  restoring: boolean;
  onRestore: () => void;
}) {
  const kind = KIND_LABELS[item.kind] ?? item.kind;
  const withIt = containsSummary(item);
  return (
    <TableRow data-testid="trash-row" data-item={item.item_uuid}>
      <TableCell className="hidden pl-4 sm:table-cell">
        <Badge variant="secondary">{kind}</Badge>
      </TableCell>
      <TableCell className="min-w-0 whitespace-normal pl-4 sm:max-w-72 sm:pl-2">
        <p className="break-words font-medium sm:truncate" data-testid="trash-name">
          {item.name}
        </p>
        {withIt ? (
          <p className="text-muted-foreground text-xs sm:truncate" data-testid="trash-contains">
            With {withIt}
          </p>
        ) : null}
        {/* Phones: the columns left out, in one line. */}
        <p className="text-muted-foreground text-xs sm:hidden">
          {kind} · purged on {formatDate(item.purge_at)}
        </p>
      </TableCell>
      <TableCell className="hidden text-muted-foreground lg:table-cell" data-testid="trash-by">
        {item.deleted_by?.display_name || '—'}
      </TableCell>
      <TableCell className="hidden text-muted-foreground md:table-cell" data-testid="trash-deleted">
        {formatDate(item.deleted_at)}
      </TableCell>
      <TableCell className="hidden text-muted-foreground sm:table-cell" data-testid="trash-purge">
        {formatDate(item.purge_at)}
      </TableCell>
      <TableCell className="pr-4 text-right">
        {canRestore ? (
          <Button
            variant="outline"
            size="sm"
            onClick={onRestore}
            disabled={restoring}
            aria-label={`Restore ${item.name}`}
          >
            {restoring ? <Loader2 className="animate-spin" aria-hidden="true" /> : <RotateCcw aria-hidden="true" />}
            Restore
          </Button>
        ) : null}
      </TableCell>
    </TableRow>
  );
}
