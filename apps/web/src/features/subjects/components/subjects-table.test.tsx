import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionStore } from '@/features/auth/session';
import { queryClient } from '@/lib/query-client';
import { tokens } from '@/lib/tokens';
import { json, mockFetch } from '@/test/http';
import { page, project, renderApp, testUser } from '@/test/render';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const LIST = `/api/projects/${A}/subjects/`;

const subject = (uuid: string, name: string, group = 'control') => ({
  subject_uuid: uuid,
  project_uuid: A,
  name,
  group,
  notes: '',
  metadata: {},
  video_count: 1,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});

/** The subjects page's server: `live` is the project's list, which the deletes below shrink. */
function serve(role: 'owner' | 'member' | 'viewer' = 'owner') {
  let live = [subject('s1', 'M12'), subject('s2', 'M13'), subject('s3', 'F07', 'knockout')];
  const owned = { ...project(A, 'Alpha'), role };
  const fetched = mockFetch({
    'GET /api/projects/': () => json(page([owned])),
    [`GET /api/projects/${A}/`]: () => json(owned),
    'GET /api/config/': () => json({ support_email: 's@lab.org', docs_url: '/docs', billing_enabled: false }),
    [`GET ${LIST}`]: () => json(page(live)),
    [`POST ${LIST}bulk-delete/`]: (_url, init) => {
      const { subject_uuids } = JSON.parse(String(init.body)) as { subject_uuids: string[] };
      live = live.filter((s) => !subject_uuids.includes(s.subject_uuid));
      return json(null, 204);
    },
    [`DELETE ${LIST}s3/`]: () => {
      live = live.filter((s) => s.subject_uuid !== 's3');
      return json(null, 204);
    },
  });
  return fetched;
}

function signedIn() {
  tokens.set('A', 'R');
  sessionStore.setUser(testUser);
  localStorage.setItem('activeProjectUuid', A);
}

// The first render loads the lazy routes, which can take a while on a busy machine.
const FIRST = { timeout: 25_000 };
const rows = () =>
  within(screen.getByRole('table', { name: 'Subjects' }))
    .getAllByRole('row')
    .slice(1);

describe('the subjects list', { timeout: 60_000 }, () => {
  beforeEach(() => {
    queryClient.clear();
    sessionStore.reset();
  });

  it('deletes the selected subjects at once after asking, and the list follows', async () => {
    const { calls } = serve();
    signedIn();
    renderApp(`/projects/${A}/subjects`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Select M12' }, FIRST));
    await user.click(screen.getByRole('checkbox', { name: 'Select M13' }));
    expect(screen.getByText('2 selected')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Delete selected' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete 2 subjects?' });
    expect(dialog.textContent).toContain('Their videos and analyses go too.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(rows().map((row) => row.textContent)).toEqual([expect.stringContaining('F07')]));
    const bulk = calls.find((call) => call.method === 'POST');
    expect(JSON.parse(String(bulk?.init.body))).toEqual({ subject_uuids: ['s1', 's2'] });
    expect(screen.queryByText(/selected/)).toBeNull();
  });

  it('deletes one subject from its row menu', async () => {
    const { calls } = serve();
    signedIn();
    renderApp(`/projects/${A}/subjects`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for F07' }, FIRST));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual([
      'Open',
      'Edit',
      'Delete',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this subject?' });
    expect(dialog.textContent).toContain('Its videos and analyses go too.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(calls.some((call) => call.method === 'DELETE' && call.url.endsWith(`${LIST}s3/`))).toBe(true);
  });

  it('sorts by a column, saying the order to assistive technology', async () => {
    const { calls } = serve();
    signedIn();
    renderApp(`/projects/${A}/subjects`);
    const user = userEvent.setup();
    const name = await screen.findByRole('columnheader', { name: /Name/ }, FIRST);
    expect(name.getAttribute('aria-sort')).toBe('ascending');
    await user.click(within(name).getByRole('button'));
    await waitFor(() => expect(name.getAttribute('aria-sort')).toBe('descending'));
    await waitFor(() =>
      expect(calls.some((call) => new URL(call.url, 'http://app').searchParams.get('ordering') === '-name')).toBe(true),
    );
  });

  it('lets a viewer open subjects but not select, edit or delete them', async () => {
    serve('viewer');
    signedIn();
    renderApp(`/projects/${A}/subjects`);
    const user = userEvent.setup();
    const box = (await screen.findByRole('checkbox', { name: 'Select M12' }, FIRST)) as HTMLButtonElement;
    expect(box.disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Actions for M12' }));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['Open']);
  });
});
