import { act, render, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionStore } from '@/features/auth/session';
import { queryClient } from '@/lib/query-client';
import { json, mockFetch } from '@/test/http';
import { Providers, page, project, testUser } from '@/test/render';
import { useActiveProject } from './active-project-context';

const user = testUser;
const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';

let latest: ReturnType<typeof useActiveProject> | null = null;
function Probe() {
  latest = useActiveProject();
  return null;
}

function mount() {
  render(
    <Providers>
      <Probe />
    </Providers>,
  );
}

describe('active project (spec §4)', () => {
  beforeEach(() => {
    latest = null;
    queryClient.clear();
    sessionStore.reset();
  });

  it('fetches nothing while signed out, and loads while auth loads', () => {
    localStorage.setItem('activeProjectUuid', A);
    const { calls } = mockFetch({});
    mount();
    expect(latest!.isLoading).toBe(true);
    act(() => sessionStore.reset());
    expect(calls).toHaveLength(0);
  });

  it('prefetches the stored project after sign-in and caches it under project-<uuid>', async () => {
    localStorage.setItem('activeProjectUuid', B);
    const { calls } = mockFetch({
      'GET /api/projects/': () => new Promise(() => {}),
      [`GET /api/projects/${B}/`]: () => json(project(B, 'Beta')),
    });
    mount();
    act(() => sessionStore.setUser(user));
    await waitFor(() => expect(latest!.project?.name).toBe('Beta'));
    expect(calls.some((c) => c.url === `/api/projects/${B}/`)).toBe(true);
    expect(JSON.parse(localStorage.getItem(`project-${B}`)!).name).toBe('Beta');
    expect(latest!.isLoading).toBe(false);
  });

  it('shows the cached copy while the project is fetched', async () => {
    localStorage.setItem('activeProjectUuid', A);
    localStorage.setItem(`project-${A}`, JSON.stringify(project(A, 'Cached Alpha')));
    mockFetch({
      'GET /api/projects/': () => new Promise(() => {}),
      [`GET /api/projects/${A}/`]: () => new Promise(() => {}),
    });
    mount();
    act(() => sessionStore.setUser(user));
    await waitFor(() => expect(latest!.project?.name).toBe('Cached Alpha'));
    expect(latest!.isLoading).toBe(true);
  });

  it('chooses the first project when the stored one is not the user’s, and writes it back', async () => {
    localStorage.setItem('activeProjectUuid', 'not-mine');
    mockFetch({
      'GET /api/projects/': () => json(page([project(A, 'Alpha'), project(B, 'Beta')])),
      [`GET /api/projects/${A}/`]: () => json(project(A, 'Alpha')),
    });
    mount();
    act(() => sessionStore.setUser(user));
    await waitFor(() => expect(latest!.activeProjectUuid).toBe(A));
    expect(localStorage.getItem('activeProjectUuid')).toBe(A);
  });

  it('setting it to nothing removes the stored key', async () => {
    localStorage.setItem('activeProjectUuid', A);
    mockFetch({ 'GET /api/projects/': () => new Promise(() => {}) });
    mount();
    act(() => latest!.setActiveProjectUuid(null));
    expect(localStorage.getItem('activeProjectUuid')).toBeNull();
    act(() => latest!.setActiveProjectUuid(B));
    expect(localStorage.getItem('activeProjectUuid')).toBe(B);
  });

  it('forgetting a deleted project clears the active project and its cached copy', async () => {
    localStorage.setItem('activeProjectUuid', A);
    localStorage.setItem(`project-${A}`, '{}');
    mockFetch({
      'GET /api/projects/': () => json(page([project(A, 'Alpha')])),
      [`GET /api/projects/${A}/`]: () => json(project(A, 'Alpha')),
    });
    mount();
    act(() => sessionStore.setUser(user));
    await waitFor(() => expect(latest!.projects).toHaveLength(1));
    act(() => latest!.forgetProject(A));
    await waitFor(() => expect(latest!.activeProjectUuid).toBeNull());
    expect(localStorage.getItem('activeProjectUuid')).toBeNull();
    expect(localStorage.getItem(`project-${A}`)).toBeNull();
    expect(latest!.projects).toHaveLength(0);
  });
});
