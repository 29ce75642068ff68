import { useQuery } from '@tanstack/react-query';
import { Building2, CalendarDays, Database, Film, FlaskConical, Pencil, UserRound, Users } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { PageContainer } from '@/components/layout/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { BillingCard } from '@/features/billing/components/billing-card';
import { useAppConfig } from '@/features/config/api';
import { GettingStarted } from '@/features/dashboard/components/getting-started';
import { TeamCard } from '@/features/team/components/team-card';
import { formatBytes, formatDate } from '@/lib/format';
import { projectQueries } from '../api';
import { useUpdateProjectDescription } from '../hooks/use-project-mutations';
import { projectPermissions } from '../permissions';
import { DeleteProjectCard } from './delete-project-card';
import { ProjectLogoUpload } from './project-logo-upload';
import { ProjectStatusBadge } from './project-status-badge';

export function ProjectPage({ projectUuid }: { projectUuid: string }) {
  const { data: project, isLoading } = useQuery(projectQueries.detail(projectUuid));
  const config = useAppConfig();
  const billingEnabled = config.billing_enabled;
  // From this page's own query rather than the active-project context: after a delete the context changes, and a
  // re-render here would refetch the deleted project (its query was removed) while the redirect waits.
  const permissions = projectPermissions(project, { billingEnabled, supportEmail: config.support_email });
  if (isLoading || !project) return <Spinner />;
  const canEdit = permissions.canEditProject;

  const facts = [
    { icon: Building2, label: 'Institution', value: project.metadata?.institution || '—' },
    { icon: FlaskConical, label: 'Principal investigator', value: project.metadata?.principal_investigator || '—' },
    { icon: UserRound, label: 'Owner', value: project.owner?.display_name || project.owner?.email || '—' },
    { icon: CalendarDays, label: 'Created', value: formatDate(project.created_at) },
    { icon: Users, label: 'Subjects', value: String(project.counts?.subjects ?? 0) },
    { icon: Film, label: 'Videos', value: String(project.counts?.videos ?? 0) },
    { icon: Database, label: 'Storage used', value: formatBytes(project.storage_bytes ?? 0) },
  ];

  return (
    <PageContainer className="grid grid-cols-1 gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <ProjectLogoUpload project={project} canEdit={canEdit} />
        <div className="min-w-0 flex-1 space-y-1.5">
          <h1 className="truncate font-semibold text-2xl tracking-tight">{project.name}</h1>
          <div className="flex flex-wrap items-center gap-2">
            <ProjectStatusBadge status={project.status} />
            {project.role ? (
              <Badge variant="secondary" className="capitalize">
                {project.role}
              </Badge>
            ) : null}
            {billingEnabled ? (
              <Badge variant="outline" className="capitalize">
                {project.plan} plan
              </Badge>
            ) : null}
          </div>
        </div>
      </div>

      {/* A new project opens here: its first steps, as on the dashboard (members and up). */}
      {permissions.canEditContent ? <GettingStarted key={projectUuid} projectUuid={projectUuid} /> : null}

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="grid grid-cols-1 content-start gap-6 lg:col-span-2">
          <DescriptionCard
            projectUuid={projectUuid}
            description={project.metadata?.description ?? ''}
            canEdit={canEdit}
          />
          <TeamCard projectUuid={projectUuid} permissions={permissions} />
        </div>
        <div className="grid h-fit grid-cols-1 gap-6">
          <BillingCard project={project} permissions={permissions} />
          <Card className="h-fit">
            <CardHeader>
              <CardTitle>Details</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="grid grid-cols-1 gap-3 text-sm">
                {facts.map((fact) => (
                  <div key={fact.label} className="flex items-start gap-3">
                    <fact.icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                    <dt className="w-36 shrink-0 text-muted-foreground">{fact.label}</dt>
                    <dd className="min-w-0 break-words font-medium">{fact.value}</dd>
                  </div>
                ))}
              </dl>
            </CardContent>
          </Card>
        </div>
      </div>

      {permissions.canDeleteProject ? <DeleteProjectCard project={project} /> : null}
    </PageContainer>
  );
}

function DescriptionCard({
  projectUuid,
  description,
  canEdit,
}: {
  projectUuid: string;
  description: string;
  canEdit: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(description);
  const update = useUpdateProjectDescription(projectUuid);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(draft.trim(), { onSuccess: () => setEditing(false) });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Description</CardTitle>
        <CardDescription>What this project studies.</CardDescription>
        {canEdit && !editing ? (
          <CardAction>
            <Button
              variant="outline"
              size="sm"
              onClick={() => {
                setDraft(description);
                setEditing(true);
              }}
            >
              <Pencil aria-hidden="true" />
              Edit description
            </Button>
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent>
        {editing ? (
          <form onSubmit={onSubmit} className="grid grid-cols-1 gap-3">
            <Label htmlFor="project-description" className="sr-only">
              Description
            </Label>
            <Textarea
              id="project-description"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              rows={5}
              autoFocus
            />
            <div className="flex justify-end gap-2">
              <Button variant="outline" onClick={() => setEditing(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={update.isPending}>
                Save
              </Button>
            </div>
          </form>
        ) : description ? (
          <p className="whitespace-pre-wrap text-sm leading-relaxed" data-testid="project-description">
            {description}
          </p>
        ) : (
          <p className="text-muted-foreground text-sm" data-testid="project-description">
            No description yet.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

export function ProjectPageSkeleton() {
  return <Skeleton className="h-40 w-full" />;
}
