import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SectionError } from '@/components/layout/error-boundary';
import { sessionStore } from '@/features/auth/session';
import { queryClient } from '@/lib/query-client';
import { tokens } from '@/lib/tokens';
import { json, mockFetch } from '@/test/http';
import { Providers, page, project, renderApp, testUser } from '@/test/render';

const user = testUser;
const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';

function serve(projects = [project(A, 'Alpha'), project(B, 'Beta')]) {
  return mockFetch({
    'GET /api/projects/': () => json(page(projects)),
    [`GET /api/projects/${A}/`]: () => json(projects.find((p) => p.project_uuid === A)),
    [`GET /api/projects/${B}/`]: () => json(projects.find((p) => p.project_uuid === B)),
    [`GET /api/projects/${A}/subjects/`]: () => json(page([])),
    [`GET /api/projects/${B}/subjects/`]: () => json(page([])),
    [`GET /api/projects/${A}/videos/`]: () => json(page([])),
    [`GET /api/projects/${B}/videos/`]: () => json(page([])),
    'GET /api/config/': () => json({ support_email: 's@lab.org', docs_url: '/docs', billing_enabled: false }),
    'POST /api/auth/login/': () => json({ access: 'A', refresh: 'R', user }),
  });
}

function signedIn() {
  tokens.set('A', 'R');
  sessionStore.setUser(user);
}

describe('routes and guards (spec §2)', () => {
  beforeEach(() => {
    queryClient.clear();
    sessionStore.reset();
  });

  it('sends signed-out users to /auth/login and back to the page they asked for', async () => {
    serve();
    await act(async () => {
      const { initSession } = await import('@/features/auth/session');
      await initSession();
    });
    const { router } = renderApp('/profile');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    const { login } = await import('@/features/auth/session');
    await act(() => login('ada@lab.org', 'pw'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
  });

  it('has the Agreement view under the project, its short form rewritten like the other sections', async () => {
    serve();
    localStorage.setItem('activeProjectUuid', B);
    signedIn();
    const { router } = renderApp('/agreement?subject=s1');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${B}/agreement`));
    expect(router.state.location.search).toBe('?subject=s1');
    expect(await screen.findByRole('heading', { name: 'Agreement', level: 1 })).toBeTruthy();
  });

  it('rewrites a short path with the active project inserted', async () => {
    serve();
    localStorage.setItem('activeProjectUuid', B);
    signedIn();
    const { router } = renderApp('/subjects?search=m#x');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${B}/subjects`));
    expect(router.state.location.search).toBe('?search=m');
    expect(router.state.location.hash).toBe('#x');
  });

  it('makes the project in the path the active one', async () => {
    serve();
    localStorage.setItem('activeProjectUuid', B);
    signedIn();
    renderApp(`/projects/${A}/annotator`);
    await waitFor(() => expect(localStorage.getItem('activeProjectUuid')).toBe(A));
    expect(await screen.findByRole('heading', { name: /Annotator/ })).toBeTruthy();
  });

  it('sends a user without projects from project routes to /', async () => {
    serve([]);
    signedIn();
    const { router } = renderApp('/quick-score');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { name: /Welcome/ })).toBeTruthy();
  });

  it('shows the not-found page for unknown paths', async () => {
    serve();
    signedIn();
    renderApp('/nowhere/at/all');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });

  it("shows 'Error' / 'Something went wrong.' when a section crashes", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    function Boom(): never {
      throw new Error('kaboom');
    }
    const router = createMemoryRouter([{ path: '/', Component: Boom, errorElement: <SectionError /> }]);
    render(
      <Providers>
        <RouterProvider router={router} />
      </Providers>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Error');
    expect(alert.textContent).toContain('Something went wrong.');
  });
});

describe('loading', () => {
  it("shows the 'Loading...' spinner while the session loads", async () => {
    queryClient.clear();
    sessionStore.reset();
    serve();
    renderApp('/profile');
    expect((await screen.findByRole('status')).textContent).toBe('Loading...');
  });
});

describe('read-only projects', () => {
  it('viewers and locked projects get no create, edit or delete controls for subjects', async () => {
    queryClient.clear();
    sessionStore.reset();
    const viewer = { ...project(A, 'Alpha'), role: 'viewer' as const };
    const subject = {
      subject_uuid: 's1',
      project_uuid: A,
      name: 'M12',
      group: 'control',
      notes: '',
      metadata: {},
      video_count: 0,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
    };
    mockFetch({
      'GET /api/projects/': () => json(page([viewer])),
      [`GET /api/projects/${A}/`]: () => json(viewer),
      [`GET /api/projects/${A}/subjects/`]: () => json(page([subject])),
    });
    localStorage.setItem('activeProjectUuid', A);
    signedIn();
    renderApp(`/projects/${A}/subjects`);
    expect(await screen.findByRole('link', { name: 'M12' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'New subject' })).toBeNull());
    expect((screen.getByRole('checkbox', { name: 'Select M12' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('members delete subjects one at a time: selecting for a bulk delete is for owners and admins', {
    timeout: 30_000,
  }, async () => {
    const subject = {
      subject_uuid: 's1',
      project_uuid: A,
      name: 'M12',
      group: 'control',
      notes: '',
      metadata: {},
      video_count: 0,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
    };
    const user = userEvent.setup();
    for (const role of ['member', 'admin'] as const) {
      queryClient.clear();
      sessionStore.reset();
      const scoped = { ...project(A, 'Alpha'), role };
      mockFetch({
        'GET /api/projects/': () => json(page([scoped])),
        [`GET /api/projects/${A}/`]: () => json(scoped),
        [`GET /api/projects/${A}/subjects/`]: () => json(page([subject])),
      });
      localStorage.setItem('activeProjectUuid', A);
      signedIn();
      const view = renderApp(`/projects/${A}/subjects`);
      expect(await screen.findByRole('link', { name: 'M12' })).toBeTruthy();
      await waitFor(() => expect(screen.getByRole('button', { name: 'New subject' })).toBeTruthy());
      const select = screen.getByRole('checkbox', { name: 'Select M12' }) as HTMLButtonElement;
      expect(select.disabled).toBe(role === 'member');
      if (role === 'admin') {
        await user.click(select);
        expect(await screen.findByRole('button', { name: 'Delete selected' })).toBeTruthy();
      }
      // Both still delete the one subject from its menu.
      await user.click(screen.getByRole('button', { name: 'Actions for M12' }));
      expect(await screen.findByRole('menuitem', { name: 'Delete' })).toBeTruthy();
      view.unmount();
    }
  });
});
