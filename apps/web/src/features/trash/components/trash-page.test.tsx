import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { Toaster } from '@/components/ui/sonner';
import { sessionStore } from '@/features/auth/session';
import { ThemeProvider } from '@/features/theme/theme-provider';
import { queryClient } from '@/lib/query-client';
import { tokens } from '@/lib/tokens';
import { json, mockFetch } from '@/test/http';
import { page, project, renderApp, testUser } from '@/test/render';
import type { TrashItem } from '../api';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const TRASH = `/api/projects/${A}/trash/`;
const SUBJECT = 'bbbbbbbb-0000-4000-8000-000000000002';
const VIDEO = 'cccccccc-0000-4000-8000-000000000003';

const nothing = { videos: 0, analyses: 0, events: 0, annotation_tracks: 0 };

function item(uuid: string, patch: Partial<TrashItem> = {}): TrashItem {
  return {
    item_uuid: uuid,
    kind: 'subject',
    name: 'M12',
    deleted_by: { id: 1, email: 'ada@lab.org', display_name: 'Ada L' },
    // Midday UTC: the same calendar day in every time zone from UTC−11 to UTC+11.
    deleted_at: '2026-03-05T12:00:00Z',
    purge_at: '2026-04-04T12:00:00Z',
    subject_uuid: uuid,
    video_uuid: null,
    contains: nothing,
    ...patch,
  };
}

const subject = (uuid: string, name: string) => ({
  subject_uuid: uuid,
  project_uuid: A,
  name,
  group: 'control',
  notes: '',
  metadata: {},
  video_count: 1,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
});

/** The app around the Trash page; `items` is what the trash holds (restore and empty change it). */
function serve({
  items = [] as TrashItem[],
  role = 'owner' as 'owner' | 'admin' | 'member' | 'viewer',
  trashDays = 30 as number | undefined,
} = {}) {
  let trash = [...items];
  let subjects: ReturnType<typeof subject>[] = [];
  const owned = { ...project(A, 'Alpha'), role };
  const config = { support_email: 's@lab.org', docs_url: '/docs', billing_enabled: false, trash_days: trashDays };
  const mock = mockFetch({
    'GET /api/projects/': () => json(page([owned])),
    [`GET /api/projects/${A}/`]: () => json(owned),
    'GET /api/config/': () => json(config),
    [`GET ${TRASH}`]: () => json(page(trash)),
    [`GET /api/projects/${A}/subjects/`]: () => json(page(subjects)),
    [`POST ${TRASH}${SUBJECT}/restore/`]: () => {
      const restored = trash.find((t) => t.item_uuid === SUBJECT)!;
      trash = trash.filter((t) => t.item_uuid !== SUBJECT);
      subjects = [subject(SUBJECT, 'M12')];
      return json(restored);
    },
    [`DELETE ${TRASH}`]: () => {
      const purged = trash.length;
      trash = [];
      return json({ purged });
    },
  });
  return mock;
}

function signedIn() {
  tokens.set('A', 'R');
  sessionStore.setUser(testUser);
  localStorage.setItem('activeProjectUuid', A);
}

/** The app at `path` with the toasts it shows (main.tsx mounts the Toaster beside the router). */
function renderWithToasts(path: string) {
  const view = renderApp(path);
  render(
    <ThemeProvider>
      <Toaster />
    </ThemeProvider>,
  );
  return view;
}

const rowOf = (uuid: string) => document.querySelector<HTMLElement>(`[data-item="${uuid}"]`)!;

describe('the Trash page', { timeout: 30_000 }, () => {
  beforeEach(() => {
    queryClient.clear();
    sessionStore.reset();
  });

  it('lists each deleted item with its kind, name, what it took, who deleted it, when, and when it is purged', async () => {
    serve({
      items: [
        item(SUBJECT, { contains: { videos: 1, analyses: 2, events: 14, annotation_tracks: 1 } }),
        item(VIDEO, {
          kind: 'video',
          name: 'Session 1',
          subject_uuid: SUBJECT,
          video_uuid: VIDEO,
          deleted_by: null,
          contains: { videos: 1, analyses: 0, events: 0, annotation_tracks: 0 },
        }),
        item('dddddddd-0000-4000-8000-000000000004', { kind: 'analysis', name: 'Movement detection of Session 2' }),
        item('eeeeeeee-0000-4000-8000-000000000005', { kind: 'annotation_track', name: 'Grooming' }),
      ],
    });
    signedIn();
    renderApp(`/projects/${A}/trash`);

    const table = await screen.findByRole('table', { name: 'Trash' });
    await waitFor(() => expect(within(table).getAllByTestId('trash-row')).toHaveLength(4));
    const subjectRow = rowOf(SUBJECT);
    expect(within(subjectRow).getByText('Subject')).toBeTruthy();
    expect(within(subjectRow).getByTestId('trash-name').textContent).toBe('M12');
    expect(within(subjectRow).getByTestId('trash-contains').textContent).toBe(
      'With 1 video · 2 runs · 14 events · 1 track',
    );
    expect(within(subjectRow).getByTestId('trash-by').textContent).toBe('Ada L');
    expect(within(subjectRow).getByTestId('trash-deleted').textContent).toMatch(
      /^March 5, 2026 at \d{1,2}:\d\d [AP]M$/,
    );
    expect(within(subjectRow).getByTestId('trash-purge').textContent).toMatch(/^April 4, 2026 at \d{1,2}:\d\d [AP]M$/);
    expect(within(rowOf(VIDEO)).getByText('Video')).toBeTruthy();
    expect(within(rowOf(VIDEO)).getByTestId('trash-by').textContent).toBe('—');
    expect(within(rowOf(VIDEO)).queryByTestId('trash-contains')).toBeNull();
    expect(screen.getByText('Analysis run')).toBeTruthy();
    expect(screen.getByText('Annotation track')).toBeTruthy();
    expect(screen.getByText(/stay here for 30 days/)).toBeTruthy();
  });

  it('says how long things are kept as the server is configured', async () => {
    serve({ trashDays: 7 });
    signedIn();
    renderApp(`/projects/${A}/trash`);
    expect(await screen.findByText('The trash is empty')).toBeTruthy();
    expect(screen.getByText(/stay here for 7 days/)).toBeTruthy();
    // Nothing to purge: no Empty trash button.
    expect(screen.queryByRole('button', { name: 'Empty trash' })).toBeNull();
  });

  it('restores an item: a toast, the row leaves and the subject is back in the (cached) subjects list', async () => {
    const { calls } = serve({ items: [item(SUBJECT)] });
    signedIn();
    // The subjects list was loaded (empty) before the restore: it must not stay stale.
    const { router } = renderWithToasts(`/projects/${A}/subjects`);
    expect(await screen.findByText('No subjects yet')).toBeTruthy();
    await router.navigate(`/projects/${A}/trash`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Restore M12' }));

    expect(await screen.findByText('Subject “M12” restored')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.url === `${TRASH}${SUBJECT}/restore/`)).toBe(true);
    await waitFor(() => expect(screen.queryByTestId('trash-row')).toBeNull());
    await router.navigate(`/projects/${A}/subjects`);
    expect(await screen.findByRole('link', { name: 'M12' })).toBeTruthy();
  });

  it('empties the trash after a confirmation that says how many items go for good', async () => {
    const { calls } = serve({
      items: [item(SUBJECT), item(VIDEO, { kind: 'video', name: 'Session 1' })],
      role: 'admin',
    });
    signedIn();
    renderWithToasts(`/projects/${A}/trash`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Empty trash' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Empty the trash?' });
    expect(within(dialog).getByText(/^2 items are purged for good/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Empty trash' }));
    expect(await screen.findByText('Trash emptied')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE' && c.url === TRASH)).toHaveLength(1);
    expect(await screen.findByText('The trash is empty')).toBeTruthy();
  });

  it('a member restores but cannot empty the trash; a viewer sees neither', async () => {
    serve({ items: [item(SUBJECT)], role: 'member' });
    signedIn();
    const view = renderApp(`/projects/${A}/trash`);
    expect(await screen.findByRole('button', { name: 'Restore M12' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Empty trash' })).toBeNull();
    view.unmount();

    queryClient.clear();
    serve({ items: [item(SUBJECT)], role: 'viewer' });
    renderApp(`/projects/${A}/trash`);
    await waitFor(() => expect(screen.getAllByTestId('trash-row')).toHaveLength(1));
    expect(screen.queryByRole('button', { name: /^Restore/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Empty trash' })).toBeNull();
  });

  it('is linked from the sidebar', async () => {
    serve();
    signedIn();
    renderApp(`/projects/${A}/subjects`);
    const link = await screen.findByRole('link', { name: 'Trash' });
    expect(link.getAttribute('href')).toBe(`/projects/${A}/trash`);
  });
});
