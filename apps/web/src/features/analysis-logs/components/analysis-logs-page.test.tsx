import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/sonner';
import type { AnalysisRun } from '@/features/analysis/api';
import { sessionStore } from '@/features/auth/session';
import { ThemeProvider } from '@/features/theme/theme-provider';
import { queryClient } from '@/lib/query-client';
import { tokens } from '@/lib/tokens';
import { json, mockFetch } from '@/test/http';
import { page, project, renderApp, testUser } from '@/test/render';

// The page is a lazy route: on a busy machine its first render takes longer than the default second.

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const LIST = `/api/projects/${A}/analysis/`;
const S1 = 'subject-1';
const S2 = 'subject-2';
const V1 = 'video-1';

const movementParameters = {
  rois: [{ start_s: 0, x: 10, y: 20, width: 100, height: 80 }],
  bypass_ranges: [[5, 7.5]],
  threshold: 20,
  opening: 3,
  closing: 0,
  small_object_removal: 0,
  event_threshold_k: 3,
  event_threshold: null,
  refractory_s: 0.5,
  freeze_threshold: null,
  min_freeze_s: 1,
  bin_s: 60,
};

/** A finished run's counts: `kept` of `detected` after review, the rest discarded (and flagged). */
const counts = (detected: number, kept = detected): AnalysisRun['event_counts'] => ({
  detected,
  detected_rate_per_min: 10.5,
  kept,
  kept_rate_per_min: 9,
  discarded: detected - kept,
  flagged: detected - kept,
  added: 0,
  reviewed: detected - kept,
  unlabelled: kept,
  by_label: {},
});

function makeRun(uuid: string, patch: Partial<AnalysisRun> = {}): AnalysisRun {
  return {
    analysis_uuid: uuid,
    project_uuid: A,
    subject_uuid: S1,
    video_uuid: V1,
    subject_name: 'M12',
    video_name: 'Session 1',
    kind: 'movement_detection',
    parameters: movementParameters,
    source_analysis_uuid: null,
    source_series: null,
    protocol_uuid: null,
    protocol_version: null,
    status: 'succeeded',
    progress: 1,
    error: null,
    software_version: 'app 1.0.0; movement 1; events 1; ffmpeg 7.1',
    created_by: { id: 1, display_name: 'Ada L' },
    // Midday UTC: March 5 in every time zone from UTC−11 to UTC+11.
    created_at: '2026-03-05T12:00:00Z',
    started_at: '2026-03-05T14:07:01Z',
    finished_at: '2026-03-05T14:08:16Z',
    duration_s: 75,
    summary: {
      samples: 1200,
      valid_samples: 1150,
      duration_s: 40,
      events: 7,
      event_rate_per_min: 10.5,
      threshold: 12.25,
      noise_top: 4.083,
      freezing: null,
      frames_per_second: 812.4,
    },
    event_count: 7,
    event_counts: counts(7, 6),
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

/** Serves the app around the page; `runs` answers the list calls (its query decides). */
function serve({
  runs = (_query: URLSearchParams): AnalysisRun[] => [],
  subjects = [subject(S1, 'M12'), subject(S2, 'F07')],
  role = 'owner' as 'owner' | 'viewer',
  routes = {} as Parameters<typeof mockFetch>[0],
} = {}) {
  const owned = { ...project(A, 'Alpha'), role };
  return mockFetch({
    'GET /api/projects/': () => json(page([owned])),
    [`GET /api/projects/${A}/`]: () => json(owned),
    [`GET /api/projects/${A}/subjects/`]: () => json(page(subjects)),
    'GET /api/config/': () => json({ support_email: 's@lab.org', docs_url: '/docs', billing_enabled: false }),
    [`GET ${LIST}`]: (url) => json(page(runs(new URL(url, 'http://app').searchParams))),
    ...routes,
  });
}

function signedIn() {
  tokens.set('A', 'R');
  sessionStore.setUser(testUser);
  localStorage.setItem('activeProjectUuid', A);
}

const listCalls = (calls: { method: string; url: string }[]) =>
  calls.filter((c) => c.method === 'GET' && c.url.startsWith(LIST)).map((c) => new URL(c.url, 'http://app'));

const rowOf = (uuid: string) => document.querySelector<HTMLElement>(`[data-run="${uuid}"]`)!;

describe('Analysis Logs', { timeout: 30_000 }, () => {
  beforeEach(() => {
    queryClient.clear();
    sessionStore.reset();
  });

  it('lists runs with readable kinds, who, when, duration, events, progress of a running run and why one failed', async () => {
    serve({
      runs: () => [
        makeRun('run-ok'),
        makeRun('run-going', {
          kind: 'event_detection',
          status: 'running',
          progress: 0.426,
          duration_s: null,
          summary: null,
          event_count: null,
          event_counts: null,
          source_analysis_uuid: 'run-ok',
        }),
        makeRun('run-broken', {
          kind: 'timeseries_import',
          status: 'failed',
          error: 'Row 12: value abc is not a number.',
          duration_s: null,
          summary: null,
          event_count: null,
          event_counts: null,
        }),
      ],
    });
    signedIn();
    renderApp(`/projects/${A}/analysis-logs`);

    const table = await screen.findByRole('table', { name: 'Analysis runs' });
    await waitFor(() => expect(within(table).getAllByTestId('run-row')).toHaveLength(3));
    const ok = rowOf('run-ok');
    expect(within(ok).getByText('Movement detection')).toBeTruthy();
    expect(within(ok).getByText('Succeeded')).toBeTruthy();
    expect(within(ok).getByTestId('run-by').textContent).toBe('Ada L');
    expect(within(ok).getByTestId('run-when').textContent).toMatch(/^March 5, 2026 at \d{1,2}:\d\d [AP]M$/);
    expect(within(ok).getByTestId('run-duration').textContent).toBe('01:15');
    expect(within(ok).getByTestId('run-events').textContent).toBe('7 detected · 6 kept');

    const going = rowOf('run-going');
    expect(within(going).getByText('Event detection')).toBeTruthy();
    expect(within(going).getByTestId('run-status').dataset.status).toBe('running');
    expect(within(going).getByRole('progressbar', { name: 'Run progress' }).getAttribute('aria-valuenow')).toBe('42');
    expect(within(going).getByTestId('run-progress').textContent).toBe('42%');
    expect(within(going).getByTestId('run-events').textContent).toBe('—');

    const broken = rowOf('run-broken');
    expect(within(broken).getByText('Time series import')).toBeTruthy();
    expect(within(broken).getByText('Failed')).toBeTruthy();
    expect(within(broken).getByTestId('run-error').textContent).toBe('Row 12: value abc is not a number.');
  });

  it('expands a row to every parameter, the software version, the source run and the summary', async () => {
    serve({ runs: () => [makeRun('run-ok', { source_analysis_uuid: 'abcdef12-3456-4000-8000-000000000000' })] });
    signedIn();
    renderApp(`/projects/${A}/analysis-logs`);
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Show details of Movement detection of Session 1 (M12)' }),
    );
    const details = await screen.findByTestId('run-details');
    const value = (key: string) => details.querySelector(`[data-key="${key}"]`)?.textContent;
    expect(value('rois')).toBe('From 0 s: 100×80 px at (10, 20)');
    expect(value('bypass_ranges')).toBe('5–7.5 s');
    expect(value('opening')).toBe('3×3 px');
    expect(value('closing')).toBe('Off');
    expect(value('event_threshold')).toBe('Not set (k is used)');
    expect(value('refractory_s')).toBe('0.5 s');
    expect(within(details).getByText('Pixel change threshold')).toBeTruthy();
    expect(within(details).getByTestId('software-version').textContent).toBe(
      'app 1.0.0; movement 1; events 1; ffmpeg 7.1',
    );
    const source = within(details).getByRole('link', { name: 'abcdef12' });
    expect(source.getAttribute('href')).toBe(
      `/projects/${A}/movement-detector?subject=${S1}&video=${V1}&run=abcdef12-3456-4000-8000-000000000000`,
    );
    // The counts, detected beside after review, said once (not again as the summary's "Events").
    const fact = (key: string) => within(details).getByTestId(`event-counts-${key}`).querySelector('dd')?.textContent;
    expect(fact('detected')).toBe('7 events · 10.5 per minute');
    expect(fact('kept')).toBe('6 kept · 9 per minute');
    expect(fact('review')).toBe('1 discarded · 1 flagged · 0 added by hand');
    expect(value('events')).toBeUndefined();
    expect(value('samples')).toBe('1150 valid of 1200');
  });

  it('shows the failure reason in the expanded row', async () => {
    serve({ runs: () => [makeRun('run-broken', { status: 'failed', error: 'ffmpeg could not decode frame 300.' })] });
    signedIn();
    renderApp(`/projects/${A}/analysis-logs`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Show details of/ }));
    const alert = within(await screen.findByTestId('run-details')).getByRole('alert');
    expect(alert.textContent).toContain('ffmpeg could not decode frame 300.');
  });

  it('sends the filters of the URL and of the selects, keeps them in the URL, and clears them', async () => {
    const { calls } = serve({ runs: () => [makeRun('run-ok')] });
    signedIn();
    const { router } = renderApp(`/projects/${A}/analysis-logs?status=failed`);
    await screen.findByRole('table', { name: 'Analysis runs' });
    await waitFor(() => expect(listCalls(calls).length).toBeGreaterThan(0));
    expect(listCalls(calls)[0]!.searchParams.get('status')).toBe('failed');

    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Kind'), 'Event detection');
    await waitFor(() =>
      expect(listCalls(calls).some((u) => u.searchParams.get('kind') === 'event_detection')).toBe(true),
    );
    const subjectSelect = screen.getByLabelText('Subject');
    await waitFor(() => expect(within(subjectSelect).getByRole('option', { name: 'F07' })).toBeTruthy());
    await user.selectOptions(subjectSelect, 'F07');
    await waitFor(() => {
      const last = listCalls(calls).at(-1)!;
      expect(last.searchParams.get('subject')).toBe(S2);
      expect(last.searchParams.get('kind')).toBe('event_detection');
      expect(last.searchParams.get('status')).toBe('failed');
    });
    const search = new URLSearchParams(router.state.location.search);
    expect([search.get('kind'), search.get('status'), search.get('subject')]).toEqual([
      'event_detection',
      'failed',
      S2,
    ]);

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => {
      const last = listCalls(calls).at(-1)!;
      expect(['kind', 'status', 'subject'].map((k) => last.searchParams.get(k))).toEqual([null, null, null]);
    });
  });

  it('pages through the runs with the page in the URL', async () => {
    // 60 runs over pages of 25: three pages.
    const { calls } = serve({
      routes: {
        [`GET ${LIST}`]: () => json({ count: 60, next: null, previous: null, results: [makeRun('run-x')] }),
      },
    });
    signedIn();
    const { router } = renderApp(`/projects/${A}/analysis-logs`);
    await screen.findByText('1–25 of 60');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('26–50 of 60');
    expect(new URLSearchParams(router.state.location.search).get('page')).toBe('2');
    await waitFor(() => expect(listCalls(calls).at(-1)!.searchParams.get('page')).toBe('2'));
    expect(listCalls(calls).at(-1)!.searchParams.get('page_size')).toBe('25');
  });

  it('revokes a running run only after confirmation, then shows it revoked', async () => {
    let status: AnalysisRun['status'] = 'running';
    const { calls } = serve({
      runs: () => [makeRun('run-going', { status, progress: 0.3, duration_s: null, event_count: null })],
      routes: {
        [`POST /api/projects/${A}/subjects/${S1}/videos/${V1}/analysis/run-going/revoke/`]: () => {
          status = 'revoked';
          return json(makeRun('run-going', { status: 'revoked', progress: 0.3, duration_s: null, event_count: null }));
        },
      },
    });
    signedIn();
    renderApp(`/projects/${A}/analysis-logs`);
    const user = userEvent.setup();
    // From the row menu (as on phones) first, then cancel: nothing is sent.
    await user.click(await screen.findByRole('button', { name: 'Actions for Movement detection of Session 1 (M12)' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Revoke' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke this run?' });
    const revokeCalls = () => calls.filter((c) => c.method === 'POST' && c.url.endsWith('/revoke/'));
    expect(revokeCalls()).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(revokeCalls()).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Revoke Movement detection of Session 1 (M12)' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Revoke run' }));
    await waitFor(() => expect(revokeCalls()).toHaveLength(1));
    await waitFor(() => expect(within(rowOf('run-going')).getByTestId('run-status').dataset.status).toBe('revoked'));
    expect(within(rowOf('run-going')).getByText('Revoked')).toBeTruthy();
    expect(within(rowOf('run-going')).queryByRole('progressbar')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Revoke / })).toBeNull();
  });

  it('deletes a run to the trash after a confirmation that says so; the log refreshes without it', async () => {
    let runs = [makeRun('run-ok'), makeRun('run-other', { video_name: 'Session 2' })];
    const { calls } = serve({
      runs: () => runs,
      routes: {
        [`DELETE /api/projects/${A}/subjects/${S1}/videos/${V1}/analysis/run-ok/`]: () => {
          runs = runs.filter((r) => r.analysis_uuid !== 'run-ok');
          return json(null, 204);
        },
        'GET /api/config/': () =>
          json({ support_email: 's@lab.org', docs_url: '/docs', billing_enabled: false, trash_days: 30 }),
      },
    });
    signedIn();
    renderApp(`/projects/${A}/analysis-logs`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for Movement detection of Session 1 (M12)' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete run' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this run?' });
    expect(dialog.textContent).toContain(
      'Movement detection of Session 1 (M12) and its events go. It is moved to the trash for 30 days; restore it from Trash.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete run' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1));
    await waitFor(() => expect(screen.getAllByTestId('run-row')).toHaveLength(1));
    expect(rowOf('run-other')).toBeTruthy();
  });

  it('re-runs with the same parameters: movement detection as is, event detection on the same source', async () => {
    const posted: unknown[] = [];
    const create = (_url: string, init: RequestInit) => {
      posted.push(JSON.parse(String(init.body)));
      return json(makeRun('run-new', { status: 'queued' }), 201);
    };
    const eventParameters = { event_threshold_k: 4.5, event_threshold: null, refractory_s: 1.25 };
    serve({
      runs: () => [
        makeRun('run-ok'),
        makeRun('run-events', {
          kind: 'event_detection',
          parameters: eventParameters,
          source_analysis_uuid: 'run-ok',
        }),
      ],
      routes: { [`POST /api/projects/${A}/subjects/${S1}/videos/${V1}/analysis/`]: create },
    });
    signedIn();
    renderApp(`/projects/${A}/analysis-logs`);
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Actions for Movement detection of Session 1 (M12)' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Re-run with the same parameters' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ kind: 'movement_detection', parameters: movementParameters });

    await user.click(screen.getByRole('button', { name: 'Actions for Event detection of Session 1 (M12)' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Re-run with the same parameters' }));
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1]).toEqual({ kind: 'event_detection', source_analysis_uuid: 'run-ok', parameters: eventParameters });
  });

  it('offers result, Quick Score and edited movement re-runs as links to the tools', async () => {
    serve({ runs: () => [makeRun('run-ok')] });
    signedIn();
    renderApp(`/projects/${A}/analysis-logs`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Actions for/ }));
    const query = `subject=${S1}&video=${V1}&run=run-ok`;
    expect((await screen.findByRole('menuitem', { name: 'Open result' })).getAttribute('href')).toBe(
      `/projects/${A}/movement-detector?${query}`,
    );
    expect(screen.getByRole('menuitem', { name: 'Quick Score' }).getAttribute('href')).toBe(
      `/projects/${A}/quick-score?${query}`,
    );
    expect(screen.getByRole('menuitem', { name: 'Re-run with edited parameters' }).getAttribute('href')).toBe(
      `/projects/${A}/movement-detector?${query}&edit=1`,
    );
  });

  it('opens an event detection on a pose series on the Pose page, naming the series it read', async () => {
    const seriesUuid = 'abcdef12-3456-4000-8000-000000000000';
    serve({
      runs: () => [
        makeRun('run-events', {
          kind: 'event_detection',
          parameters: { event_threshold_k: 3, event_threshold: null, refractory_s: 0.5 },
          source_analysis_uuid: seriesUuid,
          source_series: {
            analysis_uuid: seriesUuid,
            kind: 'pose_series',
            pose: {
              measure: 'distance',
              parts: [
                { individual: 'mouse1', part: 'nose' },
                { individual: 'single', part: 'object' },
              ],
              unit: 'cm',
            },
          },
        }),
      ],
    });
    signedIn();
    renderApp(`/projects/${A}/analysis-logs`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Actions for/ }));
    expect((await screen.findByRole('menuitem', { name: 'Open result' })).getAttribute('href')).toBe(
      `/projects/${A}/pose?subject=${S1}&video=${V1}&run=run-events`,
    );
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: /^Show details of Event detection/ }));
    const details = await screen.findByTestId('run-details');
    expect(within(details).getByTestId('run-series').textContent).toBe('Distance mouse1 · nose–single · object (cm)');
    expect(within(details).getByRole('link', { name: 'abcdef12' }).getAttribute('href')).toBe(
      `/projects/${A}/pose?subject=${S1}&video=${V1}&run=${seriesUuid}`,
    );
  });

  it('re-runs event detection on a time series import with edited parameters', async () => {
    const posted: unknown[] = [];
    serve({
      runs: () => [
        makeRun('run-import', {
          kind: 'timeseries_import',
          parameters: { event_threshold_k: 3, event_threshold: null, refractory_s: 0.5 },
        }),
      ],
      routes: {
        [`POST /api/projects/${A}/subjects/${S1}/videos/${V1}/analysis/`]: (_url, init) => {
          posted.push(JSON.parse(String(init.body)));
          return json(makeRun('run-new', { kind: 'event_detection', status: 'queued' }), 201);
        },
      },
    });
    signedIn();
    renderApp(`/projects/${A}/analysis-logs`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Actions for/ }));
    // An import cannot be repeated without its file: its re-run detects events again on its series.
    expect(await screen.findByRole('menuitem', { name: 'Detect events again' })).toBeTruthy();
    await user.click(screen.getByRole('menuitem', { name: 'Re-run with edited parameters' }));
    const dialog = await screen.findByRole('dialog', { name: 'Re-run event detection' });
    const k = within(dialog).getByLabelText('Threshold factor k');
    expect((k as HTMLInputElement).value).toBe('3');
    await user.clear(k);
    await user.type(k, '12');
    await user.click(within(dialog).getByRole('button', { name: 'Start re-run' }));
    expect(within(dialog).getByText('Give a number from 1 to 10.')).toBeTruthy();
    expect(posted).toHaveLength(0);

    await user.clear(k);
    await user.type(k, '4');
    await user.type(within(dialog).getByLabelText('Absolute threshold'), '15');
    const refractory = within(dialog).getByLabelText('Refractory period (s)');
    await user.clear(refractory);
    await user.type(refractory, '2');
    await user.click(within(dialog).getByRole('button', { name: 'Start re-run' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      kind: 'event_detection',
      source_analysis_uuid: 'run-import',
      parameters: { event_threshold_k: 4, event_threshold: 15, refractory_s: 2 },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('saves the dialog’s settings as a protocol: a name, the refused name shown by field, the link in the toast', async () => {
    const posted: { name: string; kind: string; parameters: Record<string, unknown> }[] = [];
    const protocolUuid = 'pppppppp-0000-4000-8000-000000000009';
    serve({
      runs: () => [
        makeRun('run-events', {
          kind: 'event_detection',
          source_analysis_uuid: 'run-source',
          parameters: { event_threshold_k: 3, event_threshold: null, refractory_s: 0.5, freeze_threshold: 40 },
        }),
      ],
      routes: {
        [`POST /api/projects/${A}/protocols/`]: (_url, init) => {
          const body = JSON.parse(String(init.body)) as (typeof posted)[number];
          posted.push(body);
          if (body.name === 'Taken') {
            return json(
              { errors: { name: ['This project already has a protocol named "Taken" (names ignore case).'] } },
              400,
            );
          }
          return json({ protocol_uuid: protocolUuid, name: body.name, kind: body.kind, version: 1, versions: [] }, 201);
        },
      },
    });
    signedIn();
    const { router } = renderApp(`/projects/${A}/analysis-logs`);
    render(
      <ThemeProvider>
        <Toaster />
      </ThemeProvider>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Actions for/ }));
    await user.click(screen.getByRole('menuitem', { name: 'Re-run with edited parameters' }));
    const rerun = await screen.findByRole('dialog', { name: 'Re-run event detection' });
    const k = within(rerun).getByLabelText('Threshold factor k');
    await user.clear(k);
    await user.type(k, '5');
    await user.click(within(rerun).getByRole('button', { name: 'Save as protocol' }));

    const naming = await screen.findByRole('dialog', { name: 'Save as protocol' });
    await user.type(within(naming).getByLabelText('Protocol name'), 'Taken');
    await user.click(within(naming).getByRole('button', { name: 'Save protocol' }));
    await waitFor(() =>
      expect(within(naming).getByLabelText('Protocol name').getAttribute('aria-invalid')).toBe('true'),
    );
    expect(within(naming).getByText(/already has a protocol named "Taken"/)).toBeTruthy();

    const name = within(naming).getByLabelText('Protocol name');
    await user.clear(name);
    await user.type(name, 'Twitches k5');
    await user.click(within(naming).getByRole('button', { name: 'Save protocol' }));
    const link = await screen.findByTestId('protocol-link');
    expect(link.textContent).toBe('Twitches k5');
    expect(link.getAttribute('href')).toBe(`/projects/${A}/protocols/${protocolUuid}`);
    // The settings shown, the run's freezing summary kept, as event detection's protocol.
    expect(posted[1]).toEqual({
      name: 'Twitches k5',
      kind: 'event_detection',
      parameters: { event_threshold_k: 5, event_threshold: null, refractory_s: 0.5, freeze_threshold: 40 },
    });
    // The re-run dialog stays open for a re-run; closed, the toast's link opens the protocol.
    await user.click(within(rerun).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${A}/protocols/${protocolUuid}`));
  });

  it('gives viewers no revoke or re-run controls', async () => {
    serve({ role: 'viewer', runs: () => [makeRun('run-going', { status: 'running', progress: 0.1 })] });
    signedIn();
    renderApp(`/projects/${A}/analysis-logs`);
    await screen.findByTestId('run-row');
    expect(screen.queryByRole('button', { name: /^Revoke/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Actions for/ })).toBeNull();
  });

  it('downloads the project summary as CSV', async () => {
    const { calls } = serve({
      routes: {
        [`GET /api/projects/${A}/analysis/export/`]: () =>
          new Response('subject,group,video,analysis_uuid\n', {
            headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="summary.csv"' },
          }),
      },
    });
    // jsdom neither makes object URLs nor follows download links: record what the page hands the browser.
    const saved: string[] = [];
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = () => 'blob:summary';
    URL.revokeObjectURL = () => {};
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(`${this.download} ${this.href}`);
    });
    try {
      signedIn();
      renderApp(`/projects/${A}/analysis-logs`);
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Export the project summary as CSV' }));
      await waitFor(() => expect(saved).toEqual(['summary.csv blob:summary']));
      const exportCall = calls.find((c) => c.url.startsWith(`/api/projects/${A}/analysis/export/`))!;
      expect(new URL(exportCall.url, 'http://app').searchParams.get('format')).toBe('csv');
    } finally {
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
    }
  });

  describe('empty states', () => {
    it('without subjects, leads to Subjects', async () => {
      serve({ subjects: [] });
      signedIn();
      renderApp(`/projects/${A}/analysis-logs`);
      expect(await screen.findByText('No subjects yet')).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Go to Subjects' }).getAttribute('href')).toBe(`/projects/${A}/subjects`);
    });

    it('without runs, leads to the Movement Detector', async () => {
      serve();
      signedIn();
      renderApp(`/projects/${A}/analysis-logs`);
      expect(await screen.findByText('No analysis runs yet')).toBeTruthy();
      expect(screen.getByRole('link', { name: 'Open the Movement Detector' }).getAttribute('href')).toBe(
        `/projects/${A}/movement-detector`,
      );
    });

    it('when the filters match nothing, clears them', async () => {
      serve({ runs: (query) => (query.get('kind') ? [] : [makeRun('run-ok')]) });
      signedIn();
      const { router } = renderApp(`/projects/${A}/analysis-logs?kind=event_detection`);
      expect(await screen.findByText('No runs match these filters')).toBeTruthy();
      const user = userEvent.setup();
      const clear = screen.getAllByRole('button', { name: 'Clear filters' });
      await user.click(clear.at(-1)!);
      await waitFor(() => expect(router.state.location.search).toBe(''));
      expect(await screen.findByTestId('run-row')).toBeTruthy();
    });
  });
});
