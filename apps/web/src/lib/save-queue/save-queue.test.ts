import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { LOCKED_MESSAGE, LOCKED_RETRY_DELAYS_MS } from '@/lib/project-locked';
import type { QueueItem } from './entry';
import { FakeBrowser } from './fake-tabs';
import { RETRY_DELAYS_MS, SaveQueue, type SaveQueueHooks } from './save-queue';
import type { Tab } from './tab';

type Change = { n: number };

/** A server whose answers the test decides, one call at a time; `refused`/`conflicts` record the hooks' calls. */
function scriptedServer() {
  const calls: number[][] = [];
  const waiting: ((outcome: 'ok' | Error) => void)[] = [];
  const refused: number[] = [];
  const conflicts: number[] = [];
  const hooks: SaveQueueHooks<Change, void> = {
    send: (batch) => {
      calls.push(batch.map((item) => item.payload.n));
      return new Promise<void>((resolve, reject) => {
        waiting.push((outcome) => (outcome === 'ok' ? resolve() : reject(outcome)));
      });
    },
    onConflict: (batch) => {
      conflicts.push(batch[0]!.payload.n);
    },
    onRefused: (batch) => {
      refused.push(batch[0]!.payload.n);
    },
    failureText: (error) => (error instanceof Error ? error.message : String(error)),
  };
  const answer = async (outcome: 'ok' | Error) => {
    await vi.advanceTimersByTimeAsync(0);
    expect(waiting.length).toBeGreaterThan(0);
    waiting.shift()!(outcome);
    await vi.advanceTimersByTimeAsync(0);
  };
  return { calls, hooks, answer, refused, conflicts };
}

const apiError = (status: number, errors = 'No.') => new ApiError(status, { errors }, 'PATCH', '/api/…/');

const stored = (prefix: string) =>
  Object.keys(localStorage)
    .filter((key) => key.startsWith(prefix))
    .map((key) => JSON.parse(localStorage.getItem(key)!) as { beat: number; items: QueueItem<Change>[] });

let browser: FakeBrowser;
let tab: Tab;
const queues: SaveQueue<Change>[] = [];
function open(storageKey: string, hooks: SaveQueueHooks<Change, void>, on = tab) {
  const queue = new SaveQueue<Change>({ storageKey, hooks, tab: on });
  queues.push(queue);
  return queue;
}

beforeEach(() => {
  vi.useFakeTimers();
  browser = new FakeBrowser();
  tab = browser.openTab().tab;
});
afterEach(() => {
  for (const queue of queues.splice(0)) queue.dispose();
  vi.useRealTimers();
});

describe('the save queue', () => {
  it('sends one item at a time, in order, and is "saved" once all are acknowledged', async () => {
    const server = scriptedServer();
    const queue = open('q1:', server.hooks);
    expect(queue.status().state).toBe('saved');
    queue.push({ n: 1 });
    queue.push({ n: 2 });
    expect(queue.status()).toMatchObject({ state: 'saving', pending: 2, failure: null, locked: false });
    await server.answer('ok');
    expect(server.calls).toEqual([[1], [2]]);
    expect(stored('q1:')[0]!.items.map((item) => item.payload.n)).toEqual([2]);
    await server.answer('ok');
    expect(queue.status()).toEqual({ state: 'saved', pending: 0, failure: null, retryAt: null, locked: false });
    expect(stored('q1:')).toEqual([]);
  });

  it('keeps a failed item stored, says "not saved", and retries it after 1 s, 2 s, 4 s … until acknowledged', async () => {
    const server = scriptedServer();
    const queue = open('q2:', server.hooks);
    const seen: string[] = [];
    queue.subscribe(() => seen.push(queue.status().state));
    queue.push({ n: 7 });
    await server.answer(new TypeError('Failed to fetch'));
    expect(queue.status()).toMatchObject({ state: 'unsaved', pending: 1, failure: 'Failed to fetch', locked: false });
    expect(queue.status().retryAt).toBe(Date.now() + RETRY_DELAYS_MS[0]!);
    expect(stored('q2:')[0]!.items).toMatchObject([{ payload: { n: 7 } }]);
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0]! - 1);
    expect(server.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.calls).toHaveLength(2);
    // Still failing while the retry is on its way.
    expect(queue.status().state).toBe('unsaved');
    await server.answer(apiError(503));
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[1]! - 1);
    expect(server.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await server.answer('ok');
    expect(queue.status()).toMatchObject({ state: 'saved', failure: null });
    expect(server.calls).toEqual([[7], [7], [7]]);
    expect(seen).toContain('unsaved');
    expect(seen.at(-1)).toBe('saved');
  });

  it('retries when the browser is back online, and at once on retryNow', async () => {
    const server = scriptedServer();
    const queue = open('q-online:', server.hooks);
    queue.push({ n: 1 });
    await server.answer(new TypeError('Failed to fetch'));
    window.dispatchEvent(new Event('online'));
    await server.answer(new TypeError('Failed to fetch'));
    expect(server.calls).toHaveLength(2);
    queue.retryNow();
    await server.answer('ok');
    expect(server.calls).toHaveLength(3);
    expect(queue.status().state).toBe('saved');
  });

  it('after a 409 lets its user re-apply and sends the head again at once; a refused item is dropped, with a word', async () => {
    const server = scriptedServer();
    const queue = open('q3:', server.hooks);
    queue.push({ n: 1 });
    queue.push({ n: 2 });
    await server.answer(apiError(409));
    expect(server.conflicts).toEqual([1]);
    await server.answer(apiError(400));
    expect(server.refused).toEqual([1]);
    await server.answer('ok');
    expect(queue.status().state).toBe('saved');
    expect(server.calls).toEqual([[1], [1], [2]]);
    // 403 (not locked) and 404 are refusals too; 401, 408 and 429 are retried.
    for (const status of [401, 408, 429]) {
      queue.push({ n: status });
      await server.answer(apiError(status));
      expect(queue.status().state).toBe('unsaved');
      queue.retryNow();
      await server.answer('ok');
    }
    for (const status of [403, 404]) {
      queue.push({ n: status });
      await server.answer(apiError(status));
    }
    expect(server.refused).toEqual([1, 403, 404]);
    expect(queue.status().state).toBe('saved');
  });

  it('keeps items refused because the project is locked, says so, retries slowly and at once on focus', async () => {
    const server = scriptedServer();
    const queue = open('q-locked:', server.hooks);
    queue.push({ n: 1 });
    queue.push({ n: 2 });
    await server.answer(apiError(403, LOCKED_MESSAGE));
    expect(queue.status()).toMatchObject({ state: 'unsaved', pending: 2, failure: LOCKED_MESSAGE, locked: true });
    // Nothing is dropped, and nothing after it is sent past it: both stay stored for a reload or a download.
    expect(stored('q-locked:')[0]!.items.map((item) => item.payload.n)).toEqual([1, 2]);
    expect(queue.pending().map((item) => item.payload.n)).toEqual([1, 2]);
    expect(server.refused).toEqual([]);
    await vi.advanceTimersByTimeAsync(LOCKED_RETRY_DELAYS_MS[0]! - 1);
    expect(server.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await server.answer(apiError(403, LOCKED_MESSAGE));
    expect(queue.status().retryAt).toBe(Date.now() + LOCKED_RETRY_DELAYS_MS[1]!);
    // Back on the page (the project was renewed in another tab): tried at once, not after the long wait.
    window.dispatchEvent(new Event('focus'));
    await server.answer('ok');
    await server.answer('ok');
    expect(queue.status()).toEqual({ state: 'saved', pending: 0, failure: null, retryAt: null, locked: false });
    expect(server.calls).toEqual([[1], [1], [1], [2]]);
  });

  it('sends leading items together when its user batches them, and catches up when asked before the next send', async () => {
    const server = scriptedServer();
    const caughtUp: number[] = [];
    const queue = open('q-batch:', {
      ...server.hooks,
      batchSize: (pending) => Math.min(2, pending.length),
      catchUp: async () => {
        caughtUp.push(queue.pending().length);
      },
    });
    for (const n of [1, 2, 3]) queue.push({ n });
    await vi.advanceTimersByTimeAsync(0);
    // Asked while the first call is on its way: runs after it, before the next.
    queue.owe();
    await server.answer('ok');
    await server.answer('ok');
    expect(server.calls).toEqual([[1, 2], [3]]);
    expect(caughtUp).toEqual([1]);
    expect(queue.status().state).toBe('saved');
  });

  it('a page opened after a tab closed with unsaved items sends them, oldest first', async () => {
    const first = open('q4:', { ...scriptedServer().hooks, send: () => new Promise<void>(() => {}) });
    first.push({ n: 1 });
    first.push({ n: 2 });
    await vi.advanceTimersByTimeAsync(0);
    first.dispose();
    const server = scriptedServer();
    const other = browser.openTab().tab;
    const second = open('q4:', server.hooks, other);
    second.push({ n: 3 });
    await second.ready;
    expect(second.pending().map((item) => item.payload.n)).toEqual([1, 2, 3]);
    await server.answer('ok');
    await server.answer('ok');
    await server.answer('ok');
    expect(server.calls).toEqual([[1], [2], [3]]);
    expect(stored('q4:')).toEqual([]);
  });

  it('a paused queue keeps what it recovered until its user has laid it on the server’s state', async () => {
    const server = scriptedServer();
    const queue = new SaveQueue<Change>({ storageKey: 'q-paused:', hooks: server.hooks, tab, paused: true });
    queues.push(queue);
    queue.push({ n: 1 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(server.calls).toEqual([]);
    queue.replace([...queue.pending(), { key: 'k', payload: { n: 2 }, createdAt: Date.now() }]);
    queue.start();
    await server.answer('ok');
    await server.answer('ok');
    expect(server.calls).toEqual([[1], [2]]);
  });
});
