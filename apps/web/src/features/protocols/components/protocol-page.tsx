import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ArrowLeft, History, Layers, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { NotFoundContent } from '@/components/layout/error-boundary';
import { PageContainer } from '@/components/layout/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { analysisQueries } from '@/features/analysis/api';
import { KIND_LABELS } from '@/features/analysis/labels';
import { ProtocolResults } from '@/features/batches/components/protocol-results';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { ApiError } from '@/lib/api-client';
import { countOf, formatDate } from '@/lib/format';
import { patchSearchParams } from '@/lib/search-params';
import { cn } from '@/lib/utils';
import { type Protocol, protocolQueries } from '../api';
import { useDeleteProtocol, useUpdateProtocol } from '../hooks/use-protocol-mutations';
import { deleteProtocolWarning, newBatchPath } from '../text';
import { ParameterList } from './parameter-list';
import { ProtocolEditor } from './protocol-editor';

/**
 * One protocol: the parameters of the version shown (the current one, or `?version=N`), every version with who
 * saved it and when, and — for members — Edit (a new version), Run on many videos and Delete (its runs are kept).
 */
export function ProtocolPage({ projectUuid, protocolUuid }: { projectUuid: string; protocolUuid: string }) {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const requested = Number(params.get('version')) || null;
  const {
    data: protocol,
    isLoading,
    error,
  } = useQuery({
    ...protocolQueries.detail(projectUuid, protocolUuid, requested),
    placeholderData: keepPreviousData,
  });
  const runs = useQuery(analysisQueries.list(projectUuid, { protocol: protocolUuid, page_size: 1 }));
  const permissions = useProjectPermissions();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const update = useUpdateProtocol(projectUuid, protocolUuid);
  const remove = useDeleteProtocol(projectUuid);
  const list = `/projects/${projectUuid}/protocols`;

  if (isLoading) return <Spinner />;
  if (error instanceof ApiError && error.status === 404) return <NotFoundContent />;
  if (!protocol) throw error ?? new Error('Protocol missing');

  const showVersion = (version: number | null) =>
    setParams((prev) => patchSearchParams(prev, { version: version === null ? null : String(version) }), {
      replace: true,
    });
  const isCurrent = protocol.version === protocol.current_version;

  return (
    <PageContainer className="grid grid-cols-1 gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0 space-y-2">
          <Button asChild variant="link" className="h-auto p-0 text-muted-foreground">
            <Link to={list}>
              <ArrowLeft aria-hidden="true" />
              Protocols
            </Link>
          </Button>
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="truncate font-semibold text-2xl tracking-tight" data-testid="protocol-title">
              {protocol.name}
            </h1>
            <Badge variant="secondary">{KIND_LABELS[protocol.kind]}</Badge>
            <Badge variant="outline" data-testid="protocol-current-version">
              v{protocol.current_version}
            </Badge>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          {permissions.canProcess ? (
            <Button asChild>
              <Link to={newBatchPath(projectUuid, protocolUuid)}>
                <Layers aria-hidden="true" />
                Run on many videos
              </Link>
            </Button>
          ) : null}
          {permissions.canEditContent && !editing ? (
            <>
              <Button variant="outline" onClick={() => setEditing(true)}>
                <Pencil aria-hidden="true" />
                {isCurrent ? 'Edit' : `Edit from version ${protocol.version}`}
              </Button>
              <Button
                variant="outline"
                className="text-destructive hover:text-destructive"
                onClick={() => setDeleting(true)}
              >
                <Trash2 aria-hidden="true" />
                Delete
              </Button>
            </>
          ) : null}
        </div>
      </div>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <Card>
          <CardHeader>
            <CardTitle>{editing ? 'New version' : `Version ${protocol.version}`}</CardTitle>
            <CardDescription>
              {editing
                ? `Saving makes version ${protocol.current_version + 1}; runs keep the version they used.`
                : `Saved ${formatDate(protocol.version_created_at)}${
                    protocol.version_created_by ? ` by ${protocol.version_created_by.display_name}` : ''
                  }${isCurrent ? ' · the current version' : ''}`}
            </CardDescription>
          </CardHeader>
          <CardContent>
            {editing ? (
              <ProtocolEditor
                key={protocol.version}
                initialName={protocol.name}
                kind={protocol.kind}
                initialParameters={protocol.parameters}
                submitLabel="Save new version"
                pending={update.isPending}
                onSave={async ({ name, parameters }) => {
                  await update.mutateAsync({ name, parameters });
                  setEditing(false);
                  showVersion(null);
                }}
                onCancel={() => setEditing(false)}
              />
            ) : (
              <ParameterList kind={protocol.kind} parameters={protocol.parameters} />
            )}
          </CardContent>
        </Card>
        <div className="grid grid-cols-1 content-start gap-6">
          <VersionList protocol={protocol} onShow={(version) => showVersion(version)} />
          <Card>
            <CardHeader>
              <CardTitle>Runs</CardTitle>
              <CardDescription data-testid="protocol-run-count">
                {runs.data ? `${countOf(runs.data.count, 'run')} made from this protocol.` : '…'}
              </CardDescription>
            </CardHeader>
          </Card>
        </div>
      </div>

      <ProtocolResults projectUuid={projectUuid} protocolUuid={protocolUuid} />

      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title="Delete this protocol?"
        description={deleteProtocolWarning(protocol.name)}
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => remove.mutate(protocol, { onSuccess: () => void navigate(list) })}
      />
    </PageContainer>
  );
}

function VersionList({ protocol, onShow }: { protocol: Protocol; onShow: (version: number | null) => void }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <History className="size-4" aria-hidden="true" />
          Versions
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="grid gap-1" aria-label="Versions">
          {protocol.versions.map((version) => {
            const shown = version.version === protocol.version;
            return (
              <li key={version.version}>
                <button
                  type="button"
                  onClick={() => onShow(version.version === protocol.current_version ? null : version.version)}
                  aria-current={shown ? 'true' : undefined}
                  className={cn(
                    'grid w-full gap-0.5 rounded-md px-2 py-1.5 text-left text-sm hover:bg-muted',
                    shown && 'bg-muted',
                  )}
                  data-testid="protocol-version-row"
                >
                  <span className="font-medium">
                    v{version.version} · {version.name}
                  </span>
                  <span className="text-muted-foreground text-xs">
                    {formatDate(version.created_at)}
                    {version.created_by ? ` · ${version.created_by.display_name}` : ''}
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
      </CardContent>
    </Card>
  );
}
