import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionStore } from '@/features/auth/session';
import { queryClient } from '@/lib/query-client';
import { tokens } from '@/lib/tokens';
import { json, mockFetch } from '@/test/http';
import { page, project, renderApp, testUser } from '@/test/render';
import type { AgreementReport } from '../api';

// A lazy route: on a busy machine its first render takes longer than the default second.

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const S = 'bbbbbbbb-0000-4000-8000-000000000002';
const V = 'cccccccc-0000-4000-8000-000000000003';
const RUN = 'dddddddd-0000-4000-8000-000000000004';
const TRACK = 'eeeeeeee-0000-4000-8000-000000000005';
const VIDEO_BASE = `/api/projects/${A}/subjects/${S}/videos/${V}/`;

const video = {
  video_uuid: V,
  subject_uuid: S,
  project_uuid: A,
  name: 'Session 1',
  original_filename: 's1.mp4',
  size_bytes: 1000,
  duration_s: 5,
  fps: 30,
  frame_count: 150,
  width: 320,
  height: 240,
  codec: 'h264',
  container: 'mp4',
  status: 'ready',
  error: null,
  thumbnail_url: null,
  stream_url: '',
  playback: 'original',
  playback_copy: { state: 'not_needed', progress: 1, error: null },
  recorded_at: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  job: null,
};

const report: AgreementReport = {
  reference: {
    kind: 'track',
    description: 'Annotation track "Hand"',
    analysis_uuid: null,
    annotation_config_uuid: TRACK,
    label: null,
    events: 3,
    ranges: 3,
  },
  candidate: {
    kind: 'run_reviewed',
    description: 'Movement detection of 2026-11-23 10:00 UTC, events as reviewed',
    analysis_uuid: RUN,
    annotation_config_uuid: null,
    label: null,
    events: 2,
    ranges: null,
  },
  tolerance_s: 0.2,
  events: {
    tp: 2,
    fp: 0,
    fn: 1,
    precision: 1,
    recall: 2 / 3,
    f1: 0.8,
    onset_error: { mean_s: 0.01, median_s: 0.01, sd_s: 0 },
    pairs: [
      { reference_s: 1, candidate_s: 1.01, delta_s: 0.01 },
      { reference_s: 2, candidate_s: 2.01, delta_s: 0.01 },
    ],
    missed: [4.2],
    extra: [],
  },
  intervals: null,
  elapsed_ms: 3,
};

function serve(agreement: (body: unknown) => Response) {
  const owned = { ...project(A, 'Alpha'), role: 'owner' as const };
  return mockFetch({
    'GET /api/projects/': () => json(page([owned])),
    [`GET /api/projects/${A}/`]: () => json(owned),
    'GET /api/config/': () => json({ support_email: 's@lab.org', docs_url: '/docs', billing_enabled: false }),
    [`GET /api/projects/${A}/subjects/`]: () =>
      json(page([{ subject_uuid: S, project_uuid: A, name: 'M12', group: 'control', notes: '', metadata: {} }])),
    [`GET /api/projects/${A}/subjects/${S}/videos/`]: () => json(page([video])),
    [`GET /api/projects/${A}/analysis/`]: () =>
      json(
        page([
          {
            analysis_uuid: RUN,
            project_uuid: A,
            subject_uuid: S,
            video_uuid: V,
            kind: 'movement_detection',
            status: 'succeeded',
            created_at: '2026-11-23T10:00:00Z',
            event_count: 3,
            parameters: {},
          },
        ]),
      ),
    [`GET ${VIDEO_BASE}annotations/config/`]: () =>
      json([{ annotation_config_uuid: TRACK, name: 'Hand', color: '#e11d48', range_count: 3, version: 1 }]),
    [`GET ${VIDEO_BASE}annotations/${TRACK}/`]: () =>
      json({
        annotation_config_uuid: TRACK,
        ranges: [
          [1, 1.4],
          [2, 2.4],
          [4.2, 4.6],
        ],
        version: 1,
      }),
    [`POST ${VIDEO_BASE}agreement/`]: (_url, init) => agreement(JSON.parse(String(init.body))),
  });
}

function signedIn() {
  tokens.set('A', 'R');
  sessionStore.setUser(testUser);
  localStorage.setItem('activeProjectUuid', A);
}

const agreementCalls = (calls: { method: string; url: string; init: RequestInit }[]) =>
  calls.filter((c) => c.method === 'POST' && c.url.endsWith('/agreement/')).map((c) => JSON.parse(String(c.init.body)));

describe('the Agreement view', { timeout: 30_000 }, () => {
  beforeEach(() => {
    queryClient.clear();
    sessionStore.reset();
  });

  it('opens with the scorings of its URL, compares them at once and shows the figures and the disagreements', async () => {
    const { calls } = serve(() => json(report));
    signedIn();
    renderApp(
      `/projects/${A}/agreement?subject=${S}&video=${V}&reference=track:${TRACK}&candidate=run_reviewed:${RUN}`,
    );
    expect((await screen.findByTestId('figure-f1')).textContent).toContain('0.8');
    expect(agreementCalls(calls)).toEqual([
      {
        reference: { kind: 'track', annotation_config_uuid: TRACK },
        candidate: { kind: 'run_reviewed', analysis_uuid: RUN },
        tolerance_s: 0.2,
        bin_s: 60,
      },
    ]);
    expect(screen.getByTestId('figure-tp').textContent).toContain('2');
    expect(screen.getByTestId('figure-recall').textContent).toContain('0.667');
    expect(screen.getByText(/Interval agreement needs ranges on both sides/)).toBeTruthy();
    expect(screen.getByText('R: Annotation track "Hand"')).toBeTruthy();
    const item = screen.getByTestId('disagreement-item');
    expect(item.textContent).toContain('0:00:04.200');
    expect(item.textContent).toContain('Missed (in R only)');
    await userEvent.setup().click(item);
    expect(screen.getByTestId('disagreement-position').textContent).toContain('1 of 1');
  });

  it('checks its options before asking, and sends the chosen slice and bin', async () => {
    const { calls } = serve(() => json(report));
    signedIn();
    renderApp(
      `/projects/${A}/agreement?subject=${S}&video=${V}&reference=track:${TRACK}&candidate=run_reviewed:${RUN}`,
    );
    await screen.findByTestId('figure-f1');
    const user = userEvent.setup();
    const tolerance = screen.getByLabelText('Tolerance τ (s)');
    await user.clear(tolerance);
    await user.type(tolerance, '61');
    expect(await screen.findByText('Between 0 and 60 s.')).toBeTruthy();
    expect(agreementCalls(calls)).toHaveLength(1);
    await user.clear(tolerance);
    await user.type(tolerance, '0.5');
    await user.type(screen.getByLabelText('Slice (s)'), '1');
    await waitFor(() =>
      expect(agreementCalls(calls).at(-1)).toMatchObject({ tolerance_s: 0.5, slice_s: 1, bin_s: 60 }),
    );
  });

  it('shows the server’s field errors under the side they belong to', async () => {
    serve(() =>
      json({ errors: { 'candidate.analysis_uuid': ['That run has not succeeded, so it has no events.'] } }, 400),
    );
    signedIn();
    renderApp(
      `/projects/${A}/agreement?subject=${S}&video=${V}&reference=track:${TRACK}&candidate=run_detected:${RUN}`,
    );
    const candidate = await screen.findByTestId('agreement-candidate-picker');
    expect(await within(candidate).findByText('That run has not succeeded, so it has no events.')).toBeTruthy();
    expect(within(screen.getByTestId('agreement-reference-picker')).queryByRole('alert')).toBeNull();
  });
});
