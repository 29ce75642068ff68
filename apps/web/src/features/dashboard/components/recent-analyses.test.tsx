import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AnalysisRun } from '@/features/analysis/api';
import { sessionStore } from '@/features/auth/session';
import { queryClient } from '@/lib/query-client';
import { tokens } from '@/lib/tokens';
import { json, mockFetch } from '@/test/http';
import { page, project, renderApp, testUser } from '@/test/render';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';

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

function run(uuid: string, patch: Partial<AnalysisRun>): AnalysisRun {
  return {
    analysis_uuid: uuid,
    project_uuid: A,
    subject_uuid: 'subject-1',
    video_uuid: 'video-1',
    subject_name: 'M12',
    video_name: 'Session 1',
    kind: 'movement_detection',
    parameters: {},
    source_analysis_uuid: null,
    source_series: null,
    protocol_uuid: null,
    protocol_version: null,
    status: 'succeeded',
    progress: 1,
    error: null,
    software_version: 'app 1',
    created_by: null,
    created_at: '2026-03-05T12:00:00Z',
    started_at: null,
    finished_at: null,
    duration_s: null,
    summary: null,
    event_count: 7,
    event_counts: counts(7),
    ...patch,
  };
}

describe('dashboard: recent analyses', { timeout: 30_000 }, () => {
  beforeEach(() => {
    queryClient.clear();
    sessionStore.reset();
  });

  it('lists the project’s newest runs with their event counts and Quick Score for finished ones', async () => {
    const owned = { ...project(A, 'Alpha'), counts: { subjects: 2, videos: 3, analyses: 2 } };
    const { calls } = mockFetch({
      'GET /api/projects/': () => json(page([owned])),
      [`GET /api/projects/${A}/`]: () => json(owned),
      [`GET /api/projects/${A}/videos/`]: () => json(page([])),
      'GET /api/users/profile/pending-invitations/': () => json([]),
      'GET /api/config/': () => json({ support_email: 's@lab.org', docs_url: '/docs', billing_enabled: false }),
      [`GET /api/projects/${A}/analysis/`]: () =>
        json(
          page([
            run('run-new', { video_name: 'Session 2', event_count: 1, event_counts: counts(1) }),
            run('run-going', { status: 'running', progress: 0.5, event_count: null, event_counts: null }),
            run('run-old', { created_at: '2026-03-01T12:00:00Z', event_count: 12, event_counts: counts(12, 11) }),
          ]),
        ),
    });
    tokens.set('A', 'R');
    sessionStore.setUser(testUser);
    localStorage.setItem('activeProjectUuid', A);
    renderApp('/');

    const rows = await screen.findAllByTestId('recent-analysis');
    expect(rows).toHaveLength(3);
    expect(rows[0]!.textContent).toContain('Session 2');
    // Detected and after review, side by side (one discarded in the old run).
    expect(within(rows[0]!).getByTestId('recent-analysis-events').textContent).toBe('1 detected · 1 kept');
    expect(within(rows[2]!).getByTestId('recent-analysis-events').textContent).toBe('12 detected · 11 kept');
    expect(
      within(rows[0]!)
        .getByRole('link', { name: /Quick Score/ })
        .getAttribute('href'),
    ).toBe(`/projects/${A}/quick-score?subject=subject-1&video=video-1&run=run-new`);
    // A running run shows its progress instead.
    expect(within(rows[1]!).queryByRole('link', { name: /Quick Score/ })).toBeNull();
    expect(within(rows[1]!).getByTestId('run-status').getAttribute('data-status')).toBe('running');
    expect(screen.queryByText('No analyses yet')).toBeNull();
    // Newest first, five at most: the server's order and page.
    const list = calls.find((c) => c.url.startsWith(`/api/projects/${A}/analysis/`))!;
    expect(new URL(list.url, 'http://app').searchParams.get('page_size')).toBe('5');
  });
});
