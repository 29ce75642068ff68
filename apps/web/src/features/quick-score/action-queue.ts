/**
 * Every Quick Score action is kept in the browser's storage until the server has acknowledged it, sent one call at a
 * time with the version the page knows, and retried with backoff when the network or the server fails. When someone
 * else saved first (409) the queue reloads the events, keeps each waiting action that still makes sense on top of
 * theirs (and says so), and drops — with a sentence about what changed — those that do not. What the server refuses
 * because the project is locked is kept (not dropped): the queue says it waits for the project to be renewed, tries
 * again slowly, and its actions can be downloaded meanwhile.
 */
import type { EventChange, EventsAnswer, UpdateEventsAnswer } from '@/features/analysis/api';
import { ApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/errors';
import { countOf } from '@/lib/format';
import { isProjectLocked, LOCKED_MESSAGE, LOCKED_RETRY_DELAYS_MS } from '@/lib/project-locked';
import {
  applyAction,
  applyToList,
  changeOf,
  checkAction,
  describeAction,
  EventList,
  type ReviewAction,
  type Reviewer,
  withId,
} from './review-events';

export interface QueuedAction {
  key: string;
  action: ReviewAction;
  /** When it was taken (ms since the epoch). */
  createdAt: number;
}

export interface QueueTransport {
  /** One update-events call with `version`; rejects with an ApiError (or a network error). */
  update(version: number, changes: EventChange[]): Promise<UpdateEventsAnswer>;
  /** The run's events and version now. */
  fetchAll(): Promise<EventsAnswer>;
}

/** Where waiting actions survive a reload or a crash (the browser's localStorage in the app). */
export interface QueueStore {
  load(): QueuedAction[];
  save(items: readonly QueuedAction[]): void;
}

export type SaveState = 'saved' | 'saving' | 'unsaved';

export interface QueueNotice {
  tone: 'info' | 'warning' | 'error';
  message: string;
}

export interface QueueSnapshot {
  /** Bumped whenever the events shown change. */
  revision: number;
  state: SaveState;
  /** Actions not acknowledged yet. */
  pending: number;
  /** Why the last attempt failed, while the queue waits to retry. */
  failure: string | null;
  /** When the next attempt runs (ms since the epoch), while one is scheduled. */
  retryAt: number | null;
  /** The waiting actions were refused because the project is locked: they are kept until it is renewed. */
  locked: boolean;
}

/** Waits between attempts after a failure: 1 s, 2 s, 4 s … at most 30 s. */
export const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 15_000, 30_000];
/** Review marks (moving past events) that travel in one call. */
const MARKS_PER_CALL = 200;

/** A failure worth retrying: no answer at all, a server error, a timeout, rate limiting, an ended session. */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status >= 500 || error.status === 408 || error.status === 429 || error.status === 401;
}

export class ActionQueue {
  private server = new EventList();
  private shown = new EventList();
  private version = 0;
  private items: QueuedAction[] = [];
  private inFlight = false;
  private started = false;
  private stopped = false;
  private needsReload = false;
  private attempt = 0;
  private lockedAttempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private snapshot: QueueSnapshot = {
    revision: 0,
    state: 'saved',
    pending: 0,
    failure: null,
    retryAt: null,
    locked: false,
  };
  private readonly listeners = new Set<() => void>();
  private lowestTempId = 0;

  constructor(
    private readonly options: {
      transport: QueueTransport;
      store: QueueStore;
      /** Who acts: shown as the changer and reviewer until the server answers. */
      me: Reviewer;
      /** Half a frame in seconds: two events closer than this are on the same frame. */
      halfFrame: number;
      onNotice?: (notice: QueueNotice) => void;
      /** A temporary id (an unsaved add) has its server id now. */
      onIdAssigned?: (temporary: number, id: number) => void;
    },
  ) {}

  /** The events as the reviewer sees them: the server's, with every waiting action applied. */
  get events(): EventList {
    return this.shown;
  }

  getSnapshot = (): QueueSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** A fresh temporary id for an added event (negative, never used before, even by actions from a past visit). */
  newTemporaryId(): number {
    this.lowestTempId -= 1;
    return this.lowestTempId;
  }

  /**
   * Starts from the server's events. Actions left waiting by an earlier visit (a reload, a crash, a closed tab) are
   * taken up again when they still make sense, and sent.
   */
  start(initial: EventsAnswer) {
    this.started = true;
    const recovered = this.options.store.load();
    for (const item of recovered) this.lowestTempId = Math.min(this.lowestTempId, item.action.id);
    this.items = recovered;
    const outcome = this.rebase(initial);
    if (outcome.kept > 0) {
      this.notify('info', `${countOf(outcome.kept, 'unsaved change')} from your last visit: saving.`);
    }
    for (const message of outcome.conflicts) this.notify('warning', message);
    this.persist();
    this.update({});
    void this.pump();
  }

  /** Applies the action at once and queues it for the server. */
  enqueue(action: ReviewAction, key = randomKey()) {
    if (!this.started || this.stopped) return;
    const item: QueuedAction = { key, action, createdAt: Date.now() };
    this.items.push(item);
    applyToList(this.shown, action, this.options.me, new Date(item.createdAt).toISOString());
    this.persist();
    this.update({ revision: this.snapshot.revision + 1 });
    void this.pump();
  }

  /** The actions not acknowledged yet, oldest first (what "Download unsaved changes" writes). */
  pendingActions(): readonly QueuedAction[] {
    return this.items;
  }

  /** Tries again now (the network came back, or the user asked). */
  retryNow() {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.update({ retryAt: null });
    void this.pump();
  }

  stop() {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private async pump(): Promise<void> {
    if (this.inFlight || this.stopped || !this.started || this.retryTimer) return;
    if (!this.needsReload && this.items.length === 0) {
      this.update({ state: 'saved', pending: 0, failure: null, locked: false });
      return;
    }
    this.inFlight = true;
    this.update({ state: this.snapshot.failure ? 'unsaved' : 'saving', pending: this.items.length });
    try {
      if (this.needsReload) await this.reload(false);
      else await this.sendHead();
      this.attempt = 0;
      this.lockedAttempt = 0;
      this.update({ failure: null, locked: false });
    } catch (error) {
      this.scheduleRetry(error);
    } finally {
      this.inFlight = false;
      this.persist();
      this.update({ pending: this.items.length });
    }
    void this.pump();
  }

  private async sendHead() {
    const head = this.items[0];
    if (!head) return;
    const batch = [head];
    if (head.action.kind === 'review') {
      for (let i = 1; i < this.items.length && batch.length < MARKS_PER_CALL; i++) {
        const item = this.items[i]!;
        if (item.action.kind !== 'review') break;
        batch.push(item);
      }
    }
    let answer: UpdateEventsAnswer;
    try {
      answer = await this.options.transport.update(
        this.version,
        batch.map((item) => changeOf(item.action)),
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        await this.reload(true);
        return;
      }
      // Locked: not wrong, only not now — kept and retried (scheduleRetry), never dropped.
      if (isRetryable(error) || isProjectLocked(error)) throw error;
      this.refuse(batch, error);
      return;
    }
    this.acknowledge(batch, answer);
  }

  /** The server has the batch: its answer becomes the known state of those events. */
  private acknowledge(batch: QueuedAction[], answer: UpdateEventsAnswer) {
    const marksOnly = batch.every((item) => item.action.kind === 'review');
    const done = new Set(batch.map((item) => item.key));
    this.items = this.items.filter((item) => !done.has(item.key));
    const touched = new Set<number>();
    for (const event of answer.events) {
      this.server.set(event);
      touched.add(event.id);
    }
    let added = 0;
    for (const item of batch) {
      const { action } = item;
      if (action.kind === 'delete') {
        this.server.remove(action.id);
        touched.add(action.id);
      } else if (action.kind === 'add') {
        const id = answer.added_ids[added++];
        if (id === undefined) continue;
        this.shown.remove(action.id);
        this.items = this.items.map((waiting) => ({ ...waiting, action: withId(waiting.action, action.id, id) }));
        this.options.onIdAssigned?.(action.id, id);
        touched.add(id);
      }
    }
    if (marksOnly) {
      // Marks leave the version alone; a different one means someone else saved meanwhile: catch up with them.
      if (answer.version !== this.version) this.needsReload = true;
    } else this.version = answer.version;
    for (const id of touched) this.reshow(id);
    this.update({ revision: this.snapshot.revision + 1 });
  }

  /** The server refused the batch for good (400, 403, 404): drop it, say why, and reload what the server has. */
  private refuse(batch: QueuedAction[], error: unknown) {
    const dropped = new Set(batch.map((item) => item.key));
    this.items = this.items.filter((item) => !dropped.has(item.key));
    const what = batch.length === 1 ? describeAction(batch[0]!.action) : `${batch.length} changes`;
    this.notify('error', `${what} could not be saved: ${errorMessage(error)}`);
    this.needsReload = true;
  }

  /** Reloads the run's events and lays the waiting actions on top again (after a 409, a refusal, or others' saves). */
  private async reload(afterConflict: boolean) {
    const fresh = await this.options.transport.fetchAll();
    this.needsReload = false;
    const outcome = this.rebase(fresh);
    if (afterConflict && outcome.kept > 0) {
      this.notify(
        'info',
        `Someone else saved changes to this run; your ${outcome.kept === 1 ? 'change was' : `${outcome.kept} changes were`} applied on top of theirs.`,
      );
    }
    for (const message of outcome.conflicts) this.notify('warning', message);
  }

  /** The server's events as `fresh`, the waiting actions that still make sense on top: returns what became of them. */
  private rebase(fresh: EventsAnswer): { kept: number; conflicts: string[] } {
    this.server = new EventList(fresh.events);
    this.version = fresh.version;
    const shown = this.server.clone();
    const kept: QueuedAction[] = [];
    const conflicts: string[] = [];
    let changes = 0;
    for (const item of this.items) {
      const check = checkAction(item.action, shown, this.options.halfFrame);
      if (check.result === 'conflict') conflicts.push(check.message);
      if (check.result !== 'apply') continue;
      kept.push(item);
      if (item.action.kind !== 'review') changes++;
      applyToList(shown, item.action, this.options.me, new Date(item.createdAt).toISOString());
    }
    this.items = kept;
    this.shown = shown;
    this.update({ revision: this.snapshot.revision + 1 });
    return { kept: changes, conflicts };
  }

  /** One event as shown: the server's, with the waiting actions on it applied. */
  private reshow(id: number) {
    let event = this.server.get(id);
    let exists = event !== undefined;
    for (const item of this.items) {
      if (item.action.id !== id) continue;
      const next = applyAction(event, item.action, this.options.me, new Date(item.createdAt).toISOString());
      event = next ?? undefined;
      exists = next !== null;
    }
    if (exists && event) this.shown.set(event);
    else this.shown.remove(id);
  }

  private scheduleRetry(error: unknown) {
    const locked = isProjectLocked(error);
    const delays = locked ? LOCKED_RETRY_DELAYS_MS : RETRY_DELAYS_MS;
    const tries = locked ? this.lockedAttempt++ : this.attempt++;
    if (!locked) this.lockedAttempt = 0;
    const delay = delays[Math.min(tries, delays.length - 1)]!;
    const retryAt = Date.now() + delay;
    this.update({ state: 'unsaved', failure: failureText(error), retryAt, locked });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.update({ retryAt: null });
      void this.pump();
    }, delay);
  }

  private persist() {
    this.options.store.save(this.items);
  }

  private notify(tone: QueueNotice['tone'], message: string) {
    this.options.onNotice?.({ tone, message });
  }

  private update(partial: Partial<QueueSnapshot>) {
    const next = { ...this.snapshot, ...partial, pending: partial.pending ?? this.items.length };
    if (!this.inFlight && !this.retryTimer && next.pending === 0 && !this.needsReload) next.state = 'saved';
    else if (next.failure || this.retryTimer) next.state = 'unsaved';
    else if (next.pending > 0 || this.inFlight) next.state = 'saving';
    const keys = Object.keys(next) as (keyof QueueSnapshot)[];
    if (keys.every((key) => next[key] === this.snapshot[key])) return;
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }
}

function failureText(error: unknown): string {
  if (isProjectLocked(error)) return LOCKED_MESSAGE;
  if (error instanceof ApiError) {
    if (error.status === 401) return 'Your session has ended: sign in again to save.';
    return `The server answered ${error.status}.`;
  }
  return 'No connection to the server.';
}

function randomKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}
