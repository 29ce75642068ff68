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
import type { Protocol } from '../api';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const P = 'pppppppp-0000-4000-8000-000000000001';
const LIST = `/api/projects/${A}/protocols/`;
const ONE = `${LIST}${P}/`;
const ada = { id: 1, display_name: 'Ada L' };
const bo = { id: 2, display_name: 'Bo K' };

const MOVEMENT_DEFAULTS = {
  rois: [{ start_s: 0, x: 10, y: 20, width: 100, height: 80 }],
  bypass_ranges: [],
  threshold: 20,
  opening: 0,
  closing: 0,
  small_object_removal: 0,
  event_threshold_k: 3,
  event_threshold: null,
  refractory_s: 0.5,
  freeze_threshold: null,
  min_freeze_s: 1,
  bin_s: 60,
};

interface Stored {
  name: string;
  parameters: Record<string, unknown>;
  by: { id: number; display_name: string };
  at: string;
}

/** The app around the protocol pages, with one movement protocol whose versions `versions` are (oldest first). */
function serve({
  role = 'member' as 'owner' | 'member' | 'viewer',
  versions = [{ name: 'Freezing', parameters: MOVEMENT_DEFAULTS, by: ada, at: '2026-03-05T12:00:00Z' }] as Stored[],
  refuse = null as Record<string, string[]> | null,
  batches = [] as unknown[],
} = {}) {
  const stored = [...versions];
  let deleted = false;
  const answer = (version: number): Protocol => {
    const shown = stored[version - 1]!;
    const current = stored.length;
    return {
      protocol_uuid: P,
      project_uuid: A,
      name: shown.name,
      kind: 'movement_detection',
      version,
      current_version: current,
      parameters: shown.parameters,
      created_by: stored[0]!.by,
      created_at: stored[0]!.at,
      version_created_by: shown.by,
      version_created_at: shown.at,
      versions: stored
        .map((item, i) => ({ version: i + 1, name: item.name, created_by: item.by, created_at: item.at }))
        .reverse(),
    };
  };
  const owned = { ...project(A, 'Alpha'), role };
  const mock = mockFetch({
    'GET /api/projects/': () => json(page([owned])),
    [`GET /api/projects/${A}/`]: () => json(owned),
    'GET /api/config/': () => json({ support_email: 's@lab.org', docs_url: '/docs', billing_enabled: false }),
    [`GET /api/projects/${A}/analysis/`]: () => json({ ...page([]), count: 7 }),
    [`GET ${LIST}`]: () => {
      if (deleted) return json(page([]));
      const { versions: _versions, ...summary } = answer(stored.length);
      return json(page([summary]));
    },
    [`GET ${ONE}`]: (url) => {
      if (deleted) return json({ errors: 'Not found.' }, 404);
      const version = Number(new URL(url, 'http://x').searchParams.get('version')) || stored.length;
      return json(answer(version));
    },
    [`POST ${LIST}`]: (_url, init) => {
      if (refuse) return json({ errors: refuse }, 400);
      const body = JSON.parse(String(init.body)) as { name: string; parameters: Record<string, unknown> };
      stored.splice(0, stored.length, {
        name: body.name,
        parameters: body.parameters,
        by: ada,
        at: '2026-03-06T12:00:00Z',
      });
      return json(answer(1), 201);
    },
    [`PATCH ${ONE}`]: (_url, init) => {
      if (refuse) return json({ errors: refuse }, 400);
      const body = JSON.parse(String(init.body)) as { name: string; parameters: Record<string, unknown> };
      stored.push({ name: body.name, parameters: body.parameters, by: bo, at: '2026-03-07T12:00:00Z' });
      return json(answer(stored.length));
    },
    [`GET /api/projects/${A}/batches/`]: (url) =>
      json(page(new URL(url, 'http://x').searchParams.get('protocol_uuid') === P ? batches : [])),
    [`GET ${ONE}results/`]: () => json(acrossBatches),
    [`DELETE ${ONE}`]: () => {
      deleted = true;
      return json(null, 204);
    },
  });
  return mock;
}

const acrossBatches = {
  kind: 'movement_detection',
  layout: 'wide',
  columns: [
    { name: 'batch_uuid', role: 'id', unit: null },
    { name: 'subject', role: 'id', unit: null },
    { name: 'video', role: 'id', unit: null },
    { name: 'detected_events', role: 'measure', unit: 'events' },
  ],
  measures: [{ name: 'detected_events', unit: 'events', meaning: 'Events the detector found' }],
  count: 2,
  next: null,
  previous: null,
  results: [
    ['b-1', 'M1', 'Day 1', 4],
    ['b-2', 'M1', 'Day 1', 6],
  ],
};

const batchSummary = (uuid: string, version: number) => ({
  batch_uuid: uuid,
  project_uuid: A,
  protocol_uuid: P,
  protocol_name: 'Freezing',
  protocol_version: version,
  kind: 'movement_detection',
  selection: {},
  created_by: null,
  created_at: '2026-03-08T12:00:00Z',
  status: 'finished',
  counts: { videos: 1, queued: 0, running: 0, succeeded: 1, failed: 0, revoked: 0 },
  progress: 1,
  eta_s: null,
});

function signedIn() {
  tokens.set('A', 'R');
  sessionStore.setUser(testUser);
  localStorage.setItem('activeProjectUuid', A);
}

function renderWithToasts(path: string) {
  const view = renderApp(path);
  render(
    <ThemeProvider>
      <Toaster />
    </ThemeProvider>,
  );
  return view;
}

const bodyOf = (calls: { method: string; url: string; init: RequestInit }[], method: string) =>
  JSON.parse(String(calls.find((c) => c.method === method)!.init.body)) as Record<string, unknown>;

describe('the protocol pages', { timeout: 30_000 }, () => {
  beforeEach(() => {
    queryClient.clear();
    sessionStore.reset();
  });

  it('lists each protocol with its kind, current version and who saved it when', async () => {
    serve({
      versions: [
        { name: 'Freezing', parameters: MOVEMENT_DEFAULTS, by: ada, at: '2026-03-05T12:00:00Z' },
        { name: 'Freezing', parameters: { ...MOVEMENT_DEFAULTS, threshold: 25 }, by: bo, at: '2026-03-07T12:00:00Z' },
      ],
    });
    signedIn();
    renderApp(`/projects/${A}/protocols`);
    const row = await screen.findByTestId('protocol-row');
    expect(within(row).getByRole('link', { name: 'Freezing' }).getAttribute('href')).toBe(
      `/projects/${A}/protocols/${P}`,
    );
    expect(within(row).getByText('Movement detection')).toBeTruthy();
    expect(within(row).getByTestId('protocol-version').textContent).toBe('v2');
    expect(within(row).getByText(/^March 7, 2026 at .* by Bo K$/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'New protocol' })).toBeTruthy();
  });

  it('a viewer reads the list and a protocol but has no write control', async () => {
    serve({ role: 'viewer' });
    signedIn();
    const { router } = renderApp(`/projects/${A}/protocols`);
    await screen.findByTestId('protocol-row');
    expect(screen.queryByRole('link', { name: 'New protocol' })).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Actions for Freezing' }));
    expect(await screen.findByRole('menuitem', { name: 'Open' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Run on many videos' })).toBeNull();
    await user.keyboard('{Escape}');

    await router.navigate(`/projects/${A}/protocols/${P}`);
    expect(await screen.findByTestId('protocol-title')).toBeTruthy();
    expect(screen.getByTestId('protocol-parameters')).toBeTruthy();
    for (const name of ['Edit', 'Delete', 'Run on many videos']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
      expect(screen.queryByRole('link', { name })).toBeNull();
    }
  });

  it('makes a protocol directly in the chosen kind’s own form and opens it', async () => {
    const { calls } = serve();
    signedIn();
    const { router } = renderApp(`/projects/${A}/protocols/new`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Name'), 'Open field');
    await user.selectOptions(screen.getByLabelText('Kind'), 'event_detection');
    // Event detection's own fields (the re-run dialog's), not the Movement Detector's.
    expect(screen.queryByLabelText('Threshold')).toBeNull();
    const k = screen.getByLabelText('Threshold factor k');
    await user.clear(k);
    await user.type(k, '4.5');
    await user.click(screen.getByRole('button', { name: 'Save protocol' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${A}/protocols/${P}`));
    expect(bodyOf(calls, 'POST')).toEqual({
      name: 'Open field',
      kind: 'event_detection',
      parameters: { event_threshold_k: 4.5, event_threshold: null, refractory_s: 0.5 },
    });
  });

  it('shows a refused save’s messages by field: the name, and a parameter under its own control', async () => {
    serve({
      refuse: {
        name: ['This project already has a protocol named "Freezing" (names ignore case).'],
        'parameters.threshold': ['Must be between 0 and 255.'],
      },
    });
    signedIn();
    renderWithToasts(`/projects/${A}/protocols/new`);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Name'), 'freezing');
    await user.click(screen.getByRole('button', { name: 'Save protocol' }));
    const name = await screen.findByLabelText('Name');
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById('protocol-name-error')?.textContent).toMatch(/already has a protocol named/);
    expect(document.getElementById('md-param-threshold-error')?.textContent).toBe('Must be between 0 and 255.');
  });

  it('shows any version’s parameters in words, and an edit makes the next version', async () => {
    const { calls } = serve({
      versions: [
        { name: 'Freezing', parameters: MOVEMENT_DEFAULTS, by: ada, at: '2026-03-05T12:00:00Z' },
        { name: 'Freezing', parameters: { ...MOVEMENT_DEFAULTS, threshold: 25 }, by: bo, at: '2026-03-06T12:00:00Z' },
      ],
    });
    signedIn();
    renderWithToasts(`/projects/${A}/protocols/${P}`);
    const list = await screen.findByTestId('protocol-parameters');
    expect(within(list).getByText('Pixel change threshold').nextElementSibling?.textContent).toBe('25');
    expect(screen.getByTestId('protocol-run-count').textContent).toBe('7 runs made from this protocol.');
    const rows = screen.getAllByTestId('protocol-version-row');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^v2 · FreezingMarch 6, 2026 .* · Bo K$/),
      expect.stringMatching(/^v1 · FreezingMarch 5, 2026 .* · Ada L$/),
    ]);

    const user = userEvent.setup();
    await user.click(rows[1]!);
    await waitFor(() =>
      expect(
        within(screen.getByTestId('protocol-parameters')).getByText('Pixel change threshold').nextElementSibling
          ?.textContent,
      ).toBe('20'),
    );
    expect(screen.getByRole('heading', { name: 'Version 1' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Edit from version 1' }));
    const threshold = screen.getByLabelText('Threshold');
    await user.clear(threshold);
    await user.type(threshold, '30');
    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'Freezing strict');
    await user.click(screen.getByRole('button', { name: 'Save new version' }));
    expect(await screen.findByText('Saved as version 3')).toBeTruthy();
    const patch = bodyOf(calls, 'PATCH') as { name: string; parameters: Record<string, unknown> };
    expect(patch.name).toBe('Freezing strict');
    // Whole parameters: the kept ROI goes along unchanged.
    expect(patch.parameters).toEqual({ ...MOVEMENT_DEFAULTS, threshold: 30 });
    await waitFor(() => expect(screen.getByTestId('protocol-current-version').textContent).toBe('v3'));
    expect(screen.getByRole('heading', { name: 'Version 3' })).toBeTruthy();
  });

  it('lists the protocol’s batches and its results across them, one row per run of any batch', async () => {
    const { calls } = serve({ batches: [batchSummary('b-2', 2), batchSummary('b-1', 1)] });
    signedIn();
    renderApp(`/projects/${A}/protocols/${P}`);
    const section = await screen.findByTestId('results-section');
    expect(within(section).getByText('Results across its batches')).toBeTruthy();
    const rows = await within(section).findAllByTestId('result-row');
    expect(rows.map((row) => within(row).getByTestId('result-detected_events').textContent)).toEqual(['4', '6']);
    const batches = screen.getByTestId('protocol-batches');
    expect(
      within(batches)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([`/projects/${A}/batches/b-2`, `/projects/${A}/batches/b-1`]);
    expect(calls.some((c) => c.url.includes(`/protocols/${P}/results/?format=json`))).toBe(true);
  });

  it('deletes after a confirmation that says its runs are kept', async () => {
    const { calls } = serve();
    signedIn();
    const { router } = renderWithToasts(`/projects/${A}/protocols/${P}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this protocol?' });
    expect(within(dialog).getByText(/Its runs are kept/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${A}/protocols`));
    expect(await screen.findByText('Protocol “Freezing” deleted; its runs are kept')).toBeTruthy();
    expect(await screen.findByText('No protocols yet')).toBeTruthy();
  });
});
