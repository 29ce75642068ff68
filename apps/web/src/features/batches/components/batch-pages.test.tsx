import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { Toaster } from '@/components/ui/sonner';
import { sessionStore } from '@/features/auth/session';
import { ThemeProvider } from '@/features/theme/theme-provider';
import { queryClient } from '@/lib/query-client';
import { tokens } from '@/lib/tokens';
import { json, mockFetch } from '@/test/http';
import { page, project, renderApp, testUser } from '@/test/render';
import { type Batch, type BatchRun, batchQueries, type Results, type Statistics } from '../api';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const P = 'pppppppp-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000001';
const BATCH = `/api/projects/${A}/batches/${B}/`;

const subject = (uuid: string, name: string, group: string) => ({
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
const video = (uuid: string, subjectUuid: string, name: string, status = 'ready') => ({
  video_uuid: uuid,
  subject_uuid: subjectUuid,
  project_uuid: A,
  name,
  original_filename: `${name}.mp4`,
  size_bytes: 1000,
  duration_s: 5,
  fps: 30,
  frame_count: 150,
  width: 320,
  height: 240,
  codec: 'h264',
  container: 'mp4',
  status,
  error: null,
  thumbnail_url: null,
  stream_url: `/api/stream/${uuid}`,
  playback: 'original',
  playback_copy: { state: 'not_needed', progress: 1, error: null },
  recorded_at: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  job: null,
});
const SUBJECTS = [subject('s1', 'C1', 'control'), subject('s2', 'C2', 'control'), subject('s3', 'T1', 'treated')];
const VIDEOS = [
  video('v1', 's1', 'C1 day 1'),
  video('v2', 's2', 'C2 day 1'),
  video('v3', 's3', 'T1 day 1'),
  video('v4', 's3', 'T1 day 2', 'processing'),
];
const ROI = { start_s: 0, x: 0, y: 0, width: 200, height: 240 };
const protocol = {
  protocol_uuid: P,
  project_uuid: A,
  name: 'Jumps',
  kind: 'movement_detection',
  version: 2,
  current_version: 2,
  parameters: { rois: [ROI], bypass_ranges: [], threshold: 20, event_threshold_k: 3, refractory_s: 0.5 },
  created_by: null,
  created_at: '2026-03-01T12:00:00Z',
  version_created_by: null,
  version_created_at: '2026-03-01T12:00:00Z',
  versions: [],
};

const run = (video_uuid: string, subject_name: string, patch: Partial<BatchRun> = {}): BatchRun => ({
  video_uuid,
  video_name: `${subject_name} day 1`,
  subject_uuid: `s-${subject_name}`,
  subject_name,
  group: subject_name.startsWith('C') ? 'control' : 'treated',
  analysis_uuid: `run-${video_uuid}`,
  attempt: 1,
  status: 'succeeded',
  progress: 1,
  error: null,
  overrides: null,
  created_at: '2026-03-02T12:00:00Z',
  started_at: null,
  finished_at: null,
  ...patch,
});

function batchOf(runs: BatchRun[], patch: Partial<Batch> = {}): Batch {
  const count = (status: string) => runs.filter((item) => item.status === status).length;
  return {
    batch_uuid: B,
    project_uuid: A,
    protocol_uuid: P,
    protocol_name: 'Jumps',
    protocol_version: 2,
    kind: 'movement_detection',
    selection: { group: 'control' },
    created_by: { id: 1, display_name: 'Ada L' },
    created_at: '2026-03-02T12:00:00Z',
    status: runs.some((item) => item.status === 'queued' || item.status === 'running') ? 'running' : 'finished',
    counts: {
      videos: runs.length,
      queued: count('queued'),
      running: count('running'),
      succeeded: count('succeeded'),
      failed: count('failed'),
      revoked: count('revoked'),
    },
    progress: 0.5,
    eta_s: 125,
    runs,
    ...patch,
  };
}

const results: Results = {
  kind: 'movement_detection',
  layout: 'wide',
  columns: [
    { name: 'batch_uuid', role: 'id', unit: null },
    { name: 'subject', role: 'id', unit: null },
    { name: 'subject_uuid', role: 'id', unit: null },
    { name: 'group', role: 'id', unit: null },
    { name: 'video', role: 'id', unit: null },
    { name: 'video_uuid', role: 'id', unit: null },
    { name: 'analysis_uuid', role: 'id', unit: null },
    { name: 'reviewed', role: 'id', unit: null },
    { name: 'detected_events', role: 'measure', unit: 'events' },
    { name: 'detected_rate_per_min', role: 'measure', unit: 'events/min' },
  ],
  measures: [
    { name: 'detected_events', unit: 'events', meaning: 'Events the detector found' },
    { name: 'detected_rate_per_min', unit: 'events/min', meaning: 'Events per minute' },
  ],
  count: 2,
  next: null,
  previous: null,
  results: [
    [B, 'C1', 's1', 'control', 'C1 day 1', 'v1', 'run-v1', false, 3, 36.00000000001],
    [B, 'T1', 's3', 'treated', 'T1 day 1', 'v3', 'run-v3', true, 7, 84],
  ],
};

const descriptives = (group: string, mean: number) => ({
  group,
  n: 3,
  mean,
  sd: 1.5,
  sem: 0.866,
  median: mean,
  q1: mean - 1,
  q3: mean + 1,
  iqr: 2,
});
const statistics: Statistics = {
  kind: 'movement_detection',
  groups: ['control', 'treated'],
  runs: 6,
  runs_without_group: 1,
  measures: [
    {
      name: 'detected_events',
      unit: 'events',
      groups: [descriptives('control', 3), descriptives('treated', 7)],
      tests: [
        {
          test: "Welch's t-test",
          statistic_name: 't',
          statistic: -3.2659863,
          df1: 4,
          df2: null,
          p: 0.0309,
          note: null,
        },
        {
          test: 'Mann–Whitney U test (exact)',
          statistic_name: 'U',
          statistic: 0,
          df1: null,
          df2: null,
          p: 0.1,
          note: null,
        },
        { test: "Hedges' g (exact J)", statistic_name: 'g', statistic: -2.1, df1: 4, df2: null, p: null, note: null },
      ],
    },
    {
      name: 'detected_rate_per_min',
      unit: 'events/min',
      groups: [descriptives('control', 36), descriptives('treated', 84)],
      tests: [],
    },
  ],
};

function serve({ batch = batchOf([run('v1', 'C1')]), refuse = null as Record<string, string[]> | null } = {}) {
  const owned = { ...project(A, 'Alpha'), role: 'member' as const };
  let current = batch;
  return mockFetch({
    'GET /api/projects/': () => json(page([owned])),
    [`GET /api/projects/${A}/`]: () => json(owned),
    'GET /api/config/': () => json({ support_email: 's@lab.org', docs_url: '/docs', billing_enabled: false }),
    [`GET /api/projects/${A}/protocols/${P}/`]: () => json(protocol),
    [`GET /api/projects/${A}/subjects/`]: () => json(page(SUBJECTS)),
    [`GET /api/projects/${A}/videos/`]: () => json(page(VIDEOS)),
    [`POST /api/projects/${A}/batches/`]: () => (refuse ? json({ errors: refuse }, 400) : json(current, 201)),
    [`POST /api/projects/${A}/batches/check/`]: (_url, init) => {
      if (refuse) return json({ errors: refuse }, 400);
      const body = JSON.parse(String(init.body)) as { group?: string };
      const names = body.group === 'control' ? ['v1', 'v2'] : ['v1', 'v2', 'v3'];
      return json({
        protocol_uuid: P,
        protocol_version: 2,
        kind: 'movement_detection',
        runs: names.map((uuid) => ({
          video_uuid: uuid,
          video_name: uuid,
          subject_name: uuid,
          parameters: protocol.parameters,
          notices: uuid === 'v2' ? ['Bypass range 2 was cut at the video’s end (5 s).'] : [],
        })),
      });
    },
    [`GET ${BATCH}`]: () => json(current),
    [`POST ${BATCH}retry/`]: () => {
      current = batchOf(
        current.runs.map((item) => (item.status === 'failed' ? { ...item, status: 'queued', attempt: 2 } : item)),
      );
      return json(current);
    },
    [`POST ${BATCH}stop/`]: () => {
      current = batchOf(
        current.runs.map((item) =>
          item.status === 'running' || item.status === 'queued' ? { ...item, status: 'revoked' } : item,
        ),
      );
      return json(current);
    },
    [`GET ${BATCH}results/`]: () => json(results),
    [`GET ${BATCH}statistics/`]: () => json(statistics),
    [`GET ${BATCH}statistics/figure/`]: () =>
      new Response('<svg xmlns="http://www.w3.org/2000/svg"/>', { headers: { 'content-type': 'image/svg+xml' } }),
  });
}

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

const postedBody = (calls: { method: string; url: string; init: RequestInit }[]) =>
  JSON.parse(String(calls.filter((c) => c.method === 'POST').at(-1)!.init.body)) as Record<string, unknown>;

describe('the batch pages', { timeout: 30_000 }, () => {
  beforeEach(() => {
    queryClient.clear();
    sessionStore.reset();
    URL.createObjectURL = () => 'blob:figure';
    URL.revokeObjectURL = () => {};
  });

  it('shows the videos a scope matches before Start: ready ones only, by subject', async () => {
    serve();
    signedIn();
    renderApp(`/projects/${A}/batches/new?protocol=${P}`);
    expect(await screen.findByTestId('matched-count')).toHaveProperty('textContent', '3 videos match');
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('The videos of a subject group'));
    expect(screen.getByLabelText('Group', { selector: 'select' })).toHaveProperty('value', 'control');
    expect(screen.getByTestId('matched-count').textContent).toBe('2 videos match');
    await user.selectOptions(screen.getByLabelText('Group', { selector: 'select' }), 'treated');
    expect(screen.getByTestId('matched-count').textContent).toBe('1 video match');

    await user.click(screen.getByLabelText('The videos of chosen subjects'));
    expect(screen.getByTestId('matched-count').textContent).toBe('0 videos match');
    await user.click(screen.getByLabelText(/^C2/));
    expect(screen.getByTestId('matched-count').textContent).toBe('1 video match');

    await user.click(screen.getByLabelText('Videos I pick'));
    expect(screen.getByTestId('matched-count').textContent).toBe('0 videos picked');
    await user.click(screen.getByRole('checkbox', { name: 'Select T1 / T1 day 1' }));
    expect(screen.getByTestId('matched-count').textContent).toBe('1 video picked');
    expect(screen.getByRole('button', { name: 'Start 1 run' })).toBeTruthy();
  });

  it('adjusts one video — its ROI moved by numbers, a parameter overridden — and sends exactly that', async () => {
    const { calls } = serve();
    signedIn();
    const { router } = renderWithToasts(`/projects/${A}/batches/new?protocol=${P}`);
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('The videos of a subject group'));
    await user.click(screen.getByRole('button', { name: 'Adjust C2 / C2 day 1' }));
    const adjuster = await screen.findByTestId('video-adjuster');
    const overlay = within(adjuster).getByTestId('geometry-overlay');
    // The protocol's ROI is drawn by the Movement Detector's own shapes.
    expect(within(overlay).getByTestId('roi-active')).toBeTruthy();
    fireEvent.change(within(adjuster).getByLabelText('Right (px)'), { target: { value: '40' } });
    fireEvent.change(within(adjuster).getByLabelText('Scale (×)'), { target: { value: '0.5' } });
    expect(overlay.getAttribute('data-dx')).toBe('40');
    // Scaled about the ROI's centre (100, 120), then moved: x = 100 + 0.5·(0 − 100) + 40 = 90, width 100.
    const roi = within(overlay).getByTestId('roi-active').querySelector('rect')!;
    expect([roi.getAttribute('x'), roi.getAttribute('width')]).toEqual(['90', '100']);

    await user.selectOptions(within(adjuster).getByLabelText('Parameter'), 'threshold');
    await user.type(within(adjuster).getByLabelText('Value'), '35');
    await user.click(within(adjuster).getByRole('button', { name: 'Override' }));
    expect(within(adjuster).getByTestId('override').textContent).toMatch(/Threshold: 20 35/);
    const row = screen.getAllByTestId('batch-video-row')[1]!;
    expect(within(row).getByTestId('row-adjustment').textContent).toBe(
      'moved 40, 0 px · scaled ×0.5 · Pixel change threshold = 35',
    );

    await user.click(screen.getByRole('button', { name: 'Start 2 runs' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/projects/${A}/batches/${B}`));
    expect(postedBody(calls)).toEqual({
      protocol_uuid: P,
      protocol_version: 2,
      group: 'control',
      overrides: { v2: { geometry: { dx: 40, dy: 0, scale: 0.5, origin: [100, 120] }, parameters: { threshold: 35 } } },
    });
  });

  it('checks the request before Start: every video can run, the server’s notices on their rows; a change makes it stale', async () => {
    const { calls } = serve();
    signedIn();
    renderApp(`/projects/${A}/batches/new?protocol=${P}`);
    const user = userEvent.setup();
    await user.click(await screen.findByLabelText('The videos of a subject group'));
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByTestId('batch-checked')).toHaveProperty('textContent', 'All 2 videos can run as set.');
    expect(JSON.parse(String(calls.find((c) => c.url.endsWith('/check/'))!.init.body))).toEqual({
      protocol_uuid: P,
      protocol_version: 2,
      group: 'control',
    });
    const row = screen.getAllByTestId('batch-video-row')[1]!;
    expect(within(row).getByTestId('row-problems').textContent).toBe(
      'Bypass range 2 was cut at the video’s end (5 s).',
    );
    // Nothing was made.
    expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/batches/'))).toBe(false);
    await user.click(screen.getByLabelText('Every video of the project'));
    expect(screen.queryByTestId('batch-checked')).toBeNull();
  });

  it('shows a refused batch’s messages on the video they name; nothing starts', async () => {
    serve({ refuse: { 'videos.v2.parameters.rois': ['C2 / C2 day 1: ROI 1 reaches past the picture.'] } });
    signedIn();
    const { router } = renderWithToasts(`/projects/${A}/batches/new?protocol=${P}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Start 3 runs' }));
    const row = (await screen.findAllByTestId('batch-video-row'))[1]!;
    await waitFor(() =>
      expect(within(row).getByTestId('row-problems').textContent).toBe(
        'C2 / C2 day 1: ROI 1 reaches past the picture.',
      ),
    );
    expect(screen.getByTestId('batch-errors').textContent).toMatch(/1 video cannot run as set/);
    expect(router.state.location.pathname).toBe(`/projects/${A}/batches/new`);
  });

  it('follows a batch: progress and time left, each video’s status, failures with reasons, Retry and Stop', async () => {
    const { calls } = serve({
      batch: batchOf([
        run('v1', 'C1'),
        run('v2', 'C2', { status: 'failed', error: 'The video could not be read.' }),
        run('v3', 'T1', { status: 'running', progress: 0.4 }),
      ]),
    });
    signedIn();
    renderWithToasts(`/projects/${A}/batches/${B}`);
    expect(await screen.findByTestId('batch-counts')).toHaveProperty(
      'textContent',
      '2 of 3 finished · 1 failed · 1 running',
    );
    expect(screen.getByTestId('batch-percent').textContent).toBe('50%');
    expect(screen.getByTestId('batch-time-left').textContent).toBe('about 02:05 left');
    const rows = screen.getAllByTestId('batch-run-row');
    expect(rows.map((row) => within(row).getByTestId('run-status').getAttribute('data-status'))).toEqual([
      'succeeded',
      'failed',
      'running',
    ]);
    expect(within(screen.getByTestId('batch-failure')).getByText('The video could not be read.')).toBeTruthy();
    expect(
      within(rows[0]!).getByRole('link', { name: 'Open the run of C1 / C1 day 1' }).getAttribute('href'),
    ).toContain('run=run-v1');

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Stop this batch?' });
    expect(within(dialog).getByText(/1 run that has not finished is revoked/)).toBeTruthy();
    expect(calls.some((c) => c.url.endsWith('/stop/'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Stop batch' }));
    expect(await screen.findByText('Batch stopped')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('batch-progress').getAttribute('data-status')).toBe('finished'));

    await user.click(screen.getByRole('button', { name: 'Retry 2 failed videos' }));
    await waitFor(() => expect(calls.filter((c) => c.url.endsWith('/retry/'))).toHaveLength(1));
    expect(await screen.findByText('The failed videos run again')).toBeTruthy();
  });

  it('polls a running batch every second and stops when it has finished', () => {
    const options = batchQueries.detail(A, B);
    const interval = options.refetchInterval as (query: { state: { data: Batch | undefined } }) => number | false;
    expect(interval({ state: { data: batchOf([run('v1', 'C1', { status: 'running' })]) } })).toBe(1000);
    expect(interval({ state: { data: batchOf([run('v1', 'C1')]) } })).toBe(false);
  });

  it('shows the results table and, per measure, the group table, the tests and the plot', async () => {
    const { calls } = serve({ batch: batchOf([run('v1', 'C1'), run('v3', 'T1')]) });
    signedIn();
    renderApp(`/projects/${A}/batches/${B}`);
    const rows = await screen.findAllByTestId('result-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByTestId('result-detected_rate_per_min').textContent).toBe('36');
    expect(within(rows[0]!).getByTestId('result-reviewed').textContent).toBe('no');
    // Ids are for the files; the page names runs by subject and video.
    expect(screen.queryByText('analysis_uuid')).toBeNull();
    // One request for the page of rows, none per row.
    expect(calls.filter((c) => c.url.includes('/results/'))).toHaveLength(1);

    const statistics = screen.getByTestId('statistics-section');
    expect(await within(statistics).findByText(/1 run of subjects without a group is left out/)).toBeTruthy();
    const control = within(statistics).getAllByTestId('descriptives-row')[0]!;
    expect(within(control).getByTestId('stat-n').textContent).toBe('3');
    expect(within(control).getByTestId('stat-iqr').textContent).toBe('2 (2–4)');
    const tests = within(statistics).getAllByTestId('test-row');
    expect(tests.map((row) => [...row.querySelectorAll('td')].slice(1).map((cell) => cell.textContent))).toEqual([
      ['t = -3.266', '4', '0.0309', 't distribution'],
      ['U = 0', '—', '0.1', 'exact'],
      ['g = -2.1', '4', '—', '—'],
    ]);
    await waitFor(() => expect(within(statistics).getByRole('img').getAttribute('src')).toBe('blob:figure'));

    const user = userEvent.setup();
    await user.selectOptions(within(statistics).getByLabelText('Measure'), 'detected_rate_per_min');
    expect(within(statistics).getByText('One group: there is nothing to compare.')).toBeTruthy();
    await waitFor(() =>
      expect(calls.some((c) => c.url.includes('figure/?measure=detected_rate_per_min&format=svg'))).toBe(true),
    );
  });
});
