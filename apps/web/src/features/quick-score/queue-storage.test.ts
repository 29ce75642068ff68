import { describe, expect, it } from 'vitest';
import type { QueuedAction } from './action-queue';
import { openQueueStore, queueKeyPrefix } from './queue-storage';

const item = (key: string, createdAt: number): QueuedAction => ({
  key,
  action: { kind: 'flag', id: 1, at: 1 },
  createdAt,
});

describe('queue storage', () => {
  it('keeps a tab’s queue under its own key and finds it again after a reload', async () => {
    const prefix = queueKeyPrefix(7, 'run-a');
    const store = await openQueueStore(prefix);
    store.save([item('a', 1)]);
    const keys = Object.keys(localStorage).filter((key) => key.startsWith(prefix));
    expect(keys).toHaveLength(1);
    store.close();

    const again = await openQueueStore(prefix);
    expect(again.load().map((i) => i.key)).toEqual(['a']);
    again.save([]);
    expect(Object.keys(localStorage).filter((key) => key.startsWith(prefix))).toEqual([]);
    again.close();
  });

  it('takes up the queue of a tab that is gone, oldest first, and leaves a live tab’s queue alone', async () => {
    const prefix = queueKeyPrefix(7, 'run-b');
    // No Web Locks in this environment: a tab is alive while its heartbeat is recent.
    localStorage.setItem(`${prefix}closed-tab`, JSON.stringify({ items: [item('old', 5)], beat: Date.now() - 60_000 }));
    localStorage.setItem(`${prefix}open-tab`, JSON.stringify({ items: [item('theirs', 3)], beat: Date.now() }));
    localStorage.setItem(
      queueKeyPrefix(8, 'run-b').concat('other-user'),
      JSON.stringify({ items: [item('x', 1)], beat: 0 }),
    );
    const store = await openQueueStore(prefix);
    store.save([...store.load(), item('mine', 9)]);
    expect(store.load().map((i) => i.key)).toEqual(['old', 'mine']);
    expect(localStorage.getItem(`${prefix}closed-tab`)).toBeNull();
    expect(localStorage.getItem(`${prefix}open-tab`)).not.toBeNull();
    expect(localStorage.getItem(queueKeyPrefix(8, 'run-b').concat('other-user'))).not.toBeNull();
    store.close();
  });
});
