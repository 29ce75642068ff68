import { Check, ChevronsUpDown, Plus, Settings } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuShortcut,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { SidebarMenu, SidebarMenuButton, SidebarMenuItem, useSidebar } from '@/components/ui/sidebar';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';
import { useActiveProject } from '../hooks/active-project-context';
import { ProjectLogo, ProjectStatusIcon } from './project-logo';

/** The switcher shows at most the first five projects (spec §9). */
export const SWITCHER_LIMIT = 5;

export function ProjectSwitcher() {
  const { project, projects, projectsLoaded, setActiveProjectUuid } = useActiveProject();
  const { isMobile, setOpenMobile } = useSidebar();
  const shown = projects.slice(0, SWITCHER_LIMIT);
  const close = () => setOpenMobile(false);
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  /** Switching makes the project active and lands on its dashboard (the link itself names its page, spec §2). */
  const switchTo = (projectUuid: string) => {
    setOpen(false);
    close();
    setActiveProjectUuid(projectUuid);
    navigate('/');
  };

  if (!projectsLoaded) {
    return (
      <div className="flex items-center gap-2 p-2">
        <Skeleton className="size-8 rounded-lg" />
        <Skeleton className="h-4 flex-1" />
      </div>
    );
  }

  return (
    <SidebarMenu>
      <SidebarMenuItem>
        <DropdownMenu open={open} onOpenChange={setOpen}>
          <DropdownMenuTrigger asChild>
            <SidebarMenuButton
              size="lg"
              className="data-[state=open]:bg-sidebar-accent data-[state=open]:text-sidebar-accent-foreground"
              aria-label="Switch project"
            >
              {project ? (
                <ProjectLogo project={project} />
              ) : (
                <div className="flex size-8 items-center justify-center rounded-lg border border-dashed">
                  <Plus className="size-4" aria-hidden="true" />
                </div>
              )}
              <div className="grid flex-1 text-left text-sm leading-tight">
                <span className="flex items-center gap-1.5 truncate font-semibold">
                  <span className="truncate">{project?.name ?? 'No project yet'}</span>
                  {project ? <ProjectStatusIcon status={project.status} /> : null}
                </span>
                {/* The role, plan or status is one lowercase word from the API; the hint is a sentence. */}
                <span className={cn('truncate text-muted-foreground text-xs', project && 'capitalize')}>
                  {project ? (project.role ?? project.plan ?? project.status) : 'Create one to start'}
                </span>
              </div>
              <ChevronsUpDown className="ml-auto" aria-hidden="true" />
            </SidebarMenuButton>
          </DropdownMenuTrigger>
          <DropdownMenuContent
            className="w-(--radix-dropdown-menu-trigger-width) min-w-60 rounded-lg"
            align="start"
            side={isMobile ? 'bottom' : 'right'}
            sideOffset={4}
            onKeyDown={(event) => {
              // Digits 1–5 open the project with that number, as the menu's hints say.
              const target = shown[Number(event.key) - 1];
              if (!target || event.altKey || event.ctrlKey || event.metaKey) return;
              event.preventDefault();
              switchTo(target.project_uuid);
            }}
          >
            <DropdownMenuLabel className="flex items-center justify-between gap-2 text-muted-foreground text-xs">
              <span>Projects</span>
              {shown.length > 1 ? <span className="font-normal">press a number to switch</span> : null}
            </DropdownMenuLabel>
            {shown.map((item, index) => (
              <DropdownMenuItem key={item.project_uuid} asChild className="gap-2 p-2">
                <Link
                  to={`/projects/${item.project_uuid}`}
                  onClick={(event) => {
                    // A plain click switches; a modified one (new tab or window) follows the link to the project page.
                    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
                    event.preventDefault();
                    switchTo(item.project_uuid);
                  }}
                  data-testid="switcher-project"
                  aria-current={item.project_uuid === project?.project_uuid ? 'true' : undefined}
                >
                  <ProjectLogo project={item} className="size-6 rounded-md text-xs" />
                  <span className="truncate">{item.name}</span>
                  <ProjectStatusIcon status={item.status} />
                  <DropdownMenuShortcut>
                    {item.project_uuid === project?.project_uuid ? (
                      <Check className="size-4 text-primary" aria-label="Active project" />
                    ) : (
                      <kbd className="font-sans" title={`Press ${index + 1} to switch to this project`}>
                        <span className="sr-only">key </span>
                        {index + 1}
                      </kbd>
                    )}
                  </DropdownMenuShortcut>
                </Link>
              </DropdownMenuItem>
            ))}
            {shown.length === 0 ? (
              <div className="px-2 py-1.5 text-muted-foreground text-sm">You have no projects yet.</div>
            ) : null}
            <DropdownMenuSeparator />
            {project ? (
              <DropdownMenuItem asChild className="gap-2 p-2">
                <Link to={`/projects/${project.project_uuid}`} onClick={close}>
                  <Settings aria-hidden="true" />
                  Project settings
                </Link>
              </DropdownMenuItem>
            ) : null}
            <DropdownMenuItem asChild className="gap-2 p-2">
              <Link to="/new-project" onClick={close}>
                <Plus aria-hidden="true" />
                New project
              </Link>
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </SidebarMenuItem>
    </SidebarMenu>
  );
}
