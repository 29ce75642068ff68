import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeSourceOf } from '../../../../test/fixtures/decode-source.js';
import { analysisFixtures } from '../../../../test/fixtures/videos.js';
import { resolveMediaBinaries } from '../../../adapters/media/binaries.js';
import { FfmpegMedia } from '../../../adapters/media/ffmpeg-media.js';
import type { DetectTask } from './tasks.js';
import {
  endIdleAnalysisThreads,
  idleAnalysisThreadIds,
  runningAnalysisWorkers,
  runTask,
  TaskCancelledError,
  warmUpAnalysisThreads,
} from './worker-client.js';

const binaries = resolveMediaBinaries(process.env.TMPDIR ?? '/tmp');

function detectTask(values: number[]): DetectTask {
  return {
    kind: 'detect',
    series: { values: Float64Array.from(values), times: null, fps: 10 },
    events: { event_threshold_k: 3, event_threshold: 5, refractory_s: 0 },
    freezing: null,
    csvPath: null,
  };
}

const until = async (check: () => boolean, ms = 5000) => {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

afterEach(async () => {
  vi.useRealTimers();
  await endIdleAnalysisThreads();
});

describe('analysis worker threads kept warm', () => {
  it('runs the next task on the thread the last one finished on, and answers each its own result', async () => {
    await endIdleAnalysisThreads();
    const first = await runTask(detectTask([0, 0, 9, 9, 0, 0, 0, 0]));
    const [thread] = idleAnalysisThreadIds();
    expect(idleAnalysisThreadIds()).toHaveLength(1);
    const second = await runTask(detectTask([0, 9, 0, 0, 0, 0, 9, 0]));
    expect(idleAnalysisThreadIds()).toEqual([thread]);
    expect(Array.from(first.eventTimes)).toEqual([0.2]);
    expect(Array.from(second.eventTimes)).toEqual([0.1, 0.6]);
    expect(runningAnalysisWorkers()).toBe(0);
  });

  it('starts a thread per task running at once, and keeps at most four warm', async () => {
    await endIdleAnalysisThreads();
    await Promise.all([1, 2].map(() => runTask(detectTask([0, 9, 0]))));
    expect(new Set(idleAnalysisThreadIds()).size).toBe(2);
    await Promise.all([1, 2, 3, 4, 5, 6].map(() => runTask(detectTask([0, 9, 0]))));
    expect(idleAnalysisThreadIds()).toHaveLength(4);
  });

  it('a task that fails leaves its thread fit for the next one', async () => {
    await endIdleAnalysisThreads();
    const missing = path.join(await mkdtemp(path.join(os.tmpdir(), 'pool-')), 'missing.csv');
    await expect(runTask({ kind: 'import', path: missing })).rejects.toThrow(/ENOENT/);
    const [thread] = idleAnalysisThreadIds();
    const good = path.join(path.dirname(missing), 'good.csv');
    await writeFile(good, 'time_s,value\n0,1\n0.1,2\n');
    const parsed = await runTask({ kind: 'import', path: good });
    expect(parsed).toMatchObject({ ok: true, values: Float64Array.from([1, 2]) });
    expect(idleAnalysisThreadIds()).toEqual([thread]);
  });

  it('a cancelled task ends its thread and its ffmpeg; the thread is not reused', async () => {
    await endIdleAnalysisThreads();
    await runTask(detectTask([0, 9, 0]));
    const [warm] = idleAnalysisThreadIds();
    const source = await decodeSourceOf(new FfmpegMedia(binaries), analysisFixtures().jumpsMp4);
    const controller = new AbortController();
    const parameters = {
      threshold: 20,
      opening: 60,
      closing: 60,
      small_object_removal: 0,
      rois: [],
      bypass_ranges: [],
    };
    const task = runTask(
      { kind: 'frames', ffmpeg: binaries.ffmpeg, source, parameters, startFrame: 0, endFrame: null },
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    await expect(task).rejects.toBeInstanceOf(TaskCancelledError);
    // The warm thread took the task; it ends instead of going back.
    await until(() => runningAnalysisWorkers() === 0);
    expect(idleAnalysisThreadIds()).not.toContain(warm);
    expect(idleAnalysisThreadIds()).toHaveLength(0);
  });

  it('readies the threads a run needs at start, and keeps that many however long they wait', async () => {
    await endIdleAnalysisThreads();
    // Only the idle timers are faked: the threads' messages do not use them.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await warmUpAnalysisThreads(2);
    expect(new Set(idleAnalysisThreadIds()).size).toBe(2);
    // Three tasks at once: the two ready threads take two, a new thread the third.
    await Promise.all([1, 2, 3].map(() => runTask(detectTask([0, 9, 0]))));
    expect(idleAnalysisThreadIds()).toHaveLength(3);
    // The timers end threads synchronously (terminate is only asked for), so the pool is checked at once.
    vi.advanceTimersByTime(61_000);
    expect(idleAnalysisThreadIds()).toHaveLength(2);
    // Ten minutes on, the two kept are still there, and a task takes one of them.
    for (let minute = 0; minute < 10; minute++) vi.advanceTimersByTime(60_000);
    expect(idleAnalysisThreadIds()).toHaveLength(2);
    await runTask(detectTask([0, 9, 0]));
    expect(idleAnalysisThreadIds()).toHaveLength(2);
    // Asking again with threads already waiting starts none.
    const before = new Set(idleAnalysisThreadIds());
    await warmUpAnalysisThreads(2);
    expect(new Set(idleAnalysisThreadIds())).toEqual(before);
  });

  it('without a warm-up, idle threads end after a minute', async () => {
    await endIdleAnalysisThreads();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await Promise.all([1, 2].map(() => runTask(detectTask([0, 9, 0]))));
    expect(idleAnalysisThreadIds()).toHaveLength(2);
    vi.advanceTimersByTime(61_000);
    expect(idleAnalysisThreadIds()).toHaveLength(0);
  });
});
