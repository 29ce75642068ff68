import { type ReactNode, useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { NotFoundContent } from '@/components/layout/error-boundary';
import { Spinner } from '@/components/ui/spinner';
import { useSession } from '@/features/auth/hooks/use-session';
import { ProjectStatusBanner } from '@/features/billing/components/project-status-banner';
import { chooseActiveProject, withProjectInPath } from '@/features/projects/active-project';
import { useActiveProject } from '@/features/projects/hooks/active-project-context';

export type FromState = { from?: { pathname: string; search?: string; hash?: string } };

/** Where to go after signing in: the page first asked for, else the dashboard. */
export function redirectTarget(state: unknown): string {
  const from = (state as FromState | null)?.from;
  if (!from?.pathname || from.pathname.startsWith('/auth/login') || from.pathname.startsWith('/auth/logout'))
    return '/';
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

/** Signed-out users go to /auth/login and come back here after signing in. */
export function RequireAuth() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <Spinner fullScreen />;
  if (status === 'unauthenticated') {
    return <Navigate to="/auth/login" replace state={{ from: location } satisfies FromState} />;
  }
  return <Outlet />;
}

/** Login and register are for signed-out users; a signed-in user continues to where they were going. */
export function PublicOnly() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <Spinner fullScreen />;
  if (status === 'authenticated') return <Navigate to={redirectTarget(location.state)} replace />;
  return <Outlet />;
}

/**
 * Project-scoped routes: need at least one project (else /). A uuid in the path becomes the active
 * project; a short path is rewritten with the active project's uuid inserted.
 */
export function ProjectScope() {
  const { projectUuid } = useParams();
  const location = useLocation();
  const { project, projects, projectsLoaded, activeProjectUuid, setActiveProjectUuid, deletedProjects } =
    useActiveProject();
  const known = projectUuid ? projects.some((p) => p.project_uuid === projectUuid) : false;

  // Sync once per URL project: clearing the active project (after a delete) must not re-activate it.
  const synced = useRef<string | null>(null);
  useEffect(() => {
    if (!projectUuid || !known || synced.current === projectUuid) return;
    synced.current = projectUuid;
    if (projectUuid !== activeProjectUuid) setActiveProjectUuid(projectUuid);
  }, [projectUuid, known, activeProjectUuid, setActiveProjectUuid]);

  if (!projectsLoaded) return <Spinner />;
  // A project deleted in this session keeps its page (same tree, so nothing remounts) until the redirect.
  const deleted = !!projectUuid && deletedProjects.has(projectUuid);
  if (deleted) return <ProjectOutlet banner={null} />;
  if (projects.length === 0) return <Navigate to="/" replace />;

  if (!projectUuid) {
    const target = chooseActiveProject(
      activeProjectUuid,
      activeProjectUuid,
      projects.map((p) => p.project_uuid),
    )!;
    return (
      <Navigate to={`${withProjectInPath(location.pathname, target)}${location.search}${location.hash}`} replace />
    );
  }
  if (!known) return <NotFoundContent />;
  return (
    <ProjectOutlet banner={project?.project_uuid === projectUuid ? <ProjectStatusBanner project={project} /> : null} />
  );
}

/** The project's pages under its status banner (draft, payment failed, locked). */
function ProjectOutlet({ banner }: { banner: ReactNode }) {
  return (
    <>
      {banner}
      <Outlet />
    </>
  );
}

/** The project uuid of a project-scoped page (always present under ProjectScope). */
export function useProjectUuid(): string {
  const { projectUuid } = useParams();
  if (!projectUuid) throw new Error('useProjectUuid outside a project route');
  return projectUuid;
}
