import { describe, expect, it } from 'vitest';
import { batchProgress, type RunProgress } from './batch.progress.js';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 28, 12, 0, seconds));
const run = (status: RunProgress['status'], progress: number, frames: number | null, linked = 0): RunProgress => ({
  status,
  progress,
  frames,
  linkedAt: at(linked),
});

describe('a batch’s progress and time left', () => {
  it('weighs runs by their frames and counts finished runs whole', () => {
    const state = batchProgress(
      [run('succeeded', 1, 1000), run('failed', 0.2, 1000), run('running', 0.5, 2000), run('queued', 0, 1000)],
      at(60),
    );
    expect(state.counts).toEqual({ videos: 4, queued: 1, running: 1, succeeded: 1, failed: 1, revoked: 0 });
    expect(state.status).toBe('running');
    expect(state.progress).toBeCloseTo((1000 + 1000 + 1000) / 5000, 12);
    // Done so far: 1000 + 200 (the failed run's work) + 1000 frames in 60 s; left: 1000 + 1000 → 2000 / (2200 / 60) s.
    expect(state.eta_s).toBe(Math.round((2000 / 2200) * 60));
  });

  it('measures the speed on the newest wave only (a retry), and says nothing before any progress or after the end', () => {
    const retried = batchProgress([run('succeeded', 1, 1000, 0), run('running', 0.25, 1000, 3000)], at(3020));
    expect(retried.eta_s).toBe(60);
    expect(batchProgress([run('queued', 0, 1000)], at(10)).eta_s).toBeNull();
    const done = batchProgress([run('succeeded', 1, 1000), run('revoked', 0.3, null)], at(10));
    expect(done).toMatchObject({ status: 'finished', progress: 1, eta_s: null });
  });
});
