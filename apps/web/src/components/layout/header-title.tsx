import { useQuery } from '@tanstack/react-query';
import { ChevronRight } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { ProjectStatusIcon } from '@/features/projects/components/project-logo';
import { useActiveProject } from '@/features/projects/hooks/active-project-context';
import { subjectQueries } from '@/features/subjects/api';

/** Every project section's crumb: a section missing here leaves the breadcrumb without its name. */
export const SECTION_TITLES: Record<string, string> = {
  subjects: 'Subjects',
  'analysis-logs': 'Analysis Logs',
  'movement-detector': 'Movement Detector',
  'location-tracker': 'Location Tracker',
  pose: 'Pose',
  'quick-score': 'Quick Score',
  annotator: 'Annotator',
  agreement: 'Agreement',
  protocols: 'Protocols',
  batches: 'Batches',
  trash: 'Trash',
  profile: 'Account',
  'new-project': 'New project',
};

/** Breadcrumb of the header: the active project, then the section. */
export function HeaderTitle() {
  const { pathname } = useLocation();
  const { project } = useActiveProject();
  const parts = pathname.split('/').filter(Boolean);
  const inProject = parts[0] === 'projects' && parts[1];
  const sectionKey = inProject ? parts[2] : parts[0];
  const section = sectionKey ? SECTION_TITLES[sectionKey] : pathname === '/' ? 'Dashboard' : undefined;
  const showProject = project && (inProject || pathname === '/');
  // On a subject's page the crumb ends with its name (read from the page's own cached query).
  const subjectUuid = inProject && sectionKey === 'subjects' ? parts[3] : undefined;
  const { data: subject } = useQuery({
    ...subjectQueries.detail(parts[1] ?? '', subjectUuid ?? ''),
    enabled: false,
  });

  return (
    <nav aria-label="Breadcrumb" className="min-w-0 flex-1">
      <ol className="flex min-w-0 items-center gap-1.5 text-sm">
        {showProject ? (
          <li className="flex min-w-0 items-center gap-1.5">
            <Link
              to={`/projects/${project.project_uuid}`}
              className="truncate text-muted-foreground transition-colors hover:text-foreground"
            >
              {project.name}
            </Link>
            <ProjectStatusIcon status={project.status} />
          </li>
        ) : null}
        {showProject && section ? (
          <ChevronRight className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
        ) : null}
        {section && subjectUuid && project ? (
          <>
            <li className="hidden truncate sm:block">
              <Link
                to={`/projects/${project.project_uuid}/subjects`}
                className="text-muted-foreground transition-colors hover:text-foreground"
              >
                {section}
              </Link>
            </li>
            <ChevronRight className="hidden size-3.5 shrink-0 text-muted-foreground sm:block" aria-hidden="true" />
            <li className="truncate font-medium" aria-current="page">
              {subject?.name ?? '…'}
            </li>
          </>
        ) : section ? (
          <li className="truncate font-medium" aria-current="page">
            {section}
          </li>
        ) : inProject && !sectionKey ? (
          <>
            <ChevronRight className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
            <li className="truncate font-medium" aria-current="page">
              Settings
            </li>
          </>
        ) : null}
      </ol>
    </nav>
  );
}
