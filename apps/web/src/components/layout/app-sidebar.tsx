import {
  Activity,
  Bone,
  BookMarked,
  ClipboardList,
  Crosshair,
  FolderKanban,
  Gauge,
  House,
  Layers,
  type LucideIcon,
  PenLine,
  ScanEye,
  Trash2,
  Users,
} from 'lucide-react';
import { NavLink, useLocation } from 'react-router';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarMenu,
  SidebarMenuBadge,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarRail,
  useSidebar,
} from '@/components/ui/sidebar';
import { ProjectSwitcher } from '@/features/projects/components/project-switcher';
import { useActiveProject } from '@/features/projects/hooks/active-project-context';
import { NavUser } from './nav-user';

type NavItem = { title: string; section: string | null; icon: LucideIcon; badge?: string };

/** The two sidebar groups of spec §1, and the experiments' (issue 23). `section` null is the dashboard (/). */
export const NAV_GROUPS: { label: string; items: NavItem[] }[] = [
  {
    label: 'General',
    items: [
      { title: 'Home', section: null, icon: House },
      { title: 'Subjects', section: 'subjects', icon: Users },
      { title: 'Analysis Logs', section: 'analysis-logs', icon: ClipboardList },
    ],
  },
  {
    label: 'Video Tools',
    items: [
      { title: 'Movement Detector', section: 'movement-detector', icon: Activity },
      { title: 'Location Tracker', section: 'location-tracker', icon: Crosshair },
      { title: 'Pose', section: 'pose', icon: Bone },
      { title: 'Quick Score', section: 'quick-score', icon: Gauge },
      { title: 'Annotator', section: 'annotator', icon: PenLine, badge: 'New' },
    ],
  },
  // Not in spec §1: whole experiments (issue 23, ADR 036), settings saved once and run on many videos.
  {
    label: 'Experiments',
    items: [
      { title: 'Protocols', section: 'protocols', icon: BookMarked },
      { title: 'Batches', section: 'batches', icon: Layers },
    ],
  },
];

export function sectionHref(section: string | null, projectUuid: string | null): string {
  if (section === null) return '/';
  return projectUuid ? `/projects/${projectUuid}/${section}` : `/${section}`;
}

export function AppSidebar() {
  const { activeProjectUuid, project } = useActiveProject();
  const { setOpenMobile } = useSidebar();
  const { pathname } = useLocation();
  const projectPage = activeProjectUuid ? `/projects/${activeProjectUuid}` : '/projects';
  const trashPage = sectionHref('trash', activeProjectUuid);

  return (
    <Sidebar>
      <SidebarHeader>
        <div className="flex items-center gap-2 px-2 pt-1 pb-1 group-data-[collapsible=icon]:hidden">
          <ScanEye className="size-4 text-primary" aria-hidden="true" />
          <span className="font-semibold text-sm tracking-tight">Subject Video Analysis</span>
        </div>
        <ProjectSwitcher />
      </SidebarHeader>
      <SidebarContent>
        <nav aria-label="Main">
          {NAV_GROUPS.map((group) => (
            <SidebarGroup key={group.label}>
              <SidebarGroupLabel>{group.label}</SidebarGroupLabel>
              <SidebarMenu>
                {group.items.map((item) => {
                  const href = sectionHref(item.section, activeProjectUuid);
                  const active = item.section === null ? pathname === '/' : pathname.split('/').includes(item.section);
                  return (
                    <SidebarMenuItem key={item.title}>
                      <SidebarMenuButton asChild isActive={active} tooltip={item.title}>
                        <NavLink to={href} onClick={() => setOpenMobile(false)} end={item.section === null}>
                          <item.icon aria-hidden="true" />
                          <span>{item.title}</span>
                        </NavLink>
                      </SidebarMenuButton>
                      {item.badge ? <SidebarMenuBadge>{item.badge}</SidebarMenuBadge> : null}
                    </SidebarMenuItem>
                  );
                })}
              </SidebarMenu>
            </SidebarGroup>
          ))}
          {project ? (
            <SidebarGroup>
              <SidebarGroupLabel>Project</SidebarGroupLabel>
              <SidebarMenu>
                <SidebarMenuItem>
                  <SidebarMenuButton
                    asChild
                    tooltip="Project settings"
                    isActive={/^\/projects\/[^/]+\/?$/.test(pathname)}
                  >
                    <NavLink to={projectPage} onClick={() => setOpenMobile(false)}>
                      <FolderKanban aria-hidden="true" />
                      <span>Project settings</span>
                    </NavLink>
                  </SidebarMenuButton>
                </SidebarMenuItem>
                <SidebarMenuItem>
                  <SidebarMenuButton asChild tooltip="Trash" isActive={pathname.split('/').includes('trash')}>
                    <NavLink to={trashPage} onClick={() => setOpenMobile(false)}>
                      <Trash2 aria-hidden="true" />
                      <span>Trash</span>
                    </NavLink>
                  </SidebarMenuButton>
                </SidebarMenuItem>
              </SidebarMenu>
            </SidebarGroup>
          ) : null}
        </nav>
      </SidebarContent>
      <SidebarFooter>
        <NavUser />
      </SidebarFooter>
      <SidebarRail />
    </Sidebar>
  );
}
