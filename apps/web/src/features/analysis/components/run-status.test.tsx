import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { TooltipProvider } from '@/components/ui/tooltip';
import type { AnalysisRun } from '../api';
import { KIND_LABELS, STATUS_LABELS } from '../labels';
import { RunStatus, RunStatusBadge, runPercent } from './run-status';

type Run = Pick<AnalysisRun, 'status' | 'progress' | 'error' | 'created_at' | 'created_by' | 'duration_s'>;
const run = (patch: Partial<Run>): Run => ({
  status: 'running',
  progress: 0.5,
  error: null,
  created_at: '2026-03-05T12:00:00Z',
  created_by: null,
  duration_s: null,
  ...patch,
});
const show = (node: ReactNode) => render(<TooltipProvider>{node}</TooltipProvider>);

describe('run percentage', () => {
  it('rounds down, so a run held at 0.99 until it is merged never reads 100%', () => {
    expect(runPercent(run({ progress: 0.999 }))).toBe(99);
    expect(runPercent(run({ progress: 0.426 }))).toBe(42);
    expect(runPercent(run({ progress: 0.005 }))).toBe(0);
  });

  it('is 100% for a succeeded run, and stays within 0–100', () => {
    expect(runPercent(run({ status: 'succeeded', progress: 0.99 }))).toBe(100);
    expect(runPercent(run({ progress: 1.7 }))).toBe(100);
    expect(runPercent(run({ progress: -0.2 }))).toBe(0);
  });
});

describe('run status labels', () => {
  it('says Revoked for a stopped run, on every page', () => {
    show(<RunStatusBadge status="revoked" />);
    expect(screen.getByText('Revoked').closest('[data-status]')?.getAttribute('data-status')).toBe('revoked');
    expect(STATUS_LABELS).toEqual({
      queued: 'Queued',
      running: 'Running',
      succeeded: 'Succeeded',
      failed: 'Failed',
      revoked: 'Revoked',
    });
  });

  it('names the analysis kinds in one set of words', () => {
    expect(KIND_LABELS).toEqual({
      movement_detection: 'Movement detection',
      event_detection: 'Event detection',
      timeseries_import: 'Time series import',
      location_tracking: 'Location tracking',
      pose_series: 'Pose-derived series',
    });
  });
});

describe('RunStatus in a table cell (Analysis Logs, Home)', () => {
  it('shows a running run’s progress, rounded down', () => {
    show(<RunStatus run={run({ progress: 0.428 })} />);
    expect(screen.getByTestId('run-status').dataset.status).toBe('running');
    expect(screen.getByText('Running')).toBeTruthy();
    expect(screen.getByTestId('run-progress').textContent).toBe('42%');
  });

  it('shows no progress once a run is over', () => {
    show(<RunStatus run={run({ status: 'succeeded', progress: 1 })} />);
    expect(screen.getByText('Succeeded')).toBeTruthy();
    expect(screen.queryByTestId('run-progress')).toBeNull();
  });

  it('shows a failed run’s reason, whole on focus', async () => {
    const reason = 'ffmpeg could not decode frame 1200 of the video: the file ends early';
    show(<RunStatus run={run({ status: 'failed', error: reason })} />);
    const error = screen.getByTestId('run-error');
    expect(error.textContent).toBe(reason);
    await userEvent.tab();
    expect(document.activeElement).toBe(error);
    expect((await screen.findByRole('tooltip')).textContent).toContain(reason);
  });
});

describe('RunStatus as the open run’s panel (Movement Detector)', () => {
  it('shows the percentage, who started the run and how long it took', () => {
    show(
      <RunStatus
        variant="panel"
        run={run({
          status: 'succeeded',
          progress: 0.99,
          created_by: { id: 1, display_name: 'Ada' },
          duration_s: 12.34,
        })}
      />,
    );
    expect(screen.getByTestId('run-progress').textContent).toBe('100%');
    expect(screen.getByText(/by Ada · took 12\.3 s/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
  });

  it('rounds a working run’s percentage down and stops it with the Stop button', async () => {
    const onStop = vi.fn();
    show(<RunStatus variant="panel" run={run({ progress: 0.996 })} onStop={onStop} />);
    expect(screen.getByTestId('run-progress').textContent).toBe('99%');
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalledOnce();
  });

  it('disables Stop while stopping, and offers none without a handler (read-only)', () => {
    const { unmount } = show(<RunStatus variant="panel" run={run({ status: 'queued' })} onStop={() => {}} stopping />);
    expect((screen.getByRole('button', { name: 'Stop' }) as HTMLButtonElement).disabled).toBe(true);
    unmount();
    show(<RunStatus variant="panel" run={run({ status: 'queued' })} />);
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
  });

  it('says why a run failed, and that a revoked run was stopped', () => {
    const { unmount } = show(<RunStatus variant="panel" run={run({ status: 'failed', error: null })} />);
    expect(screen.getByTestId('run-error').textContent).toBe('No reason was given.');
    unmount();
    show(<RunStatus variant="panel" run={run({ status: 'revoked', progress: 0.3 })} />);
    expect(screen.getByText('Revoked')).toBeTruthy();
    expect(screen.getByText('This run was stopped before it finished.')).toBeTruthy();
  });
});
