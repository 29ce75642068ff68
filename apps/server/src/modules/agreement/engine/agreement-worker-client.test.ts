import { describe, expect, it } from 'vitest';
import { runAgreementTask, stopAgreementWorker, warmUpAgreementWorker } from './agreement-worker-client.js';

const grid = { count: 100, sliceS: 0.1, fps: null };
const side = (events: number[], ranges: [number, number][] | null = null) => ({
  events: Float64Array.from(events),
  ranges,
});

describe('the agreement worker thread', () => {
  it('answers tasks one after another in one thread, errors by name, and starts again after it stopped', async () => {
    const [first, second] = await Promise.all([
      runAgreementTask({
        kind: 'agreement',
        reference: side([1, 2]),
        candidate: side([1.1]),
        toleranceS: 0.2,
        grid,
        binS: 5,
      }),
      runAgreementTask({
        kind: 'agreement',
        reference: side([1], [[1, 2]]),
        candidate: side([1.5], [[1.5, 3]]),
        toleranceS: 0.2,
        grid,
        binS: 5,
      }),
    ]);
    expect([first.events.tp, first.events.fn, first.intervals]).toEqual([1, 1, null]);
    expect(second.intervals?.table).toEqual({ both: 5, reference_only: 5, candidate_only: 10, neither: 80 });

    // The matching's memory guard crosses the thread as a TooManyPairsError, by name.
    const dense = Array.from({ length: 3000 }, (_, i) => i / 1e4);
    const refused = runAgreementTask({
      kind: 'agreement',
      reference: side(dense),
      candidate: side(dense),
      toleranceS: 60,
      grid,
      binS: 5,
    });
    await expect(refused).rejects.toMatchObject({ name: 'TooManyPairsError' });

    // A task the thread holds when it ends is failed, not lost; the next one starts a new thread. (Twenty million
    // slices keep the thread busy well past the stop.)
    const pending = runAgreementTask({
      kind: 'agreement',
      reference: side([1], [[0, 10_000]]),
      candidate: side([1], [[5_000, 20_000]]),
      toleranceS: 0,
      grid: { count: 20_000_000, sliceS: 0.001, fps: null },
      binS: 60,
    });
    await stopAgreementWorker();
    await expect(pending).rejects.toThrow(/stopped unexpectedly|terminated/);
    const after = await runAgreementTask({
      kind: 'agreement',
      reference: side([1]),
      candidate: side([1]),
      toleranceS: 0,
      grid,
      binS: 5,
    });
    expect(after.events.tp).toBe(1);
    // The warm-up the server runs at start goes through every kind of task.
    await expect(warmUpAgreementWorker()).resolves.toBeUndefined();
    await stopAgreementWorker();
  });
});
