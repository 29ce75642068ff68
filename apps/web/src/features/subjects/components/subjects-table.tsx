import { useQuery } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, ArrowUpDown, MoreHorizontal, Pencil, Plus, Search, Trash2, Users } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { TablePagination } from '@/components/ui/table-pagination';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { useTrashDays } from '@/features/trash/hooks/use-trash-days';
import { trashNotice } from '@/features/trash/trash-text';
import { formatDate } from '@/lib/format';
import { patchSearchParams } from '@/lib/search-params';
import { type Subject, type SubjectOrderingField, subjectQueries } from '../api';
import { useDeleteSubjects } from '../hooks/use-subject-mutations';
import { SubjectDialog } from './subject-dialog';

const DEFAULT_PAGE_SIZE = 25;

/** Debounces a value so typing in the search box sends one request per pause. */
function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const id = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(id);
  }, [value, ms]);
  return debounced;
}

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

  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<{ open: boolean; subject: Subject | null }>({ open: false, subject: null });
  const [toDelete, setToDelete] = useState<string[] | null>(null);
  const remove = useDeleteSubjects(projectUuid);

  // Forget selections that left the page (deleted, or another page shown).
  useEffect(() => {
    const visible = new Set(subjects.map((s) => s.subject_uuid));
    setSelected((prev) => {
      const next = new Set([...prev].filter((id) => visible.has(id)));
      return next.size === prev.size ? prev : next;
    });
  }, [subjects]);

  const allSelected = subjects.length > 0 && subjects.every((s) => selected.has(s.subject_uuid));
  const someSelected = selected.size > 0 && !allSelected;

  const sortBy = (field: SubjectOrderingField) => {
    const next = ordering === field ? `-${field}` : field;
    update({ ordering: next, page: null });
  };

  const confirmDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete, {
      onSuccess: () => {
        setToDelete(null);
        setSelected(new Set());
      },
    });
  };

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
        <div className="relative w-full sm:max-w-xs">
          <Search
            className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            type="search"
            aria-label="Search subjects"
            placeholder="Search name, group or notes…"
            className="pl-8"
            value={searchInput}
            onChange={(e) => setSearchInput(e.target.value)}
          />
        </div>
        {selectable && selected.size > 0 ? (
          <div className="flex items-center gap-2 sm:ml-auto">
            <span className="text-muted-foreground text-sm" aria-live="polite">
              {selected.size} selected
            </span>
            <Button variant="destructive" size="sm" onClick={() => setToDelete([...selected])}>
              <Trash2 aria-hidden="true" />
              Delete selected
            </Button>
          </div>
        ) : null}
      </div>

      <Card className="gap-0 overflow-hidden py-0">
        <Table aria-busy={isFetching} aria-label="Subjects">
          <TableHeader className="bg-muted/40">
            <TableRow className="hover:bg-transparent">
              <TableHead className="w-10 pl-4">
                <Checkbox
                  aria-label="Select all subjects on this page"
                  className={selectable ? undefined : 'invisible'}
                  checked={allSelected ? true : someSelected ? 'indeterminate' : false}
                  onCheckedChange={(value) =>
                    setSelected(value === true ? new Set(subjects.map((s) => s.subject_uuid)) : new Set())
                  }
                  disabled={subjects.length === 0 || !selectable}
                />
              </TableHead>
              <SortableHead field="name" label="Name" ordering={ordering} onSort={sortBy} />
              <SortableHead field="group" label="Group" ordering={ordering} onSort={sortBy} />
              <SortableHead
                field="video_count"
                label="Videos"
                ordering={ordering}
                onSort={sortBy}
                className="text-right"
              />
              <SortableHead
                field="created_at"
                label="Created"
                ordering={ordering}
                onSort={sortBy}
                className="hidden md:table-cell"
              />
              <TableHead className="w-12 pr-4">
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {isLoading ? (
              Array.from({ length: 4 }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder rows.
                <TableRow key={i}>
                  <TableCell colSpan={6} className="px-4">
                    <Skeleton className="h-6" />
                  </TableCell>
                </TableRow>
              ))
            ) : isError ? (
              <TableRow>
                <TableCell colSpan={6} className="py-10 text-center text-muted-foreground">
                  The subjects could not be loaded.
                </TableCell>
              </TableRow>
            ) : subjects.length === 0 ? (
              <TableRow className="hover:bg-transparent">
                <TableCell colSpan={6} className="py-12">
                  <div className="flex flex-col items-center gap-2 text-center">
                    <Users className="size-8 text-muted-foreground" aria-hidden="true" />
                    <p className="font-medium">{search ? 'No subjects match your search' : 'No subjects yet'}</p>
                    <p className="text-muted-foreground text-sm">
                      {search
                        ? 'Try another name or group.'
                        : 'Add the first animal of this study to upload its videos.'}
                    </p>
                    {!search && !readOnly ? (
                      <Button size="sm" className="mt-2" onClick={() => setDialog({ open: true, subject: null })}>
                        <Plus aria-hidden="true" />
                        New subject
                      </Button>
                    ) : null}
                  </div>
                </TableCell>
              </TableRow>
            ) : (
              subjects.map((subject) => (
                <TableRow
                  key={subject.subject_uuid}
                  data-state={selected.has(subject.subject_uuid) ? 'selected' : undefined}
                >
                  <TableCell className="pl-4">
                    <Checkbox
                      aria-label={`Select ${subject.name}`}
                      disabled={!selectable}
                      className={selectable ? undefined : 'invisible'}
                      checked={selected.has(subject.subject_uuid)}
                      onCheckedChange={(value) =>
                        setSelected((prev) => {
                          const next = new Set(prev);
                          if (value === true) next.add(subject.subject_uuid);
                          else next.delete(subject.subject_uuid);
                          return next;
                        })
                      }
                    />
                  </TableCell>
                  <TableCell className="max-w-64 truncate font-medium">
                    <Link to={`/projects/${projectUuid}/subjects/${subject.subject_uuid}`} className="hover:underline">
                      {subject.name}
                    </Link>
                  </TableCell>
                  <TableCell>
                    {subject.group ? (
                      <Badge variant="secondary">{subject.group}</Badge>
                    ) : (
                      <span className="text-muted-foreground">—</span>
                    )}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{subject.video_count}</TableCell>
                  <TableCell className="hidden text-muted-foreground md:table-cell">
                    {formatDate(subject.created_at)}
                  </TableCell>
                  <TableCell className="pr-4">
                    <DropdownMenu>
                      <DropdownMenuTrigger asChild>
                        <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${subject.name}`}>
                          <MoreHorizontal aria-hidden="true" />
                        </Button>
                      </DropdownMenuTrigger>
                      <DropdownMenuContent align="end">
                        <DropdownMenuItem asChild>
                          <Link to={`/projects/${projectUuid}/subjects/${subject.subject_uuid}`}>
                            <Users aria-hidden="true" />
                            Open
                          </Link>
                        </DropdownMenuItem>
                        {!readOnly ? (
                          <>
                            <DropdownMenuItem onSelect={() => setDialog({ open: true, subject })}>
                              <Pencil aria-hidden="true" />
                              Edit
                            </DropdownMenuItem>
                            <DropdownMenuSeparator />
                            <DropdownMenuItem
                              variant="destructive"
                              onSelect={() => setToDelete([subject.subject_uuid])}
                            >
                              <Trash2 aria-hidden="true" />
                              Delete
                            </DropdownMenuItem>
                          </>
                        ) : null}
                      </DropdownMenuContent>
                    </DropdownMenu>
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
        <TablePagination
          id="subjects"
          page={page}
          pageSize={pageSize}
          total={total}
          emptyLabel="No subjects"
          onPageChange={(next) => update({ page: String(next) })}
          onPageSizeChange={(size) => update({ page_size: String(size), page: null })}
        />
      </Card>

      <SubjectDialog
        projectUuid={projectUuid}
        subject={dialog.subject}
        open={dialog.open}
        onOpenChange={(open) => setDialog((d) => ({ ...d, open }))}
      />
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={toDelete && toDelete.length > 1 ? `Delete ${toDelete.length} subjects?` : 'Delete this subject?'}
        description={`${toDelete && toDelete.length > 1 ? 'Their' : 'Its'} videos and analyses go too. ${trashNotice(trashDays, toDelete?.length ?? 1)}`}
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </PageContainer>
  );
}

function SortableHead({
  field,
  label,
  ordering,
  onSort,
  className,
}: {
  field: SubjectOrderingField;
  label: string;
  ordering: string;
  onSort: (field: SubjectOrderingField) => void;
  className?: string;
}) {
  const active = ordering === field ? 'ascending' : ordering === `-${field}` ? 'descending' : 'none';
  const Icon = active === 'ascending' ? ArrowUp : active === 'descending' ? ArrowDown : ArrowUpDown;
  return (
    <TableHead className={className} aria-sort={active}>
      <Button
        variant="ghost"
        size="sm"
        className="-ml-3 h-8 data-[active=true]:text-foreground"
        data-active={active !== 'none'}
        onClick={() => onSort(field)}
      >
        {label}
        <Icon className="size-3.5" aria-hidden="true" />
      </Button>
    </TableHead>
  );
}
