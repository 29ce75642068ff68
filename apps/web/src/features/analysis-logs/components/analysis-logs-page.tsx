import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Activity, ClipboardList, Download, FilterX, Loader2, Users } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { NativeSelect } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { TablePagination } from '@/components/ui/table-pagination';
import { type AnalysisRun, analysisQueries } from '@/features/analysis/api';
import { KIND_LABELS, STATUS_LABELS } from '@/features/analysis/labels';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { subjectQueries } from '@/features/subjects/api';
import { useTrashDays } from '@/features/trash/hooks/use-trash-days';
import { trashNotice } from '@/features/trash/trash-text';
import { patchSearchParams } from '@/lib/search-params';
import { useDeleteRun, useDownloadSummary, useRevokeRun, useStartRun } from '../hooks/use-run-mutations';
import { FILTER_KEYS, hasNarrowingFilters, readLogFilters, toRunFilters } from '../log-filters';
import { sameParametersBody } from '../run-actions';
import { ANALYSIS_KINDS, ANALYSIS_STATUSES, runLabel } from '../run-display';
import { EventRerunDialog } from './event-rerun-dialog';
import { RUN_COLUMNS, RunRow } from './run-row';

/** The subject filter lists at most this many subjects (the list API's largest page). */
const SUBJECT_OPTIONS_LIMIT = 500;

export function AnalysisLogsPage({ projectUuid }: { projectUuid: string }) {
  const [params, setParams] = useSearchParams();
  // Viewers and locked projects read only.
  const readOnly = !useProjectPermissions().canEditContent;
  const filters = readLogFilters(params);
  const narrowed = hasNarrowingFilters(filters);

  const update = (patch: Record<string, string | null>) =>
    setParams((prev) => patchSearchParams(prev, patch), { replace: true });
  // A new filter starts again from the first page.
  const setFilter = (key: (typeof FILTER_KEYS)[number], value: string) => update({ [key]: value, page: null });
  const clearFilters = () => update({ ...Object.fromEntries(FILTER_KEYS.map((key) => [key, null])), page: null });

  const subjects = useQuery(subjectQueries.list(projectUuid, { page_size: SUBJECT_OPTIONS_LIMIT, ordering: 'name' }));
  const runs = useQuery({
    ...analysisQueries.list(projectUuid, toRunFilters(filters)),
    placeholderData: keepPreviousData,
    // Runs start elsewhere (Movement Detector, other members): the log is fetched afresh on every visit.
    refetchOnMount: 'always',
  });
  const results = runs.data?.results ?? [];
  const total = runs.data?.count ?? 0;
  const noSubjects = subjects.data?.count === 0;

  const [toRevoke, setToRevoke] = useState<AnalysisRun | null>(null);
  const [editing, setEditing] = useState<AnalysisRun | null>(null);
  const [toDelete, setToDelete] = useState<AnalysisRun | null>(null);
  const revoke = useRevokeRun();
  const remove = useDeleteRun(projectUuid);
  const trashDays = useTrashDays();
  const start = useStartRun(projectUuid);
  const download = useDownloadSummary(projectUuid);

  const rerun = (run: AnalysisRun) => {
    const body = sameParametersBody(run);
    if (body) start.mutate({ run, body });
  };

  const exportButton = (format: 'csv' | 'xlsx') => {
    const busy = download.isPending && download.variables === format;
    return (
      <Button
        variant="outline"
        size="sm"
        disabled={download.isPending}
        onClick={() => download.mutate(format)}
        aria-label={`Export the project summary as ${format.toUpperCase()}`}
      >
        {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />}
        {format.toUpperCase()}
      </Button>
    );
  };

  return (
    <PageContainer>
      <PageHeader
        title="Analysis Logs"
        description="Every analysis run of this project: its parameters, status and results."
        actions={
          <div className="flex items-center gap-2">
            <span className="text-muted-foreground text-sm">Project summary</span>
            {exportButton('csv')}
            {exportButton('xlsx')}
          </div>
        }
      />

      <div className="mb-4 flex flex-wrap items-end gap-3">
        <FilterSelect
          id="logs-kind"
          label="Kind"
          value={filters.kind ?? ''}
          onChange={(value) => setFilter('kind', value)}
        >
          <option value="">All kinds</option>
          {ANALYSIS_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {KIND_LABELS[kind]}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect
          id="logs-status"
          label="Status"
          value={filters.status ?? ''}
          onChange={(value) => setFilter('status', value)}
        >
          <option value="">All statuses</option>
          {ANALYSIS_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect
          id="logs-subject"
          label="Subject"
          value={filters.subject ?? ''}
          onChange={(value) => setFilter('subject', value)}
        >
          <option value="">All subjects</option>
          {(subjects.data?.results ?? []).map((subject) => (
            <option key={subject.subject_uuid} value={subject.subject_uuid}>
              {subject.name}
            </option>
          ))}
          {/* A subject from a link that is not among the listed ones still shows as chosen. */}
          {filters.subject &&
          subjects.data &&
          !subjects.data.results.some((s) => s.subject_uuid === filters.subject) ? (
            <option value={filters.subject}>
              {results.find((r) => r.subject_uuid === filters.subject)?.subject_name ?? 'Chosen subject'}
            </option>
          ) : null}
        </FilterSelect>
        {filters.video ? (
          <p className="flex h-9 items-center text-muted-foreground text-sm">
            One video: {results[0]?.video_name ?? 'chosen in the link'}
          </p>
        ) : null}
        {narrowed ? (
          <Button variant="ghost" size="sm" className="h-9" onClick={clearFilters}>
            <FilterX aria-hidden="true" />
            Clear filters
          </Button>
        ) : null}
      </div>

      <Card className="gap-0 overflow-hidden py-0">
        <Table aria-busy={runs.isFetching} aria-label="Analysis runs">
          <TableHeader className="bg-muted/40">
            <TableRow className="hover:bg-transparent">
              <TableHead className="w-10 pl-2 sm:pl-4">
                <span className="sr-only">Details</span>
              </TableHead>
              <TableHead>Kind</TableHead>
              <TableHead className="hidden md:table-cell">Subject</TableHead>
              <TableHead className="hidden md:table-cell">Video</TableHead>
              <TableHead>Status</TableHead>
              <TableHead className="hidden lg:table-cell">Run by</TableHead>
              <TableHead className="hidden text-right xl:table-cell">Duration</TableHead>
              <TableHead className="hidden text-right sm:table-cell">Events</TableHead>
              <TableHead className="pr-2 sm:pr-4">
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {runs.isLoading ? (
              Array.from({ length: 4 }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder rows.
                <TableRow key={i}>
                  <TableCell colSpan={RUN_COLUMNS} className="px-4">
                    <Skeleton className="h-6" />
                  </TableCell>
                </TableRow>
              ))
            ) : runs.isError ? (
              <TableRow>
                <TableCell colSpan={RUN_COLUMNS} className="py-10 text-center text-muted-foreground">
                  The analysis runs could not be loaded.
                </TableCell>
              </TableRow>
            ) : results.length === 0 ? (
              <TableRow className="hover:bg-transparent">
                <TableCell colSpan={RUN_COLUMNS} className="py-12">
                  {narrowed ? (
                    <EmptyState
                      icon={<FilterX className="size-8 text-muted-foreground" aria-hidden="true" />}
                      title="No runs match these filters"
                      text="Widen the filters to see more runs."
                      action={
                        <Button size="sm" variant="outline" onClick={clearFilters}>
                          Clear filters
                        </Button>
                      }
                    />
                  ) : noSubjects ? (
                    <EmptyState
                      icon={<Users className="size-8 text-muted-foreground" aria-hidden="true" />}
                      title="No subjects yet"
                      text="Add a subject and upload its videos; their analyses are listed here."
                      action={
                        <Button size="sm" asChild>
                          <Link to={`/projects/${projectUuid}/subjects`}>Go to Subjects</Link>
                        </Button>
                      }
                    />
                  ) : (
                    <EmptyState
                      icon={<ClipboardList className="size-8 text-muted-foreground" aria-hidden="true" />}
                      title="No analysis runs yet"
                      text="Detect movement in a video; every run is recorded here with its parameters."
                      action={
                        <Button size="sm" asChild>
                          <Link to={`/projects/${projectUuid}/movement-detector`}>
                            <Activity aria-hidden="true" />
                            Open the Movement Detector
                          </Link>
                        </Button>
                      }
                    />
                  )}
                </TableCell>
              </TableRow>
            ) : (
              results.map((run) => (
                <RunRow
                  key={run.analysis_uuid}
                  run={run}
                  projectUuid={projectUuid}
                  readOnly={readOnly}
                  actions={{ onRevoke: setToRevoke, onRerun: rerun, onEditEvents: setEditing, onDelete: setToDelete }}
                />
              ))
            )}
          </TableBody>
        </Table>
        <TablePagination
          id="logs"
          page={filters.page}
          pageSize={filters.pageSize}
          total={total}
          emptyLabel="No runs"
          onPageChange={(next) => update({ page: next > 1 ? String(next) : null })}
          onPageSizeChange={(size) => update({ page_size: String(size), page: null })}
        />
      </Card>

      <ConfirmDialog
        open={toRevoke !== null}
        onOpenChange={(open) => !open && setToRevoke(null)}
        title="Revoke this run?"
        description={toRevoke ? `${runLabel(toRevoke)} stops now and gives no results. You can re-run it later.` : ''}
        confirmLabel="Revoke run"
        pending={revoke.isPending}
        onConfirm={() => {
          if (toRevoke) revoke.mutate(toRevoke, { onSettled: () => setToRevoke(null) });
        }}
      />
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title="Delete this run?"
        description={toDelete ? `${runLabel(toDelete)} and its events go. ${trashNotice(trashDays)}` : ''}
        confirmLabel="Delete run"
        pending={remove.isPending}
        onConfirm={() => {
          if (toDelete) remove.mutate(toDelete, { onSuccess: () => setToDelete(null) });
        }}
      />
      <EventRerunDialog projectUuid={projectUuid} run={editing} onOpenChange={(open) => !open && setEditing(null)} />
    </PageContainer>
  );
}

function FilterSelect({
  id,
  label,
  value,
  onChange,
  children,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="font-medium text-muted-foreground text-xs">
        {label}
      </label>
      <NativeSelect id={id} className="min-w-40" value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </NativeSelect>
    </div>
  );
}

function EmptyState({
  icon,
  title,
  text,
  action,
}: {
  icon: ReactNode;
  title: string;
  text: string;
  action: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-2 text-center">
      {icon}
      <p className="font-medium">{title}</p>
      <p className="text-muted-foreground text-sm">{text}</p>
      <div className="mt-2">{action}</div>
    </div>
  );
}
