import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { LOCKED_MESSAGE } from '@/lib/project-locked';
import { FakeBrowser } from '@/lib/save-queue/fake-tabs';
import type { Tab } from '@/lib/save-queue/tab';
import { AnnotationSync, type SyncEvent, type SyncTransport, syncStorageKey } from './annotation-sync';
import { applyChange, type Range, type RangeChange } from './bouts';

/** A server with the API's rules for one track: PATCH on a stale version is 409 with the current list. */
function fakeServer(initial: Range[] = []) {
  const state = {
    ranges: initial,
    version: 0,
    offline: false,
    refuse: null as { status: number; errors: string } | null,
  };
  const transport: SyncTransport = {
    ranges: async () => ({ ranges: state.ranges, version: state.version }),
    patch: async (_track, version, change: RangeChange) => {
      if (state.offline) throw new TypeError('Failed to fetch');
      if (state.refuse) throw new ApiError(state.refuse.status, { errors: state.refuse.errors }, 'PATCH', '/api/…/t/');
      if (version !== state.version) {
        throw new ApiError(
          409,
          { errors: 'changed', version: state.version, ranges: state.ranges },
          'PATCH',
          '/api/…/annotations/t/',
        );
      }
      state.ranges = applyChange(state.ranges, change);
      state.version++;
      return { ranges: state.ranges, version: state.version };
    },
  };
  return { state, transport };
}

const syncs: AnnotationSync[] = [];
const open = (key: string, transport: SyncTransport, tab?: Tab) => {
  const sync = new AnnotationSync(syncStorageKey(1, key), transport, tab);
  syncs.push(sync);
  return sync;
};
afterEach(() => {
  for (const sync of syncs.splice(0)) sync.dispose();
});

describe('saving annotation edits', () => {
  it('sends each edit as a change on the confirmed version', async () => {
    const server = fakeServer();
    const sync = open('a', server.transport);
    sync.setConfirmed('t', [], 0);
    sync.save({ track: 't', trackName: 'Grooming', change: { remove: [], add: [[1, 2]] } });
    sync.save({ track: 't', trackName: 'Grooming', change: { remove: [[1, 2]], add: [[1, 3]] } });
    await vi.waitFor(() => expect(sync.status().state).toBe('saved'));
    expect(server.state).toMatchObject({ ranges: [[1, 3]], version: 2 });
  });

  it('two tabs on the same track lose no change: the stale one is re-applied on top and says so', async () => {
    const server = fakeServer();
    const browser = new FakeBrowser();
    const tabA = open('video', server.transport, browser.openTab().tab);
    const tabB = open('video', server.transport, browser.openTab().tab);
    tabA.setConfirmed('t', [], 0);
    tabB.setConfirmed('t', [], 0);
    const events: SyncEvent[] = [];
    tabB.subscribe((event) => events.push(event));
    tabA.save({ track: 't', trackName: 'Grooming', change: { remove: [], add: [[1, 2]] } });
    await vi.waitFor(() => expect(tabA.status().state).toBe('saved'));
    tabB.save({ track: 't', trackName: 'Grooming', change: { remove: [], add: [[5, 6]] } });
    await vi.waitFor(() => expect(tabB.status().state).toBe('saved'));
    expect(server.state.ranges).toEqual([
      [1, 2],
      [5, 6],
    ]);
    expect(events[0]).toMatchObject({
      type: 'rebase',
      track: 't',
      ranges: [
        [1, 2],
        [5, 6],
      ],
      tone: 'info',
    });
    expect((events[0] as { notice: string }).notice).toContain('Someone else changed "Grooming"');
  });

  it('keeps an edit that could not be sent, says "not saved", and sends it when the server is back', async () => {
    const server = fakeServer();
    server.state.offline = true;
    const sync = open('offline', server.transport);
    sync.setConfirmed('t', [], 0);
    sync.save({ track: 't', trackName: 'Grooming', change: { remove: [], add: [[1, 2]] } });
    await vi.waitFor(() => expect(sync.status().state).toBe('unsaved'));
    expect(sync.pendingChanges('t')).toEqual([{ remove: [], add: [[1, 2]] }]);
    server.state.offline = false;
    sync.queue.retryNow();
    await vi.waitFor(() => expect(sync.status().state).toBe('saved'));
    expect(server.state.ranges).toEqual([[1, 2]]);
  });

  it('a reopened page shows the unsaved edits of the last one on top of the server list, and sends them', async () => {
    const server = fakeServer([[0, 1]]);
    server.state.offline = true;
    const first = open('reopen', server.transport);
    first.setConfirmed('t', [[0, 1]], 0);
    first.save({ track: 't', trackName: 'Grooming', change: { remove: [], add: [[3, 4]] } });
    await vi.waitFor(() => expect(first.status().state).toBe('unsaved'));
    first.dispose();
    server.state.offline = false;
    const second = open('reopen', server.transport);
    await second.queue.ready;
    expect(second.withPending('t', [[0, 1]])).toEqual([
      [0, 1],
      [3, 4],
    ]);
    await vi.waitFor(() => expect(second.status().state).toBe('saved'));
    expect(server.state.ranges).toEqual([
      [0, 1],
      [3, 4],
    ]);
  });
});

describe('a locked project', () => {
  it('keeps edits refused because the project is locked, says so, and saves them once it is renewed', async () => {
    const server = fakeServer();
    server.state.refuse = { status: 403, errors: LOCKED_MESSAGE };
    const sync = open('locked', server.transport);
    const events: SyncEvent[] = [];
    sync.subscribe((event) => events.push(event));
    sync.setConfirmed('t', [], 0);
    sync.save({ track: 't', trackName: 'Grooming', change: { remove: [], add: [[1, 2]] } });
    sync.save({ track: 't', trackName: 'Grooming', change: { remove: [], add: [[3, 4]] } });
    await vi.waitFor(() => expect(sync.status()).toMatchObject({ state: 'unsaved', locked: true, pending: 2 }));
    expect(sync.status().failure).toBe(LOCKED_MESSAGE);
    // Nothing refused, nothing undone on screen: both edits wait, and are what a download would hold.
    expect(events).toEqual([]);
    expect(sync.pendingEdits()).toEqual([
      { track: 't', trackName: 'Grooming', change: { remove: [], add: [[1, 2]] } },
      { track: 't', trackName: 'Grooming', change: { remove: [], add: [[3, 4]] } },
    ]);
    server.state.refuse = null;
    sync.queue.retryNow();
    await vi.waitFor(() => expect(sync.status()).toMatchObject({ state: 'saved', locked: false }));
    expect(server.state.ranges).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('still drops, as before, an edit refused for another reason (403 role, 400)', async () => {
    for (const refuse of [
      { status: 403, errors: 'You do not have permission to perform this action.' },
      { status: 400, errors: 'Ranges must not overlap.' },
    ]) {
      const server = fakeServer();
      server.state.refuse = refuse;
      const sync = open(`refused-${refuse.status}`, server.transport);
      const events: SyncEvent[] = [];
      sync.subscribe((event) => events.push(event));
      sync.setConfirmed('t', [], 0);
      sync.save({ track: 't', trackName: 'Grooming', change: { remove: [], add: [[1, 2]] } });
      await vi.waitFor(() => expect(sync.status()).toMatchObject({ state: 'saved', pending: 0, locked: false }));
      expect(events.at(-1)).toEqual({ type: 'refused', message: `"Grooming" was not changed: ${refuse.errors}` });
    }
  });
});

describe('reads that cross saves', () => {
  it('keeps the newer confirmed list when an older answer arrives late', () => {
    const sync = open('late', fakeServer().transport);
    expect(sync.setConfirmed('t', [[1, 2]], 3)).toEqual([[1, 2]]);
    expect(sync.setConfirmed('t', [], 2)).toEqual([[1, 2]]);
    expect(sync.confirmedVersion('t')).toBe(3);
  });
});
