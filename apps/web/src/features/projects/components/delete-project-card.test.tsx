import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionStore } from '@/features/auth/session';
import { queryClient } from '@/lib/query-client';
import { tokens } from '@/lib/tokens';
import { json, mockFetch } from '@/test/http';
import { page, project, renderApp, testUser } from '@/test/render';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
const DELETED = '/api/projects/?deleted=true&page_size=100';

function signedIn(active: string | null = A) {
  tokens.set('A', 'R');
  sessionStore.setUser(testUser);
  if (active) localStorage.setItem('activeProjectUuid', active);
}

const config = () => json({ support_email: 's@lab.org', docs_url: '/docs', billing_enabled: false, trash_days: 14 });

describe('deleting a project', { timeout: 30_000 }, () => {
  beforeEach(() => {
    queryClient.clear();
    sessionStore.reset();
  });

  it('asks for the project’s name typed exactly, says where it goes, sends the name, then leaves for / after 1 s', async () => {
    const alpha = project(A, 'Twitch study');
    let live = [alpha];
    const { calls } = mockFetch({
      'GET /api/projects/': () => json(page(live)),
      [`GET ${DELETED}`]: () => json(page([])),
      [`GET /api/projects/${A}/`]: () => json(alpha),
      [`GET /api/projects/${A}/members/`]: () => json(page([])),
      [`GET /api/projects/${A}/invitations/`]: () => json(page([])),
      'GET /api/config/': config,
      [`DELETE /api/projects/${A}/`]: (url) => {
        if (new URL(url, 'http://app').searchParams.get('confirm_name') !== 'Twitch study')
          return json({ errors: { confirm_name: ['Type the project’s name to delete it.'] } }, 400);
        live = [];
        return json(null, 204);
      },
    });
    signedIn();
    const { router } = renderApp(`/projects/${A}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete project' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete “Twitch study”?' });
    expect(dialog.textContent).toContain('moved to the trash for 14 days; restore it from Deleted projects');
    const confirm = within(dialog).getByRole('button', { name: 'Delete project' }) as HTMLButtonElement;
    const name = within(dialog).getByLabelText('Type Twitch study to confirm');

    expect(confirm.disabled).toBe(true);
    await user.type(name, 'twitch study');
    expect(confirm.disabled).toBe(true);
    await user.click(confirm);
    await user.clear(name);
    await user.type(name, 'Twitch study ');
    expect(confirm.disabled).toBe(true);
    await user.type(name, '{Backspace}');
    expect(confirm.disabled).toBe(false);
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(confirm);
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1));
    const sent = new URL(calls.find((c) => c.method === 'DELETE')!.url, 'http://app');
    expect(sent.pathname).toBe(`/api/projects/${A}/`);
    expect(sent.searchParams.get('confirm_name')).toBe('Twitch study');
    // Still on the project page right after the answer; on / a second later.
    expect(router.state.location.pathname).toBe(`/projects/${A}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 3000 });
    expect(localStorage.getItem('activeProjectUuid')).toBeNull();
  });

  it('the typed name starts empty each time the dialog opens', async () => {
    const alpha = project(A, 'Alpha');
    mockFetch({
      'GET /api/projects/': () => json(page([alpha])),
      [`GET /api/projects/${A}/`]: () => json(alpha),
      [`GET /api/projects/${A}/members/`]: () => json(page([])),
      [`GET /api/projects/${A}/invitations/`]: () => json(page([])),
      'GET /api/config/': config,
    });
    signedIn();
    renderApp(`/projects/${A}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete project' }));
    await user.type(await screen.findByLabelText('Type Alpha to confirm'), 'Alpha');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Delete project' }));
    expect((await screen.findByLabelText('Type Alpha to confirm')).getAttribute('value') ?? '').toBe('');
    const dialog = screen.getByRole('alertdialog');
    expect((within(dialog).getByRole('button', { name: 'Delete project' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('the owner’s deleted projects', { timeout: 30_000 }, () => {
  beforeEach(() => {
    queryClient.clear();
    sessionStore.reset();
  });

  it('are listed on the home page with when they are purged, and come back with Restore', async () => {
    const beta = project(B, 'Fear conditioning');
    const trashed = { ...beta, trash: { deleted_at: '2026-03-05T12:00:00Z', purge_at: '2026-04-04T12:00:00Z' } };
    let live: ReturnType<typeof project>[] = [];
    let deleted = [trashed];
    const { calls } = mockFetch({
      'GET /api/projects/': () => json(page(live)),
      [`GET ${DELETED}`]: () => json(page(deleted)),
      [`GET /api/projects/${B}/`]: () => json(beta),
      [`GET /api/projects/${B}/analysis/`]: () => json(page([])),
      [`GET /api/projects/${B}/videos/`]: () => json(page([])),
      'GET /api/users/profile/pending-invitations/': () => json([]),
      'GET /api/config/': config,
      [`POST /api/projects/${B}/restore/`]: () => {
        live = [beta];
        deleted = [];
        return json(beta);
      },
    });
    signedIn(null);
    renderApp('/');
    // No project left: the welcome screen, with the deleted one below.
    expect(await screen.findByRole('heading', { name: /^Welcome/ })).toBeTruthy();
    const card = await screen.findByTestId('deleted-projects');
    expect(within(card).getByText('Fear conditioning')).toBeTruthy();
    expect(within(card).getByText(/purged on April 4, 2026/)).toBeTruthy();
    expect(within(card).getByText(/wait here for 14 days/)).toBeTruthy();

    const user = userEvent.setup();
    await user.click(within(card).getByRole('button', { name: 'Restore Fear conditioning' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.url === `/api/projects/${B}/restore/`)).toBe(true),
    );
    // Back as the active project on the dashboard; the card is gone.
    expect(await screen.findByRole('heading', { name: 'Fear conditioning' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('deleted-projects')).toBeNull());
    expect(localStorage.getItem('activeProjectUuid')).toBe(B);
  });

  it('show nothing when the owner has none', async () => {
    const alpha = project(A, 'Alpha');
    mockFetch({
      'GET /api/projects/': () => json(page([alpha])),
      [`GET ${DELETED}`]: () => json(page([])),
      [`GET /api/projects/${A}/`]: () => json(alpha),
      'GET /api/config/': config,
    });
    signedIn();
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Alpha' })).toBeTruthy();
    expect(screen.queryByTestId('deleted-projects')).toBeNull();
  });
});
