import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { NotFoundContent } from '@/components/layout/error-boundary';
import { PageContainer } from '@/components/layout/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { useTrashDays } from '@/features/trash/hooks/use-trash-days';
import { trashNotice } from '@/features/trash/trash-text';
import { VideosSection } from '@/features/videos/components/videos-section';
import { ApiError } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { subjectQueries } from '../api';
import { useDeleteSubjects } from '../hooks/use-subject-mutations';
import { SubjectDialog } from './subject-dialog';

export function SubjectPage({ projectUuid, subjectUuid }: { projectUuid: string; subjectUuid: string }) {
  const navigate = useNavigate();
  const { data: subject, isLoading, error } = useQuery(subjectQueries.detail(projectUuid, subjectUuid));
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = useDeleteSubjects(projectUuid);
  const permissions = useProjectPermissions();
  const readOnly = !permissions.canEditContent;
  const trashDays = useTrashDays();

  if (isLoading) return <Spinner />;
  if (error instanceof ApiError && error.status === 404) return <NotFoundContent />;
  if (!subject) throw error ?? new Error('Subject missing');

  const metadata = Object.entries(subject.metadata ?? {});
  const back = `/projects/${projectUuid}/subjects`;

  return (
    <PageContainer className="grid grid-cols-1 gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0 space-y-2">
          <Button asChild variant="link" className="h-auto p-0 text-muted-foreground">
            <Link to={back}>
              <ArrowLeft aria-hidden="true" />
              Subjects
            </Link>
          </Button>
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="truncate font-semibold text-2xl tracking-tight">{subject.name}</h1>
            {subject.group ? <Badge variant="secondary">{subject.group}</Badge> : null}
          </div>
        </div>
        {!readOnly ? (
          <div className="flex gap-2">
            <Button variant="outline" onClick={() => setEditing(true)}>
              <Pencil aria-hidden="true" />
              Edit subject
            </Button>
            <Button
              variant="outline"
              className="text-destructive hover:text-destructive"
              onClick={() => setDeleting(true)}
            >
              <Trash2 aria-hidden="true" />
              Delete
            </Button>
          </div>
        ) : null}
      </div>

      <div className="flex flex-col gap-6 xl:flex-row xl:items-start">
        <div className="min-w-0 flex-1">
          <VideosSection
            projectUuid={projectUuid}
            subjectUuid={subjectUuid}
            readOnly={readOnly}
            canBulkDelete={permissions.canBulkDelete}
            uploadBlockedReason={permissions.canProcess ? null : permissions.processBlockedReason}
          />
        </div>
        <Card className="xl:w-80 xl:shrink-0">
          <CardHeader>
            <CardTitle>Details</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-1 gap-3 text-sm">
              <Fact label="Group" value={subject.group || '—'} />
              <Fact label="Videos" value={String(subject.video_count)} />
              <Fact label="Created" value={formatDate(subject.created_at)} />
              {metadata.map(([key, value]) => (
                <Fact key={key} label={key} value={String(value) || '—'} />
              ))}
              <div className="grid grid-cols-1 gap-1">
                <dt className="text-muted-foreground">Notes</dt>
                <dd className="whitespace-pre-wrap" data-testid="subject-notes">
                  {subject.notes || '—'}
                </dd>
              </div>
            </dl>
          </CardContent>
        </Card>
      </div>

      <SubjectDialog projectUuid={projectUuid} subject={subject} open={editing} onOpenChange={setEditing} />
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete “${subject.name}”?`}
        description={`Its videos and analyses go too. ${trashNotice(trashDays)}`}
        confirmLabel="Delete subject"
        pending={remove.isPending}
        onConfirm={() => remove.mutate([subjectUuid], { onSuccess: () => navigate(back, { replace: true }) })}
      />
    </PageContainer>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-muted-foreground capitalize">{label}</dt>
      <dd className="min-w-0 break-words text-right font-medium">{value}</dd>
    </div>
  );
}
