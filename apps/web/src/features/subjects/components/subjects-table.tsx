import { useQuery } from '@tanstack/react-query';
import { Pencil, Plus, Users } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { BulkDeleteBar, DeleteRowsDialog } from '@/components/data-table/bulk-delete';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import { SearchInput } from '@/components/data-table/search-input';
import { useDataTable } from '@/components/data-table/use-data-table';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { useTrashDays } from '@/features/trash/hooks/use-trash-days';
import { trashNotice } from '@/features/trash/trash-text';
import { formatDate } from '@/lib/format';
import { patchSearchParams } from '@/lib/search-params';
import { useDebounced } from '@/lib/use-debounced';
import { type Subject, type SubjectOrderingField, subjectQueries } from '../api';
import { useDeleteSubjects } from '../hooks/use-subject-mutations';
import { SubjectDialog } from './subject-dialog';

const DEFAULT_PAGE_SIZE = 25;
const subjectKey = (subject: Subject) => subject.subject_uuid;

export function SubjectsTable({ projectUuid }: { projectUuid: string }) {
  const [params, setParams] = useSearchParams();
  // Viewers and locked projects read only; selecting (for a bulk delete) is for owners and admins.
  const permissions = useProjectPermissions();
  const readOnly = !permissions.canEditContent;
  const selectable = permissions.canBulkDelete;
  const trashDays = useTrashDays();
  const ordering = params.get('ordering') ?? 'name';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const pageSize = Number(params.get('page_size')) || DEFAULT_PAGE_SIZE;
  const [searchInput, setSearchInput] = useState(params.get('search') ?? '');
  const search = useDebounced(searchInput.trim(), 300);

  const update = (patch: Record<string, string | null>) =>
    setParams((prev) => patchSearchParams(prev, patch), { replace: true });

  // biome-ignore lint/correctness/useExhaustiveDependencies: only the debounced text drives the URL.
  useEffect(() => {
    if ((params.get('search') ?? '') !== search) update({ search, page: null });
  }, [search]);

  const listParams = useMemo(
    () => ({ page, page_size: pageSize, ordering, ...(search ? { search } : {}) }),
    [page, pageSize, ordering, search],
  );
  const { data, isLoading, isFetching, isError } = useQuery(subjectQueries.list(projectUuid, listParams));
  const subjects = data?.results ?? [];
  const total = data?.count ?? 0;

  const table = useDataTable(subjects, subjectKey);
  const [dialog, setDialog] = useState<{ open: boolean; subject: Subject | null }>({ open: false, subject: null });
  const remove = useDeleteSubjects(projectUuid);

  const sort = (field: SubjectOrderingField): DataTableColumn<Subject>['sort'] => ({
    direction: ordering === field ? 'ascending' : ordering === `-${field}` ? 'descending' : 'none',
    onSort: () => update({ ordering: ordering === field ? `-${field}` : field, page: null }),
  });
  const columns: DataTableColumn<Subject>[] = [
    {
      id: 'name',
      header: 'Name',
      sort: sort('name'),
      cellClassName: 'max-w-64 truncate font-medium',
      cell: (subject) => (
        <Link to={`/projects/${projectUuid}/subjects/${subject.subject_uuid}`} className="hover:underline">
          {subject.name}
        </Link>
      ),
    },
    {
      id: 'group',
      header: 'Group',
      sort: sort('group'),
      cell: (subject) =>
        subject.group ? (
          <Badge variant="secondary">{subject.group}</Badge>
        ) : (
          <span className="text-muted-foreground">—</span>
        ),
    },
    {
      id: 'video_count',
      header: 'Videos',
      sort: sort('video_count'),
      className: 'text-right',
      cellClassName: 'tabular-nums',
      cell: (subject) => subject.video_count,
    },
    {
      id: 'created_at',
      header: 'Created',
      sort: sort('created_at'),
      className: 'hidden md:table-cell',
      cellClassName: 'text-muted-foreground',
      cell: (subject) => formatDate(subject.created_at),
    },
  ];

  return (
    <PageContainer>
      <PageHeader
        title="Subjects"
        description="The animals or participants of this project, each with its videos."
        actions={
          readOnly ? null : (
            <Button onClick={() => setDialog({ open: true, subject: null })}>
              <Plus aria-hidden="true" />
              New subject
            </Button>
          )
        }
      />

      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center">
        <SearchInput
          label="Search subjects"
          placeholder="Search name, group or notes…"
          value={searchInput}
          onChange={setSearchInput}
        />
        <BulkDeleteBar table={table} enabled={selectable} variant="inline" />
      </div>

      <Card className="gap-0 overflow-hidden py-0">
        <DataTable
          label="Subjects"
          rows={subjects}
          rowKey={subjectKey}
          rowName={(subject) => subject.name}
          columns={columns}
          table={table}
          selectable={selectable}
          selectAllLabel="Select all subjects on this page"
          rowMenu={(subject) => (
            <>
              <DropdownMenuItem asChild>
                <Link to={`/projects/${projectUuid}/subjects/${subject.subject_uuid}`}>
                  <Users aria-hidden="true" />
                  Open
                </Link>
              </DropdownMenuItem>
              {!readOnly ? (
                <DropdownMenuItem onSelect={() => setDialog({ open: true, subject })}>
                  <Pencil aria-hidden="true" />
                  Edit
                </DropdownMenuItem>
              ) : null}
            </>
          )}
          onDelete={!readOnly}
          inset="card"
          headerClassName="bg-muted/40"
          busy={isFetching}
          status={{
            loading: isLoading,
            error: isError ? 'The subjects could not be loaded.' : null,
            empty: (
              <div className="flex flex-col items-center gap-2 text-center">
                <Users className="size-8 text-muted-foreground" aria-hidden="true" />
                <p className="font-medium">{search ? 'No subjects match your search' : 'No subjects yet'}</p>
                <p className="text-muted-foreground text-sm">
                  {search ? 'Try another name or group.' : 'Add the first animal of this study to upload its videos.'}
                </p>
                {!search && !readOnly ? (
                  <Button size="sm" className="mt-2" onClick={() => setDialog({ open: true, subject: null })}>
                    <Plus aria-hidden="true" />
                    New subject
                  </Button>
                ) : null}
              </div>
            ),
          }}
          pagination={{
            id: 'subjects',
            page,
            pageSize,
            total,
            emptyLabel: 'No subjects',
            onPageChange: (next) => update({ page: String(next) }),
            onPageSizeChange: (size) => update({ page_size: String(size), page: null }),
          }}
        />
      </Card>

      <SubjectDialog
        projectUuid={projectUuid}
        subject={dialog.subject}
        open={dialog.open}
        onOpenChange={(open) => setDialog((d) => ({ ...d, open }))}
      />
      <DeleteRowsDialog
        table={table}
        noun={{ one: 'subject', many: 'subjects' }}
        consequence={(count) =>
          `${count > 1 ? 'Their' : 'Its'} videos and analyses go too. ${trashNotice(trashDays, count)}`
        }
        pending={remove.isPending}
        onConfirm={(keys) => remove.mutate([...keys], { onSuccess: table.deleted })}
      />
    </PageContainer>
  );
}
