import { useMutation, useQuery } from '@tanstack/react-query';
import { ListChecks, Loader2, Play, RotateCcw, SlidersHorizontal } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import { useDataTable } from '@/components/data-table/use-data-table';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { KIND_LABELS } from '@/features/analysis/labels';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { protocolPath, protocolQueries } from '@/features/protocols/api';
import { ParameterList } from '@/features/protocols/components/parameter-list';
import type { Subject } from '@/features/subjects/api';
import type { Video } from '@/features/videos/api';
import { countOf } from '@/lib/format';
import { patchSearchParams } from '@/lib/search-params';
import { describeAdjustment, geometryCentre, geometryPoints, isAdjusted, type VideoAdjustment } from '../adjustment';
import { type BatchCheck, batchesApi, batchPath, type CreateBatchBody } from '../api';
import { type BatchErrors, batchErrors } from '../batch-errors';
import { useCreateBatch } from '../hooks/use-batch-mutations';
import { useProjectCatalogue } from '../hooks/use-project-catalogue';
import { matchVideos, type Scope, scopeBody } from '../scope';
import { ScopeChooser } from './scope-chooser';
import { VideoAdjuster } from './video-adjuster';

interface Row {
  video: Video;
  subject: Subject;
}
const rowKey = (row: Row) => row.video.video_uuid;
const NO_ERRORS: BatchErrors = { scope: [], byVideo: {}, other: [] };

/** The server's notices (a bypass range cut at a video's end), by video. */
const noticesOf = (answer: BatchCheck) =>
  Object.fromEntries(answer.runs.filter((run) => run.notices.length > 0).map((run) => [run.video_uuid, run.notices]));

/**
 * "Run on many videos": a protocol (from the URL, or chosen here), the videos it runs on — shown before Start — and
 * per-video adjustments where a camera or an arena moved (the geometry on the video's own frame, a parameter);
 * Start queues one run per video and opens the batch.
 */
export function NewBatchPage({ projectUuid }: { projectUuid: string }) {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const protocolUuid = params.get('protocol');
  const permissions = useProjectPermissions();
  const protocols = useQuery({
    ...protocolQueries.list(projectUuid, { page_size: 100, ordering: 'name' }),
    enabled: protocolUuid === null,
  });
  const protocol = useQuery({
    ...protocolQueries.detail(projectUuid, protocolUuid ?? ''),
    enabled: protocolUuid !== null,
  });
  const catalogue = useProjectCatalogue(projectUuid);
  const [scope, setScope] = useState<Scope>({ kind: 'all' });
  const [adjustments, setAdjustments] = useState<Record<string, VideoAdjustment>>({});
  const [selected, setSelected] = useState<string | null>(null);
  const [errors, setErrors] = useState<BatchErrors>(NO_ERRORS);
  const create = useCreateBatch(projectUuid);
  const check = useMutation({ mutationFn: (body: CreateBatchBody) => batchesApi.check(projectUuid, body) });
  const [checked, setChecked] = useState<{ request: string; runs: number; notices: Record<string, string[]> } | null>(
    null,
  );

  const subjects = catalogue.data?.subjects ?? [];
  const videos = catalogue.data?.videos ?? [];
  const readyRows = useMemo(() => matchVideos({ kind: 'all' }, subjects, videos), [subjects, videos]);
  const table = useDataTable(readyRows, rowKey);
  // Hand-picked: the ticked rows of the table of every ready video.
  const effectiveScope: Scope = scope.kind === 'videos' ? { kind: 'videos', videoUuids: [...table.selected] } : scope;
  const matched = useMemo(
    () =>
      scope.kind === 'videos'
        ? readyRows.filter((row) => table.selected.has(rowKey(row)))
        : matchVideos(scope, subjects, videos),
    [scope, subjects, videos, readyRows, table.selected],
  );
  const inBatch = new Set(matched.map(rowKey));
  const shownRows = scope.kind === 'videos' ? readyRows : matched;
  const selectedRow = shownRows.find((row) => rowKey(row) === selected) ?? null;

  const current = protocol.data;
  const origin = useMemo(
    () =>
      current && selectedRow
        ? geometryCentre(geometryPoints(current.kind, current.parameters), {
            width: selectedRow.video.width || 640,
            height: selectedRow.video.height || 480,
          })
        : ([0, 0] as [number, number]),
    [current, selectedRow],
  );

  if (protocolUuid === null) {
    return (
      <PageContainer className="max-w-3xl">
        <PageHeader title="Run on many videos" description="Choose the protocol to apply." />
        <Card>
          <CardContent>
            <Field id="batch-protocol" label="Protocol">
              <NativeSelect
                id="batch-protocol"
                value=""
                onChange={(event) => setParams((prev) => patchSearchParams(prev, { protocol: event.target.value }))}
              >
                <option value="">{protocols.isLoading ? 'Loading the protocols…' : 'Choose a protocol'}</option>
                {(protocols.data?.results ?? []).map((item) => (
                  <option key={item.protocol_uuid} value={item.protocol_uuid}>
                    {item.name} (v{item.current_version}, {KIND_LABELS[item.kind].toLowerCase()})
                  </option>
                ))}
              </NativeSelect>
            </Field>
          </CardContent>
        </Card>
      </PageContainer>
    );
  }
  if (protocol.isLoading || catalogue.isLoading) return <Spinner />;
  if (!current) return <p className="text-destructive text-sm">This protocol could not be loaded.</p>;

  const overrides = Object.fromEntries(
    Object.entries(adjustments).filter(([uuid, adjustment]) => inBatch.has(uuid) && isAdjusted(adjustment)),
  );
  const body: CreateBatchBody = {
    protocol_uuid: current.protocol_uuid,
    protocol_version: current.version,
    ...scopeBody(effectiveScope),
    ...(Object.keys(overrides).length ? { overrides } : {}),
  };
  // A check answers for the request it was made with; any change makes it stale.
  const checkedNow = checked?.request === JSON.stringify(body) ? checked : null;

  const start = () => {
    setErrors(NO_ERRORS);
    create.mutate(body, {
      onSuccess: (batch) => void navigate(batchPath(projectUuid, batch.batch_uuid)),
      onError: (error) => setErrors(batchErrors(error)),
    });
  };

  const runCheck = () => {
    setErrors(NO_ERRORS);
    const request = JSON.stringify(body);
    check.mutate(body, {
      onSuccess: (answer) => setChecked({ request, runs: answer.runs.length, notices: noticesOf(answer) }),
      onError: (error) => {
        setChecked(null);
        setErrors(batchErrors(error));
      },
    });
  };

  const columns: DataTableColumn<Row>[] = [
    { id: 'subject', header: 'Subject', cellClassName: 'font-medium', cell: (row) => row.subject.name },
    {
      id: 'group',
      header: 'Group',
      className: 'hidden sm:table-cell',
      cell: (row) => (row.subject.group ? <Badge variant="secondary">{row.subject.group}</Badge> : '—'),
    },
    { id: 'video', header: 'Video', cellClassName: 'max-w-64 truncate', cell: (row) => row.video.name },
    {
      id: 'adjusted',
      header: 'Adjustments',
      className: 'hidden md:table-cell',
      cellClassName: 'text-muted-foreground text-xs',
      cellTestId: 'row-adjustment',
      cell: (row) => describeAdjustment(adjustments[rowKey(row)], current.kind) || '—',
    },
    {
      id: 'problems',
      header: <span className="sr-only">Problems</span>,
      cellClassName: 'max-w-64 text-destructive text-xs',
      cellTestId: 'row-problems',
      cell: (row) => [...(errors.byVideo[rowKey(row)] ?? []), ...(checkedNow?.notices[rowKey(row)] ?? [])].join(' '),
    },
  ];

  return (
    <PageContainer className="grid grid-cols-1 gap-6">
      <PageHeader
        className="mb-0"
        title="Run on many videos"
        description={
          <>
            <Link to={protocolPath(projectUuid, current.protocol_uuid)} className="font-medium hover:underline">
              {current.name}
            </Link>{' '}
            (version {current.version}, {KIND_LABELS[current.kind].toLowerCase()}): one run per video, queued for every
            worker at once. A video that fails never stops the others.
          </>
        }
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Card>
          <CardHeader>
            <CardTitle>Videos</CardTitle>
            <CardDescription>Only ready videos run.</CardDescription>
          </CardHeader>
          <CardContent>
            <ScopeChooser scope={scope} onChange={setScope} subjects={subjects} errors={errors.scope} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Settings</CardTitle>
            <CardDescription>Version {current.version} of the protocol.</CardDescription>
          </CardHeader>
          <CardContent className="max-h-80 overflow-y-auto">
            <ParameterList kind={current.kind} parameters={current.parameters} />
          </CardContent>
        </Card>
      </div>

      <Card className="gap-0 overflow-hidden py-0">
        <CardHeader className="py-4">
          <CardTitle data-testid="matched-count">
            {countOf(matched.length, 'video')} {scope.kind === 'videos' ? 'picked' : 'match'}
          </CardTitle>
          <CardDescription>
            Adjust a video where its camera or arena moved: its frame shows the geometry.
          </CardDescription>
        </CardHeader>
        <DataTable
          label="Videos of the batch"
          rows={shownRows}
          rowKey={rowKey}
          rowName={(row) => `${row.subject.name} / ${row.video.name}`}
          columns={columns}
          table={table}
          selectable={scope.kind === 'videos'}
          selectAllLabel="Pick every ready video"
          rowTestId="batch-video-row"
          isRowCurrent={(row) => rowKey(row) === selected}
          rowActions={(row) => (
            <Button
              variant={rowKey(row) === selected ? 'secondary' : 'ghost'}
              size="sm"
              disabled={!inBatch.has(rowKey(row))}
              onClick={() => setSelected(rowKey(row) === selected ? null : rowKey(row))}
              aria-label={`Adjust ${row.subject.name} / ${row.video.name}`}
            >
              <SlidersHorizontal aria-hidden="true" />
              Adjust
              {isAdjusted(adjustments[rowKey(row)]) ? <span className="sr-only"> (adjusted)</span> : null}
            </Button>
          )}
          rowMenu={(row) => (
            <>
              <DropdownMenuItem disabled={!inBatch.has(rowKey(row))} onSelect={() => setSelected(rowKey(row))}>
                <SlidersHorizontal aria-hidden="true" />
                Adjust this video
              </DropdownMenuItem>
              <DropdownMenuItem
                disabled={!isAdjusted(adjustments[rowKey(row)])}
                onSelect={() =>
                  setAdjustments((all) =>
                    Object.fromEntries(Object.entries(all).filter(([key]) => key !== rowKey(row))),
                  )
                }
              >
                <RotateCcw aria-hidden="true" />
                Remove its adjustments
              </DropdownMenuItem>
            </>
          )}
          inset="card"
          headerClassName="bg-muted/40"
          status={{
            loading: false,
            error: catalogue.isError ? 'The videos could not be loaded.' : null,
            empty: <p className="text-center text-muted-foreground text-sm">No ready video matches.</p>,
          }}
        />
      </Card>

      {selectedRow && inBatch.has(rowKey(selectedRow)) ? (
        <Card>
          <CardHeader>
            <CardTitle>
              Adjust {selectedRow.subject.name} / {selectedRow.video.name}
            </CardTitle>
            <CardDescription>What changes here applies to this video’s run only.</CardDescription>
          </CardHeader>
          <CardContent>
            <VideoAdjuster
              key={rowKey(selectedRow)}
              video={selectedRow.video}
              kind={current.kind}
              parameters={current.parameters}
              origin={origin}
              adjustment={adjustments[rowKey(selectedRow)]}
              onChange={(adjustment) => setAdjustments((all) => ({ ...all, [rowKey(selectedRow)]: adjustment }))}
              errors={errors.byVideo[rowKey(selectedRow)] ?? []}
            />
          </CardContent>
        </Card>
      ) : null}

      <div className="flex flex-wrap items-center gap-3">
        <Button
          onClick={start}
          disabled={!permissions.canProcess || create.isPending || matched.length === 0}
          data-testid="start-batch"
        >
          {create.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Play aria-hidden="true" />}
          Start {countOf(matched.length, 'run')}
        </Button>
        <Button
          variant="outline"
          onClick={runCheck}
          disabled={!permissions.canProcess || check.isPending || matched.length === 0}
          data-testid="check-batch"
        >
          {check.isPending ? (
            <Loader2 className="animate-spin" aria-hidden="true" />
          ) : (
            <ListChecks aria-hidden="true" />
          )}
          Check
        </Button>
        {checkedNow ? (
          <span className="text-sm" role="status" data-testid="batch-checked">
            {checkedNow.runs === 1 ? 'The video can run as set.' : `All ${checkedNow.runs} videos can run as set.`}
          </span>
        ) : null}
        {!permissions.canProcess ? (
          <span className="text-muted-foreground text-sm">
            {permissions.processBlockedReason ?? 'Members and up start batches.'}
          </span>
        ) : null}
        {errors.other.length || Object.keys(errors.byVideo).length ? (
          <div role="alert" className="text-destructive text-sm" data-testid="batch-errors">
            {errors.other.map((message) => (
              <p key={message}>{message}</p>
            ))}
            {Object.keys(errors.byVideo).length ? (
              <p>
                {countOf(Object.keys(errors.byVideo).length, 'video')} cannot run as set: see the table. Nothing was
                started.
              </p>
            ) : null}
          </div>
        ) : null}
      </div>
    </PageContainer>
  );
}
