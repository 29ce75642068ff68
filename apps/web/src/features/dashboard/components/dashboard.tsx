import { useQuery } from '@tanstack/react-query';
import {
  ArrowRight,
  ClipboardList,
  Database,
  Film,
  FolderPlus,
  type LucideIcon,
  PlayCircle,
  Upload,
  Users,
} from 'lucide-react';
import { Link } from 'react-router';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { displayName } from '@/features/auth/api';
import { useSession } from '@/features/auth/hooks/use-session';
import { ProjectStatusBanner } from '@/features/billing/components/project-status-banner';
import { PendingInvitations } from '@/features/profile/invitations';
import { ProjectStatusBadge } from '@/features/projects/components/project-status-badge';
import { useActiveProject } from '@/features/projects/hooks/active-project-context';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { DeletedProjects } from '@/features/trash/components/deleted-projects';
import { videoQueries } from '@/features/videos/api';
import { VideoStatusBadge } from '@/features/videos/components/video-status-badge';
import { formatBytes, formatDate, formatDuration } from '@/lib/format';
import { EmptyNote } from './empty-note';
import { GettingStarted } from './getting-started';
import { RecentAnalyses } from './recent-analyses';

export function Dashboard() {
  const { user } = useSession();
  const { project, projects, projectsLoaded, isLoading } = useActiveProject();
  const permissions = useProjectPermissions();

  if (!projectsLoaded || (isLoading && !project)) return <Spinner />;
  if (projects.length === 0 || !project) return <Welcome name={displayName(user)} />;

  const base = `/projects/${project.project_uuid}`;
  const counts = project.counts ?? { subjects: 0, videos: 0, analyses: 0 };

  return (
    <PageContainer>
      <PageHeader
        title={project.name}
        description={project.metadata?.description || 'The active project at a glance.'}
        actions={
          <>
            <ProjectStatusBadge status={project.status} />
            <Button asChild variant="outline" size="sm">
              <Link to={`${base}/subjects`}>
                <Users aria-hidden="true" />
                Subjects
              </Link>
            </Button>
          </>
        }
      />
      <ProjectStatusBanner project={project} />
      <PendingInvitations />
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <Stat icon={Users} label="Subjects" value={String(counts.subjects)} href={`${base}/subjects`} />
        <Stat icon={Film} label="Videos" value={String(counts.videos)} />
        <Stat icon={ClipboardList} label="Analyses" value={String(counts.analyses)} href={`${base}/analysis-logs`} />
        <Stat icon={Database} label="Storage used" value={formatBytes(project.storage_bytes ?? 0)} />
      </div>

      {/* The first steps are a member's to take; viewers only read. */}
      {permissions.canEditContent ? (
        <GettingStarted key={project.project_uuid} projectUuid={project.project_uuid} className="mt-6" />
      ) : null}

      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <RecentVideos projectUuid={project.project_uuid} />
        <RecentAnalyses projectUuid={project.project_uuid} />
      </div>
      <DeletedProjects className="mt-6" />
    </PageContainer>
  );
}

function Stat({ icon: Icon, label, value, href }: { icon: LucideIcon; label: string; value: string; href?: string }) {
  const body = (
    <Card className="gap-2 py-5 transition-colors hover:border-primary/40">
      <CardHeader className="px-5">
        <CardDescription className="flex items-center gap-2">
          <Icon className="size-4" aria-hidden="true" />
          {label}
        </CardDescription>
      </CardHeader>
      <CardContent className="px-5">
        <p
          className="font-semibold text-2xl tabular-nums tracking-tight"
          data-testid={`stat-${label.toLowerCase().replace(/\s+/g, '-')}`}
        >
          {value}
        </p>
      </CardContent>
    </Card>
  );
  return href ? (
    <Link
      to={href}
      className="rounded-xl focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      {body}
    </Link>
  ) : (
    body
  );
}

function RecentVideos({ projectUuid }: { projectUuid: string }) {
  const { data, isLoading, isError } = useQuery(videoQueries.recent(projectUuid));
  const videos = data?.results ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent videos</CardTitle>
        <CardDescription>The latest uploads across all subjects.</CardDescription>
        <CardAction>
          <Button asChild variant="ghost" size="sm">
            <Link to={`/projects/${projectUuid}/subjects`}>
              All subjects <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="grid grid-cols-1 gap-3">
            <Skeleton className="h-12" />
            <Skeleton className="h-12" />
          </div>
        ) : isError || videos.length === 0 ? (
          <EmptyNote icon={Upload} title="No videos yet" text="Upload recordings from a subject’s page." />
        ) : (
          <ul className="divide-y">
            {videos.map((video) => (
              <li key={video.video_uuid}>
                <Link
                  to={`/projects/${projectUuid}/subjects/${video.subject_uuid}?video=${video.video_uuid}`}
                  className="-mx-2 flex items-center gap-3 rounded-md px-2 py-2.5 hover:bg-muted/60"
                >
                  <div className="flex h-10 w-16 shrink-0 items-center justify-center overflow-hidden rounded-md bg-muted">
                    {video.thumbnail_url ? (
                      <img src={video.thumbnail_url} alt="" className="size-full object-cover" />
                    ) : (
                      <PlayCircle className="size-4 text-muted-foreground" aria-hidden="true" />
                    )}
                  </div>
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-medium text-sm">{video.name}</p>
                    <p className="truncate text-muted-foreground text-xs">
                      {formatDuration(video.duration_s)} · {formatBytes(video.size_bytes)} ·{' '}
                      {formatDate(video.created_at)}
                    </p>
                  </div>
                  <VideoStatusBadge status={video.status} />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function Welcome({ name }: { name: string }) {
  return (
    <PageContainer className="max-w-2xl">
      <PendingInvitations />
      <Card className="mt-6 items-center px-6 py-12 text-center">
        <span className="flex size-14 items-center justify-center rounded-2xl bg-primary/10 text-primary">
          <FolderPlus className="size-7" aria-hidden="true" />
        </span>
        <div className="space-y-2">
          <h1 className="font-semibold text-2xl tracking-tight">Welcome{name ? `, ${name}` : ''}</h1>
          <p className="mx-auto max-w-md text-muted-foreground text-sm">
            Projects hold your subjects and their videos. Create your first project to upload recordings, detect
            movement and score events.
          </p>
        </div>
        <Button asChild size="lg">
          <Link to="/new-project">
            <FolderPlus aria-hidden="true" />
            Create your first project
          </Link>
        </Button>
      </Card>
      <DeletedProjects className="mt-6" />
    </PageContainer>
  );
}
