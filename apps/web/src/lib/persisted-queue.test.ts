import { afterEach, describe, expect, it, vi } from 'vitest';
import { PersistedQueue, type QueueItem, type SendResult } from './persisted-queue';
import { LOCKED_MESSAGE } from './project-locked';

type Change = { n: number };

/** A send whose answers the test decides, one call at a time. */
function scriptedSend() {
  const calls: QueueItem<Change>[] = [];
  const waiting: ((result: SendResult | Error) => void)[] = [];
  const send = (item: QueueItem<Change>) => {
    calls.push(structuredClone(item));
    return new Promise<SendResult>((resolve, reject) => {
      waiting.push((result) => (result instanceof Error ? reject(result) : resolve(result)));
    });
  };
  const answer = async (result: SendResult | Error) => {
    await vi.waitFor(() => expect(waiting.length).toBeGreaterThan(0));
    waiting.shift()!(result);
    await Promise.resolve();
    await Promise.resolve();
  };
  return { calls, send, answer };
}

const stored = (prefix: string) =>
  Object.keys(window.localStorage)
    .filter((key) => key.startsWith(`${prefix}:`))
    .map((key) => JSON.parse(window.localStorage.getItem(key)!) as { heartbeat: number; items: QueueItem<Change>[] });

const queues: PersistedQueue<Change>[] = [];
const open = (key: string, send: (item: QueueItem<Change>) => Promise<SendResult>, retryDelays = [50]) => {
  const queue = new PersistedQueue<Change>({ storageKey: key, send, retryDelays });
  queues.push(queue);
  return queue;
};

afterEach(() => {
  for (const queue of queues.splice(0)) queue.dispose();
});

describe('a persisted queue of changes to save', () => {
  it('sends one item at a time, in order, and is "saved" once all are acknowledged', async () => {
    const server = scriptedSend();
    const queue = open('q1', server.send);
    expect(queue.status().state).toBe('saved');
    queue.push({ n: 1 });
    queue.push({ n: 2 });
    expect(queue.status()).toEqual({ state: 'saving', pending: 2, error: null, locked: false });
    await server.answer('done');
    await vi.waitFor(() => expect(server.calls.map((c) => c.payload.n)).toEqual([1, 2]));
    await server.answer('done');
    await vi.waitFor(() => expect(queue.status()).toEqual({ state: 'saved', pending: 0, error: null, locked: false }));
    expect(stored('q1')).toEqual([]);
  });

  it('keeps a failed item stored, says "not saved", and retries it until it is acknowledged', async () => {
    const server = scriptedSend();
    const queue = open('q2', server.send);
    const seen: string[] = [];
    queue.subscribe(() => seen.push(queue.status().state));
    queue.push({ n: 7 });
    await server.answer(new Error('Failed to fetch'));
    await vi.waitFor(() =>
      expect(queue.status()).toEqual({ state: 'unsaved', pending: 1, error: 'Failed to fetch', locked: false }),
    );
    expect(stored('q2')[0]!.items).toMatchObject([{ payload: { n: 7 }, attempts: 1 }]);
    await server.answer('retry');
    await server.answer('done');
    await vi.waitFor(() => expect(queue.status().state).toBe('saved'));
    expect(server.calls.map((c) => c.payload.n)).toEqual([7, 7, 7]);
    expect(seen).toContain('unsaved');
    expect(seen.at(-1)).toBe('saved');
  });

  it("sends an item again at once when asked ('again'), and forgets a refused one ('drop')", async () => {
    const server = scriptedSend();
    const queue = open('q3', server.send, [60_000]);
    queue.push({ n: 1 });
    queue.push({ n: 2 });
    await server.answer('again');
    await server.answer('drop');
    await server.answer('done');
    await vi.waitFor(() => expect(queue.status().state).toBe('saved'));
    expect(server.calls.map((c) => c.payload.n)).toEqual([1, 1, 2]);
  });

  it("keeps an item refused because the project is locked ('locked'), says so, and sends it on focus once renewed", async () => {
    const server = scriptedSend();
    const queue = new PersistedQueue<Change>({
      storageKey: 'q-locked',
      send: server.send,
      retryDelays: [50],
      lockedRetryDelays: [60_000],
    });
    queues.push(queue);
    queue.push({ n: 1 });
    queue.push({ n: 2 });
    await server.answer('locked');
    await vi.waitFor(() =>
      expect(queue.status()).toEqual({ state: 'unsaved', pending: 2, error: LOCKED_MESSAGE, locked: true }),
    );
    // Nothing is dropped, and nothing after it is sent past it: both stay stored for a reload or a download.
    expect(stored('q-locked')[0]!.items.map((item) => item.payload.n)).toEqual([1, 2]);
    expect(queue.pending().map((item) => item.payload.n)).toEqual([1, 2]);
    expect(server.calls).toHaveLength(1);
    // Back on the page (the project was renewed in another tab): tried at once, not after the long wait.
    window.dispatchEvent(new Event('focus'));
    await server.answer('done');
    await server.answer('done');
    await vi.waitFor(() => expect(queue.status()).toEqual({ state: 'saved', pending: 0, error: null, locked: false }));
    expect(server.calls.map((c) => c.payload.n)).toEqual([1, 1, 2]);
  });

  it('a page opened after a tab closed with unsaved items sends them', async () => {
    const first = open('q4', () => new Promise<SendResult>(() => {}));
    first.push({ n: 1 });
    first.push({ n: 2 });
    first.dispose();
    const server = scriptedSend();
    const second = open('q4', server.send);
    expect(second.pending().map((item) => item.payload.n)).toEqual([1, 2]);
    await server.answer('done');
    await server.answer('done');
    await vi.waitFor(() => expect(second.status().state).toBe('saved'));
    expect(stored('q4')).toEqual([]);
  });

  it("leaves a live tab's items alone, and a tab whose items were adopted stops sending them", async () => {
    const slow = scriptedSend();
    const live = open('q5', slow.send, [60_000]);
    live.push({ n: 1 });
    await slow.answer('retry');
    // Another tab on the same key does not take items whose tab still beats.
    const other = open('q5', () => Promise.resolve('done'));
    expect(other.pending()).toEqual([]);
    // The live tab's entry vanishes (adopted by a tab that thought it gone): it forgets the item.
    for (const key of Object.keys(window.localStorage)) {
      if (key.startsWith('q5:')) window.localStorage.removeItem(key);
    }
    live.retryNow();
    await vi.waitFor(() => expect(live.status().state).toBe('saved'));
    expect(slow.calls).toHaveLength(1);
  });
});
