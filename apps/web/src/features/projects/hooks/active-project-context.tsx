import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useSession } from '@/features/auth/hooks/use-session';
import { projectCacheKey, readJson, readStorage, STORAGE_KEYS, writeStorage } from '@/lib/storage';
import { chooseActiveProject } from '../active-project';
import { type Project, projectQueries } from '../api';

type ActiveProjectValue = {
  activeProjectUuid: string | null;
  setActiveProjectUuid: (uuid: string | null) => void;
  /** The fetched project, falling back to the cached copy under "project-" + uuid. */
  project: Project | null;
  projects: Project[];
  projectsLoaded: boolean;
  isLoading: boolean;
  /** After a deletion: drop the project from the list and caches, clear the active project. */
  forgetProject: (uuid: string) => void;
  /** Projects deleted in this session (their page may stay on screen until the redirect). */
  deletedProjects: ReadonlySet<string>;
  /** After a restore from the trash: the project is an ordinary one again. */
  rememberProject: (uuid: string) => void;
};

const ActiveProjectContext = createContext<ActiveProjectValue | null>(null);

export function ActiveProjectProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const authenticated = session.status === 'authenticated';
  const authLoading = session.status === 'loading';

  // Read from local storage at start; written back on every change (null removes the key).
  const [activeProjectUuid, setActive] = useState<string | null>(() => readStorage(STORAGE_KEYS.activeProjectUuid));
  const setActiveProjectUuid = useCallback((uuid: string | null) => {
    writeStorage(STORAGE_KEYS.activeProjectUuid, uuid);
    setActive(uuid);
  }, []);

  // On every session change re-read the stored choice (logout removed it); after sign-in
  // prefetch that project while the list loads.
  useEffect(() => {
    if (session.status === 'loading') return;
    const stored = readStorage(STORAGE_KEYS.activeProjectUuid);
    setActive(stored);
    if (session.status === 'authenticated' && stored) void queryClient.prefetchQuery(projectQueries.detail(stored));
  }, [session.status, queryClient]);

  const [deletedProjects, setDeletedProjects] = useState<ReadonlySet<string>>(() => new Set());
  const forgetProject = useCallback(
    (uuid: string) => {
      setDeletedProjects((prev) => new Set([...prev, uuid]));
      writeStorage(projectCacheKey(uuid), null);
      setActiveProjectUuid(null);
      queryClient.setQueryData(projectQueries.list().queryKey, (page) =>
        page ? { ...page, count: page.count - 1, results: page.results.filter((p) => p.project_uuid !== uuid) } : page,
      );
    },
    [queryClient, setActiveProjectUuid],
  );

  const rememberProject = useCallback((uuid: string) => {
    setDeletedProjects((prev) => {
      if (!prev.has(uuid)) return prev;
      const next = new Set(prev);
      next.delete(uuid);
      return next;
    });
  }, []);

  const listQuery = useQuery({ ...projectQueries.list(), enabled: authenticated });
  const projects = useMemo(() => listQuery.data?.results ?? [], [listQuery.data]);

  // Keep the active project inside the user's list once it is known.
  useEffect(() => {
    if (!listQuery.data) return;
    const next = chooseActiveProject(
      activeProjectUuid,
      readStorage(STORAGE_KEYS.activeProjectUuid),
      projects.map((p) => p.project_uuid),
    );
    if (next !== activeProjectUuid) setActiveProjectUuid(next);
  }, [listQuery.data, projects, activeProjectUuid, setActiveProjectUuid]);

  const enabled = authenticated && !authLoading && !!activeProjectUuid;
  const projectQuery = useQuery({ ...projectQueries.detail(activeProjectUuid ?? ''), enabled });

  useEffect(() => {
    if (projectQuery.data) {
      writeStorage(projectCacheKey(projectQuery.data.project_uuid), JSON.stringify(projectQuery.data));
    }
  }, [projectQuery.data]);

  const cached = useMemo(
    () => (activeProjectUuid ? readJson<Project>(projectCacheKey(activeProjectUuid)) : null),
    [activeProjectUuid],
  );
  const project = (enabled ? projectQuery.data : undefined) ?? (authenticated ? cached : null) ?? null;

  const isLoading = authLoading || projectQuery.isLoading || (enabled && projectQuery.isPending);

  const value = useMemo<ActiveProjectValue>(
    () => ({
      activeProjectUuid,
      setActiveProjectUuid,
      project,
      projects,
      projectsLoaded: !authenticated || listQuery.isSuccess || listQuery.isError,
      isLoading,
      forgetProject,
      deletedProjects,
      rememberProject,
    }),
    [
      activeProjectUuid,
      setActiveProjectUuid,
      project,
      projects,
      authenticated,
      listQuery.isSuccess,
      listQuery.isError,
      isLoading,
      forgetProject,
      deletedProjects,
      rememberProject,
    ],
  );

  return <ActiveProjectContext.Provider value={value}>{children}</ActiveProjectContext.Provider>;
}

export function useActiveProject(): ActiveProjectValue {
  const value = useContext(ActiveProjectContext);
  if (!value) throw new Error('useActiveProject must be used inside ActiveProjectProvider');
  return value;
}
