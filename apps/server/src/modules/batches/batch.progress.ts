/**
 * A batch's overall progress and time left, from its videos' newest runs (ADR 035). Pure: the caller reads the runs.
 *
 * - Each run weighs its video's frame count (a 10-minute video is twice a 5-minute one; 1 when unknown).
 * - Progress: Σ weight × done / Σ weight, where done is 1 for a finished run (succeeded, failed or stopped) and
 *   the run's own progress (0–1) while it is queued or running.
 * - Time left: only the newest wave of runs counts (the runs made together: the batch's first runs, or one retry),
 *   so a retry days later is not measured at yesterday's speed. Frames done by the wave ÷ seconds since the wave
 *   was made (queueing included: the user waits that too) is the speed; the frames the wave still has to do ÷ that
 *   speed is the time left. Null before the wave has done anything, and when nothing is left.
 */
import type { analysisStatuses } from '../../db/schema.js';

type AnalysisStatus = (typeof analysisStatuses)[number];

export interface RunProgress {
  status: AnalysisStatus;
  progress: number;
  frames: number | null;
  /** When the run's link to the batch was made: runs made together share it (one transaction's now()). */
  linkedAt: Date;
}

export interface BatchProgress {
  status: 'running' | 'finished';
  counts: Record<AnalysisStatus, number> & { videos: number };
  progress: number;
  eta_s: number | null;
}

const isActive = (status: AnalysisStatus) => status === 'queued' || status === 'running';

export function batchProgress(runs: readonly RunProgress[], now: Date): BatchProgress {
  const counts = { videos: runs.length, queued: 0, running: 0, succeeded: 0, failed: 0, revoked: 0 };
  let total = 0;
  let done = 0;
  for (const run of runs) {
    counts[run.status]++;
    const weight = run.frames && run.frames > 0 ? run.frames : 1;
    total += weight;
    done += weight * (isActive(run.status) ? Math.min(1, Math.max(0, run.progress)) : 1);
  }
  const active = counts.queued + counts.running;
  const waveAt = Math.max(...runs.map((run) => run.linkedAt.getTime()));
  let waveDone = 0;
  let waveLeft = 0;
  for (const run of runs) {
    if (run.linkedAt.getTime() !== waveAt) continue;
    const weight = run.frames && run.frames > 0 ? run.frames : 1;
    const progress = Math.min(1, Math.max(0, run.progress));
    if (isActive(run.status)) {
      waveDone += weight * progress;
      waveLeft += weight * (1 - progress);
    } else if (run.status === 'succeeded') waveDone += weight;
    else waveDone += weight * progress;
  }
  const elapsedS = (now.getTime() - waveAt) / 1000;
  const eta_s =
    active > 0 && waveDone > 0 && waveLeft > 0 && elapsedS > 0 ? Math.round((waveLeft / waveDone) * elapsedS) : null;
  return {
    status: active > 0 ? 'running' : 'finished',
    counts,
    progress: total > 0 ? done / total : 1,
    eta_s,
  };
}
