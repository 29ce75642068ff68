import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventChange, EventsAnswer, UpdateEventsAnswer } from '@/features/analysis/api';
import { ApiError } from '@/lib/api-client';
import { LOCKED_MESSAGE, LOCKED_RETRY_DELAYS_MS } from '@/lib/project-locked';
import type { QueueItem } from '@/lib/save-queue/entry';
import { FakeBrowser } from '@/lib/save-queue/fake-tabs';
import type { Tab } from '@/lib/save-queue/tab';
import { ActionQueue, type QueueNotice, queueKeyPrefix } from './action-queue';
import type { ReviewAction, ReviewEvent, Reviewer } from './review-events';

const ME: Reviewer = { id: 1, display_name: 'Ada Lovelace' };
const ANN: Reviewer = { id: 2, display_name: 'Ann Other' };
const HALF_FRAME = 0.5 / 30;

function event(id: number, time: number, extra: Partial<ReviewEvent> = {}): ReviewEvent {
  return {
    id,
    time,
    original_time: time,
    label: null,
    flagged: false,
    discarded: false,
    updated_by: null,
    updated_at: null,
    reviewed_by: null,
    reviewed_at: null,
    last_viewed_by: null,
    last_viewed_at: null,
    resolved_by: null,
    resolved_at: null,
    suggestion: null,
    accepted_suggestion: null,
    ...extra,
  };
}

/**
 * The update-events rules of the server, in memory: versions (409 with the current one), review marks without a
 * version, ids for adds, answers of the touched events. `down` makes calls fail like a lost connection.
 */
class FakeServer {
  events = new Map<number, ReviewEvent>();
  version = 0;
  nextId = 1;
  down = 0;
  status: number | null = null;
  /** The project is locked: every change is refused with 403 and the locked message until this is false. */
  locked = false;
  calls: { version: number; changes: EventChange[] }[] = [];

  constructor(events: ReviewEvent[]) {
    for (const e of events) this.events.set(e.id, e);
    this.nextId = Math.max(0, ...events.map((e) => e.id)) + 1;
  }

  answer(): EventsAnswer {
    return {
      analysis_uuid: 'run',
      version: this.version,
      events: [...this.events.values()].sort((a, b) => a.time - b.time),
    };
  }

  /** Someone else's saved change. */
  other(change: (events: Map<number, ReviewEvent>) => void) {
    change(this.events);
    this.version += 1;
  }

  transport = {
    fetchAll: async () => {
      if (this.down > 0) {
        this.down--;
        throw new TypeError('Failed to fetch');
      }
      return this.answer();
    },
    update: async (version: number, changes: EventChange[]): Promise<UpdateEventsAnswer> => {
      this.calls.push({ version, changes });
      if (this.down > 0) {
        this.down--;
        throw new TypeError('Failed to fetch');
      }
      if (this.locked) throw new ApiError(403, { errors: LOCKED_MESSAGE }, 'POST', '/update-events/');
      if (this.status) {
        const status = this.status;
        this.status = null;
        throw new ApiError(status, { errors: `Refused with ${status}.` }, 'POST', '/update-events/');
      }
      const marks = changes.every((c) => c.action === 'review');
      if (!marks && version !== this.version) {
        throw new ApiError(409, { errors: 'Changed.', version: this.version }, 'POST', '/update-events/');
      }
      const stamp = { updated_by: ME, updated_at: 'now', reviewed_by: ME, reviewed_at: 'now' };
      const touched = new Set<number>();
      const added: number[] = [];
      for (const change of changes) {
        if (change.action === 'add') {
          const id = this.nextId++;
          this.events.set(id, {
            ...event(id, change.time),
            original_time: null,
            label: change.label ?? null,
            ...stamp,
          });
          added.push(id);
          touched.add(id);
          continue;
        }
        if (!('id' in change)) continue;
        const current = this.events.get(change.id);
        if (!current) continue;
        touched.add(change.id);
        if (change.action === 'review') this.events.set(change.id, { ...current, reviewed_by: ME, reviewed_at: 'now' });
        else if (change.action === 'discard' || change.action === 'restore')
          this.events.set(change.id, { ...current, discarded: change.action === 'discard', ...stamp });
        else if (change.action === 'flag' || change.action === 'unflag')
          this.events.set(change.id, { ...current, flagged: change.action === 'flag', ...stamp });
        else if (change.action === 'label') this.events.set(change.id, { ...current, label: change.label, ...stamp });
        else if (change.action === 'move') this.events.set(change.id, { ...current, time: change.time, ...stamp });
        else if (change.action === 'delete') {
          this.events.delete(change.id);
          touched.delete(change.id);
        }
      }
      if (!marks) this.version += 1;
      return {
        ...this.answer(),
        events: [...touched].flatMap((id) => this.events.get(id) ?? []),
        added_ids: added,
        accepted: 0,
      };
    },
  };
}

/** What this browser's storage holds for a queue: its waiting actions, oldest first, over all tabs' entries. */
function storedActions(storageKey: string): ReviewAction[] {
  return Object.keys(localStorage)
    .filter((key) => key.startsWith(storageKey))
    .flatMap((key) => (JSON.parse(localStorage.getItem(key)!) as { items: QueueItem<ReviewAction>[] }).items)
    .map((item) => item.payload);
}

let browser: FakeBrowser;
let runs = 0;

/** A page on the run, in `tab` (one tab of the test's browser by default), with the waiting actions it recovered. */
async function setup(server: FakeServer, storageKey = queueKeyPrefix(1, `run-${++runs}`), tab?: Tab) {
  const notices: QueueNotice[] = [];
  const assigned: [number, number][] = [];
  const queue = new ActionQueue({
    storageKey,
    tab: tab ?? browser.openTab().tab,
    transport: server.transport,
    me: ME,
    halfFrame: HALF_FRAME,
    onNotice: (notice) => notices.push(notice),
    onIdAssigned: (from, to) => assigned.push([from, to]),
  });
  await queue.ready;
  return { queue, storageKey, notices, assigned };
}

/** Lets every pending promise and due timer run. */
const flush = async (ms = 0) => {
  await vi.advanceTimersByTimeAsync(ms);
};

beforeEach(() => {
  vi.useFakeTimers();
  browser = new FakeBrowser();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ActionQueue', () => {
  it('shows an action at once, sends it with the known version, and forgets it once acknowledged', async () => {
    const server = new FakeServer([event(1, 1), event(2, 2)]);
    const { queue, storageKey } = await setup(server);
    queue.start(server.answer());
    queue.enqueue({ kind: 'discard', id: 1, at: 1 });
    expect(queue.events.get(1)).toMatchObject({ discarded: true, updated_by: ME, reviewed_by: ME });
    expect(queue.events.reviewed).toBe(1);
    expect(storedActions(storageKey)).toHaveLength(1);
    expect(queue.getSnapshot().state).toBe('saving');

    await flush();
    expect(server.calls).toEqual([{ version: 0, changes: [{ action: 'discard', id: 1 }] }]);
    expect(server.events.get(1)!.discarded).toBe(true);
    expect(storedActions(storageKey)).toEqual([]);
    expect(queue.getSnapshot()).toMatchObject({ state: 'saved', pending: 0 });

    queue.enqueue({ kind: 'flag', id: 2, at: 2 });
    await flush();
    expect(server.calls[1]!.version).toBe(1);
    expect(server.version).toBe(2);
  });

  it('keeps failed saves, retries them with growing waits, and sends them in order once the server answers', async () => {
    const server = new FakeServer([event(1, 1), event(2, 2)]);
    const { queue, storageKey } = await setup(server);
    queue.start(server.answer());
    server.down = 2;
    queue.enqueue({ kind: 'flag', id: 1, at: 1 });
    queue.enqueue({ kind: 'label', id: 2, at: 2, label: 'paw', before: null });
    await flush();
    expect(queue.getSnapshot()).toMatchObject({
      state: 'unsaved',
      pending: 2,
      failure: 'No connection to the server.',
    });
    expect(storedActions(storageKey).map((action) => action.kind)).toEqual(['flag', 'label']);
    // First wait 1 s, then 2 s.
    await flush(999);
    expect(server.calls).toHaveLength(1);
    await flush(1);
    expect(server.calls).toHaveLength(2);
    expect(queue.getSnapshot().state).toBe('unsaved');
    await flush(1999);
    expect(server.calls).toHaveLength(2);
    await flush(1);
    expect(server.calls.map((c) => c.changes[0]!.action)).toEqual(['flag', 'flag', 'flag', 'label']);
    expect(queue.getSnapshot()).toMatchObject({ state: 'saved', pending: 0, failure: null });
    expect(server.events.get(1)!.flagged).toBe(true);
    expect(server.events.get(2)!.label).toBe('paw');

    // A server error is retried too; retryNow does not wait.
    server.status = 503;
    queue.enqueue({ kind: 'unflag', id: 1, at: 1 });
    await flush();
    expect(queue.getSnapshot().failure).toBe('The server answered 503.');
    queue.retryNow();
    await flush();
    expect(queue.getSnapshot().state).toBe('saved');
    expect(server.events.get(1)!.flagged).toBe(false);
  });

  it('after a 409 re-applies actions that still make sense on top of the other change, and says so', async () => {
    const server = new FakeServer([event(1, 1), event(2, 2), event(3, 3)]);
    const { queue, notices } = await setup(server);
    queue.start(server.answer());
    server.other((events) => events.set(3, { ...events.get(3)!, flagged: true, updated_by: ANN }));
    queue.enqueue({ kind: 'discard', id: 1, at: 1 });
    queue.enqueue({ kind: 'label', id: 2, at: 2, label: 'left hand', before: null });
    await flush();
    expect(server.calls.map((c) => c.version)).toEqual([0, 1, 2]);
    expect(server.events.get(1)!.discarded).toBe(true);
    expect(server.events.get(2)!.label).toBe('left hand');
    // Both changes are kept: theirs is shown too.
    expect(queue.events.get(3)!.flagged).toBe(true);
    expect(notices).toEqual([
      {
        tone: 'info',
        message: 'Someone else saved changes to this run; your 2 changes were applied on top of theirs.',
      },
    ]);
  });

  it('after a 409 drops actions made on values someone else changed, and tells what changed', async () => {
    const server = new FakeServer([event(1, 1), event(2, 2), event(3, 3)]);
    const { queue, notices } = await setup(server);
    queue.start(server.answer());
    server.other((events) => {
      events.set(2, { ...events.get(2)!, label: 'tail', updated_by: ANN });
      events.set(3, { ...events.get(3)!, time: 3.5, updated_by: ANN });
      events.delete(1);
    });
    queue.enqueue({ kind: 'label', id: 2, at: 2, label: 'left hand', before: null });
    queue.enqueue({ kind: 'move', id: 3, time: 2.9, before: 3 });
    queue.enqueue({ kind: 'flag', id: 1, at: 1 });
    await flush();
    expect(server.calls).toHaveLength(1);
    expect(queue.getSnapshot()).toMatchObject({ state: 'saved', pending: 0 });
    expect(queue.events.get(2)!.label).toBe('tail');
    expect(queue.events.get(3)!.time).toBe(3.5);
    expect(queue.events.get(1)).toBeUndefined();
    expect(notices.map((n) => n.message)).toEqual([
      'Ann Other labelled the event at 0:00:02.000 “tail”; your label “left hand” was not saved.',
      'Ann Other moved the event from 0:00:03.000 to 0:00:03.500; your move to 0:00:02.900 was not saved.',
      'Someone deleted the event at 0:00:01.000, so it was not flagged.',
    ]);
    expect(notices.every((n) => n.tone === 'warning')).toBe(true);
  });

  it('treats a change someone else already made as done', async () => {
    const server = new FakeServer([event(1, 1)]);
    const { queue, notices } = await setup(server);
    queue.start(server.answer());
    server.other((events) => events.set(1, { ...events.get(1)!, discarded: true, updated_by: ANN }));
    queue.enqueue({ kind: 'discard', id: 1, at: 1 });
    await flush();
    expect(server.calls).toHaveLength(1);
    expect(server.version).toBe(1);
    expect(notices).toEqual([]);
    expect(queue.getSnapshot().state).toBe('saved');
  });

  it('keeps unsaved actions across a reload and sends them; those the server already has are not sent again', async () => {
    const server = new FakeServer([event(1, 1), event(2, 2), event(3, 3)]);
    const reloadedTab = browser.openTab();
    const first = await setup(server, undefined, reloadedTab.tab);
    const { storageKey } = first;
    first.queue.start(server.answer());
    server.down = 100;
    first.queue.enqueue({ kind: 'flag', id: 1, at: 1 });
    first.queue.enqueue({ kind: 'discard', id: 2, at: 2 });
    first.queue.enqueue({ kind: 'label', id: 3, at: 3, label: 'paw', before: null });
    await flush();
    first.queue.stop();
    expect(storedActions(storageKey)).toHaveLength(3);

    // The first action reached the server before the page went away; its answer was lost.
    server.down = 0;
    await server.transport.update(0, [{ action: 'flag', id: 1 }]);
    server.calls = [];

    // The tab reloads: the page goes (its lock with it) and comes back with the same sessionStorage.
    reloadedTab.close();
    const second = await setup(server, storageKey, browser.openTab({ session: reloadedTab.session }).tab);
    second.queue.start(server.answer());
    expect(second.queue.events.get(2)!.discarded).toBe(true);
    expect(second.notices[0]).toEqual({ tone: 'info', message: '2 unsaved changes from your last visit: saving.' });
    await flush();
    expect(server.calls.map((c) => c.changes)).toEqual([
      [{ action: 'discard', id: 2 }],
      [{ action: 'label', id: 3, label: 'paw' }],
    ]);
    expect(storedActions(storageKey)).toEqual([]);
    expect(server.events.get(3)!.label).toBe('paw');
  });

  it('drops what the server refuses, says why, and shows the server’s events again', async () => {
    const server = new FakeServer([event(1, 1)]);
    const { queue, notices } = await setup(server);
    queue.start(server.answer());
    server.status = 403;
    queue.enqueue({ kind: 'flag', id: 1, at: 1 });
    expect(queue.events.get(1)!.flagged).toBe(true);
    await flush();
    expect(notices).toEqual([
      { tone: 'error', message: 'Event at 0:00:01.000 flagged could not be saved: Refused with 403.' },
    ]);
    expect(queue.events.get(1)!.flagged).toBe(false);
    expect(queue.getSnapshot()).toMatchObject({ state: 'saved', pending: 0 });
  });

  it('keeps actions refused because the project is locked, shows them, says why, and saves them once renewed', async () => {
    const server = new FakeServer([event(1, 1), event(2, 2)]);
    const { queue, storageKey, notices } = await setup(server);
    queue.start(server.answer());
    server.locked = true;
    queue.enqueue({ kind: 'flag', id: 1, at: 1 });
    queue.enqueue({ kind: 'discard', id: 2, at: 2 });
    await flush();
    expect(queue.getSnapshot()).toMatchObject({ state: 'unsaved', pending: 2, locked: true, failure: LOCKED_MESSAGE });
    expect(notices).toEqual([]);
    expect(queue.events.get(1)!.flagged).toBe(true);
    expect(queue.events.get(2)!.discarded).toBe(true);
    expect(storedActions(storageKey).map((action) => action.kind)).toEqual(['flag', 'discard']);
    expect(queue.pendingActions().map((item) => item.action)).toEqual([
      { kind: 'flag', id: 1, at: 1 },
      { kind: 'discard', id: 2, at: 2 },
    ]);
    // Still locked at the next try: kept again, waiting longer.
    await flush(LOCKED_RETRY_DELAYS_MS[0]);
    expect(server.calls).toHaveLength(2);
    expect(queue.getSnapshot()).toMatchObject({ state: 'unsaved', pending: 2, locked: true });
    // Renewed: the next try saves both.
    server.locked = false;
    await flush(LOCKED_RETRY_DELAYS_MS[1]);
    expect(queue.getSnapshot()).toMatchObject({ state: 'saved', pending: 0, locked: false, failure: null });
    expect(server.events.get(1)!.flagged).toBe(true);
    expect(server.events.get(2)!.discarded).toBe(true);
    expect(storedActions(storageKey)).toEqual([]);
  });

  it('numbers an added event when the server does, and sends later actions on it with that id', async () => {
    const server = new FakeServer([event(1, 1)]);
    const { queue, assigned } = await setup(server);
    queue.start(server.answer());
    server.down = 1;
    const temporary = queue.newTemporaryId();
    queue.enqueue({ kind: 'add', id: temporary, time: 4.5, label: null });
    queue.enqueue({ kind: 'label', id: temporary, at: 4.5, label: 'paw', before: null });
    expect(queue.events.get(temporary)).toMatchObject({ time: 4.5, label: 'paw', original_time: null });
    await flush(1000);
    expect(assigned).toEqual([[temporary, 2]]);
    expect(server.calls.at(-1)!.changes).toEqual([{ action: 'label', id: 2, label: 'paw' }]);
    expect(queue.events.get(temporary)).toBeUndefined();
    expect(queue.events.get(2)).toMatchObject({ time: 4.5, label: 'paw' });
    expect(queue.events.size).toBe(2);
    expect(queue.newTemporaryId()).toBeLessThan(temporary);
  });

  it('sends review marks together without a version, and catches up when others saved meanwhile', async () => {
    const server = new FakeServer([event(1, 1), event(2, 2), event(3, 3)]);
    const { queue } = await setup(server);
    queue.start(server.answer());
    server.other((events) => events.set(3, { ...events.get(3)!, label: 'tail', updated_by: ANN }));
    server.down = 1;
    queue.enqueue({ kind: 'review', id: 1, at: 1 });
    queue.enqueue({ kind: 'review', id: 2, at: 2 });
    await flush(1000);
    expect(server.calls.at(-1)).toEqual({
      version: 0,
      changes: [
        { action: 'review', id: 1 },
        { action: 'review', id: 2 },
      ],
    });
    expect(queue.events.reviewed).toBe(2);
    // The marks' answer carried version 1: the queue reloaded, so Ann's label shows and the next change uses it.
    expect(queue.events.get(3)!.label).toBe('tail');
    queue.enqueue({ kind: 'flag', id: 3, at: 3 });
    await flush();
    expect(server.calls.at(-1)!.version).toBe(1);
    expect(server.events.get(3)).toMatchObject({ flagged: true, label: 'tail' });
  });
});
