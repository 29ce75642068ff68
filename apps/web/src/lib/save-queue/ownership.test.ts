import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openEntry, STALE_AFTER_MS } from './entry';
import { FakeBrowser } from './fake-tabs';
import { SaveQueue, type SaveQueueHooks } from './save-queue';
import type { Tab } from './tab';

type Change = { n: number };

/** A server that counts how often it received each item; `down` makes every call fail like a lost connection. */
function countingServer() {
  const received = new Map<number, number>();
  const server = {
    down: false,
    received,
    hooks: {
      send: async (batch) => {
        if (server.down) throw new TypeError('Failed to fetch');
        for (const item of batch) received.set(item.payload.n, (received.get(item.payload.n) ?? 0) + 1);
      },
      onConflict: () => {},
      onRefused: () => {},
      failureText: () => 'No connection to the server.',
    } satisfies SaveQueueHooks<Change, void>,
  };
  return server;
}

const keysOf = (prefix: string) => Object.keys(localStorage).filter((key) => key.startsWith(prefix));
const item = (key: string, n: number, createdAt: number) => ({ key, payload: { n }, createdAt });

const queues: SaveQueue<Change>[] = [];
function open(storageKey: string, tab: Tab, hooks: SaveQueueHooks<Change, void>) {
  const queue = new SaveQueue<Change>({ storageKey, hooks, tab });
  queues.push(queue);
  return queue;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  for (const queue of queues.splice(0)) queue.dispose();
  vi.useRealTimers();
});

describe('where a tab keeps its queue', () => {
  it('keeps a tab’s queue under its own key and finds it again after a reload', async () => {
    const browser = new FakeBrowser();
    const first = browser.openTab();
    const entry = await openEntry<Change>('qs:7:run-a:', first.tab);
    entry.write([item('a', 1, 1)]);
    expect(keysOf('qs:7:run-a:')).toHaveLength(1);
    first.close();

    // The reloaded tab keeps its sessionStorage, hence its id and its key.
    const reloaded = browser.openTab({ session: first.session });
    const again = await openEntry<Change>('qs:7:run-a:', reloaded.tab);
    expect(again.key).toBe(entry.key);
    expect(again.recovered.map((i) => i.key)).toEqual(['a']);
    again.write([]);
    expect(keysOf('qs:7:run-a:')).toEqual([]);
  });

  it('gives a duplicated tab (its sessionStorage copied) an id of its own', async () => {
    const browser = new FakeBrowser();
    const original = browser.openTab();
    const id = await original.tab.id();
    const duplicate = browser.openTab({ session: original.session });
    expect(await duplicate.tab.id()).not.toBe(id);
  });

  it('without Web Locks, takes up the queues of gone tabs, oldest first, and leaves a live tab’s and other users’ alone', async () => {
    const browser = new FakeBrowser();
    const prefix = 'qs:7:run-b:';
    localStorage.setItem(
      `${prefix}closed-tab`,
      JSON.stringify({ beat: Date.now() - STALE_AFTER_MS, items: [item('old', 1, 5)] }),
    );
    localStorage.setItem(`${prefix}left-page`, JSON.stringify({ beat: 0, items: [item('older', 2, 2)] }));
    localStorage.setItem(`${prefix}open-tab`, JSON.stringify({ beat: Date.now(), items: [item('theirs', 3, 3)] }));
    localStorage.setItem('qs:8:run-b:other-user', JSON.stringify({ beat: 0, items: [item('x', 4, 1)] }));
    const entry = await openEntry<Change>(prefix, browser.openTab({ locks: false }).tab);
    expect(entry.recovered.map((i) => i.key)).toEqual(['older', 'old']);
    expect(localStorage.getItem(`${prefix}closed-tab`)).toBeNull();
    expect(localStorage.getItem(`${prefix}left-page`)).toBeNull();
    expect(localStorage.getItem(`${prefix}open-tab`)).not.toBeNull();
    expect(localStorage.getItem('qs:8:run-b:other-user')).not.toBeNull();
    entry.release();
  });
});

describe('who owns a queue', () => {
  it('without Web Locks, a live tab whose timers are throttled to once a minute keeps its queue', async () => {
    const browser = new FakeBrowser();
    const server = countingServer();
    server.down = true;
    const owner = open('q:', browser.openTab({ locks: false }).tab, server.hooks);
    owner.push({ n: 1 });
    await vi.advanceTimersByTimeAsync(0);
    // Hidden: its timers wait. 75 s later (a throttled timer runs once a minute, perhaps late), another tab opens.
    vi.setSystemTime(Date.now() + 75_000);
    const other = open('q:', browser.openTab({ locks: false }).tab, server.hooks);
    await other.ready;
    expect(other.pending()).toEqual([]);
    expect(owner.pending()).toHaveLength(1);
    // Its throttled heartbeat runs: the queue is still its own, and it sends once the server is back.
    server.down = false;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(owner.status().state).toBe('saved');
    expect([...server.received]).toEqual([[1, 1]]);
  });

  it('with Web Locks, a live tab keeps its queue however long its timers sleep; a closed tab’s is taken at once', async () => {
    const browser = new FakeBrowser();
    const server = countingServer();
    server.down = true;
    const owner = browser.openTab();
    const queue = open('q:', owner.tab, server.hooks);
    queue.push({ n: 1 });
    await vi.advanceTimersByTimeAsync(0);
    vi.setSystemTime(Date.now() + 10 * 60_000);
    const second = open('q:', browser.openTab().tab, server.hooks);
    await second.ready;
    expect(second.pending()).toEqual([]);

    owner.close();
    const third = open('q:', browser.openTab().tab, server.hooks);
    await third.ready;
    expect(third.pending().map((i) => i.payload.n)).toEqual([1]);
    server.down = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(third.status().state).toBe('saved');
    expect([...server.received]).toEqual([[1, 1]]);
  });

  it('without Web Locks, a tab silent past 90 s is taken over, and when it wakes it does not send those items again', async () => {
    const browser = new FakeBrowser();
    const server = countingServer();
    server.down = true;
    const sleeper = open('q:', browser.openTab({ locks: false }).tab, server.hooks);
    sleeper.push({ n: 1 });
    sleeper.push({ n: 2 });
    await vi.advanceTimersByTimeAsync(0);
    // Frozen (its timers do not run at all) past the limit: taken for closed.
    vi.setSystemTime(Date.now() + STALE_AFTER_MS + 1000);
    const taker = open('q:', browser.openTab({ locks: false }).tab, server.hooks);
    await taker.ready;
    expect(taker.pending().map((i) => i.payload.n)).toEqual([1, 2]);
    server.down = false;
    // The sleeper wakes and retries: its entry is gone, so it forgets the items instead of sending them.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sleeper.status()).toMatchObject({ state: 'saved', pending: 0 });
    expect(taker.status().state).toBe('saved');
    expect([...server.received]).toEqual([
      [1, 1],
      [2, 1],
    ]);
  });

  it('a page let go (hidden for good) is taken over at once, even without Web Locks', async () => {
    const browser = new FakeBrowser();
    const server = countingServer();
    server.down = true;
    const leaving = open('q:', browser.openTab({ locks: false }).tab, server.hooks);
    leaving.push({ n: 1 });
    await vi.advanceTimersByTimeAsync(0);
    window.dispatchEvent(new Event('pagehide'));
    leaving.dispose();
    const next = open('q:', browser.openTab({ locks: false }).tab, server.hooks);
    await next.ready;
    expect(next.pending().map((i) => i.payload.n)).toEqual([1]);
  });

  it('two tabs that open together after a tab closed never both take its queue: each item is sent once', async () => {
    const browser = new FakeBrowser();
    const server = countingServer();
    server.down = true;
    const closing = browser.openTab();
    const queue = open('q:', closing.tab, server.hooks);
    for (const n of [1, 2, 3]) queue.push({ n });
    await vi.advanceTimersByTimeAsync(0);
    closing.close();
    const a = open('q:', browser.openTab().tab, server.hooks);
    const b = open('q:', browser.openTab().tab, server.hooks);
    await Promise.all([a.ready, b.ready]);
    expect(a.pending().length + b.pending().length).toBe(3);
    // Both tabs also save their own items, side by side.
    a.push({ n: 4 });
    b.push({ n: 5 });
    server.down = false;
    await vi.advanceTimersByTimeAsync(2000);
    expect([...server.received].sort(([x], [y]) => x - y)).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
      [4, 1],
      [5, 1],
    ]);
    expect(keysOf('q:')).toEqual([]);
  });
});

describe('queues stored by the previous version', () => {
  it('are read and sent: Quick Score’s and the Annotator’s shapes, under their keys', async () => {
    const browser = new FakeBrowser();
    const qs = 'quick-score-queue:7:run:';
    const annotator = 'annotator:7:video:';
    localStorage.setItem(
      `${qs}old-tab`,
      JSON.stringify({ beat: 1, items: [{ key: 'k1', action: { kind: 'flag', id: 1, at: 1 }, createdAt: 10 }] }),
    );
    localStorage.setItem(
      `${annotator}old-queue`,
      JSON.stringify({ heartbeat: 0, items: [{ id: 'e1', payload: { track: 't' }, attempts: 3 }] }),
    );
    const tab = browser.openTab().tab;
    const actions = await openEntry<unknown>(qs, tab);
    expect(actions.recovered).toEqual([{ key: 'k1', payload: { kind: 'flag', id: 1, at: 1 }, createdAt: 10 }]);
    const edits = await openEntry<unknown>(annotator, tab);
    expect(edits.recovered).toEqual([{ key: 'e1', payload: { track: 't' }, createdAt: 0 }]);
    // Written back in the one shape, under this tab's key.
    expect(JSON.parse(localStorage.getItem(actions.key)!)).toMatchObject({ items: actions.recovered });
    expect(keysOf(qs)).toEqual([actions.key]);
    expect(keysOf(annotator)).toEqual([edits.key]);
  });

  it('leave a tab still running the previous Quick Score (its old lock held) alone', async () => {
    const browser = new FakeBrowser();
    const oldTab = browser.openTab();
    const locks = oldTab.tab.env.locks!;
    void locks.request('quick-score-tab-old', () => new Promise<void>(() => {}));
    const prefix = 'quick-score-queue:7:run:';
    localStorage.setItem(`${prefix}old`, JSON.stringify({ beat: 1, items: [item('k', 1, 1)] }));
    const entry = await openEntry<Change>(prefix, browser.openTab().tab);
    expect(entry.recovered).toEqual([]);
    oldTab.close();
    const later = await openEntry<Change>(prefix, browser.openTab().tab);
    expect(later.recovered.map((i) => i.key)).toEqual(['k']);
  });
});
