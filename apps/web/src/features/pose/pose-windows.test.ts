import { describe, expect, it } from 'vitest';
import type { PoseFrame } from './api';
import { POSE_RETRY_MS, PoseWindowCache } from './pose-windows';

/** A loader over generated frames (x = frame, y = 2·frame for one point) that records its requests. */
function loader(options: { fail?: () => boolean } = {}) {
  const requests: { start: number; count: number }[] = [];
  const pending: (() => void)[] = [];
  const load = (start: number, count: number) => {
    requests.push({ start, count });
    return new Promise<PoseFrame[]>((resolve, reject) => {
      pending.push(() => {
        if (options.fail?.()) reject(new Error('offline'));
        else
          resolve(
            Array.from({ length: count }, (_, i) => ({
              frame: start + i,
              individuals: { single: { nose: [start + i, 2 * (start + i), 1] } },
            })),
          );
      });
    });
  };
  /** Answers every request made so far. */
  const settle = async () => {
    for (const answer of pending.splice(0)) answer();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { load, requests, settle };
}

describe('pose window cache', () => {
  it('loads the window under the playhead and the next one, once each, however many frames ask', async () => {
    const source = loader();
    const cache = new PoseWindowCache(source.load, 1000, 100);
    for (let frame = 0; frame < 100; frame++) cache.ensure(frame);
    expect(source.requests).toEqual([
      { start: 0, count: 100 },
      { start: 100, count: 100 },
    ]);
    expect(cache.frame(5)).toBeUndefined();
    await source.settle();
    expect(cache.frame(5)?.individuals.single?.nose).toEqual([5, 10, 1]);
    expect(cache.frame(199)?.frame).toBe(199);
    expect(cache.frame(200)).toBeUndefined();
  });

  it('plays through a video with one request per window, the last one cut at the frame count', async () => {
    const source = loader();
    const cache = new PoseWindowCache(source.load, 950, 256);
    let notified = 0;
    cache.subscribe(() => notified++);
    for (let frame = 0; frame < 950; frame++) {
      cache.ensure(frame);
      if (frame % 30 === 0) await source.settle();
    }
    await source.settle();
    expect(source.requests).toEqual([
      { start: 0, count: 256 },
      { start: 256, count: 256 },
      { start: 512, count: 256 },
      { start: 768, count: 182 },
    ]);
    expect(notified).toBe(4);
    for (const frame of [0, 255, 256, 700, 949]) expect(cache.frame(frame)?.frame).toBe(frame);
  });

  it('keeps a bounded number of windows, dropping the farthest from the playhead', async () => {
    const source = loader();
    const cache = new PoseWindowCache(source.load, 10_000, 100, 3);
    for (const frame of [0, 250, 5000]) {
      cache.ensure(frame);
      await source.settle();
    }
    // Windows 0, 1, 2, 3, 50, 51 were loaded; 3 are kept, those nearest window 50.
    expect(cache.frame(5000)).toBeDefined();
    expect(cache.frame(5100)).toBeDefined();
    expect(cache.frame(399)).toBeDefined();
    expect(cache.frame(0)).toBeUndefined();
    // Going back loads window 0 again.
    cache.ensure(0);
    expect(source.requests.at(-2)).toEqual({ start: 0, count: 100 });
  });

  it('reports a failure and asks again only after a pause', async () => {
    let failing = true;
    const source = loader({ fail: () => failing });
    let now = 0;
    const cache = new PoseWindowCache(source.load, 100, 100, 8, () => now);
    cache.ensure(0);
    await source.settle();
    expect(cache.error).toBeInstanceOf(Error);
    cache.ensure(1);
    expect(source.requests).toHaveLength(1);
    now = POSE_RETRY_MS;
    failing = false;
    cache.ensure(2);
    await source.settle();
    expect(source.requests).toHaveLength(2);
    expect(cache.error).toBeNull();
    expect(cache.frame(2)?.individuals.single?.nose).toEqual([2, 4, 1]);
  });
});
