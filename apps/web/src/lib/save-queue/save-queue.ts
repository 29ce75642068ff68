/**
 * The web app's one durable save queue (Quick Score's review actions, the Annotator's edits). Each item is kept in
 * localStorage until the server has acknowledged it, so a failed save, a reload, a closed tab or a crash loses
 * nothing: the next page on the same queue, in this tab or another, sends what was left (entry.ts, tab.ts).
 *
 * Items are sent in order, one call at a time (a user may send several leading items together). What the user's
 * `send` throws decides what happens next:
 * - 409, someone else saved first: `onConflict` re-applies — it leaves in the queue (changed if need be) what is to be
 *   sent again and removes what no longer makes sense, saying so — and the queue goes on with its head;
 * - the project is locked: kept (with everything after it), the status says so, tried again slowly
 *   (LOCKED_RETRY_DELAYS_MS) — the project may be renewed meanwhile — and the items can be downloaded;
 * - no answer, 5xx, 408, 429, 401: kept, the status says "not saved yet", retried after RETRY_DELAYS_MS;
 * - anything else (400, 403, 404 …): refused for good — `onRefused` says why and the items are dropped.
 * Retries also run at once when the browser is back online, when the page gets the focus back, and on `retryNow()`.
 */
import { ApiError } from '@/lib/api-client';
import { isProjectLocked, LOCKED_MESSAGE, LOCKED_RETRY_DELAYS_MS } from '@/lib/project-locked';
import { openEntry, type QueueEntry, type QueueItem } from './entry';
import { type Tab, thisTab } from './tab';

export type { QueueItem } from './entry';

/** Waits between attempts after a failure: 1 s, 2 s, 4 s … at most 30 s. */
export const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 15_000, 30_000];

export type SaveState = 'saved' | 'saving' | 'unsaved';

export interface SaveStatus {
  state: SaveState;
  /** Items not acknowledged yet. */
  pending: number;
  /** Why the last attempt failed, while the queue waits to retry. */
  failure: string | null;
  /** When the next attempt runs (ms since the epoch), while one is scheduled. */
  retryAt: number | null;
  /** The items were refused because the project is locked: they are kept until it is renewed. */
  locked: boolean;
}

/** A failure worth retrying: no answer at all, a server error, a timeout, rate limiting, an ended session. */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status >= 500 || error.status === 408 || error.status === 429 || error.status === 401;
}

export interface SaveQueueHooks<T, A> {
  /** One call to the server with `batch`; rejects with an ApiError (or a network error). */
  send(batch: readonly QueueItem<T>[]): Promise<A>;
  /** The server has the batch (already out of the queue). */
  onSaved?(batch: readonly QueueItem<T>[], answer: A): void;
  /** 409: re-apply on top of the other save — `replace` what waits; what is left is sent next. May throw to retry. */
  onConflict(batch: readonly QueueItem<T>[], error: ApiError): void | Promise<void>;
  /** Refused for good: say why. The batch is already out of the queue. */
  onRefused(batch: readonly QueueItem<T>[], error: unknown): void;
  /** How many leading items travel in one call (default 1). */
  batchSize?(pending: readonly QueueItem<T>[]): number;
  /** Work owed that is not an item (catching up with others' saves), asked for by `owe()`; retried like a send. */
  catchUp?(): Promise<void>;
  /** The status's sentence for a failure worth retrying. */
  failureText(error: unknown): string;
}

export interface SaveQueueOptions<T, A> {
  /** localStorage key prefix, e.g. `annotator:{user}:{video}:` — this tab's entry is the prefix and its id. */
  storageKey: string;
  hooks: SaveQueueHooks<T, A>;
  /** Wait for `start()` before sending (the user first lays what was recovered on the server's state). */
  paused?: boolean;
  /** The tab (tests play several). */
  tab?: Tab;
}

function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export class SaveQueue<T, A = void> {
  /** Resolves once this tab's entry is open and what closed tabs left is in the queue. */
  readonly ready: Promise<void>;
  private entry: QueueEntry<T> | null = null;
  private items: QueueItem<T>[] = [];
  private running: boolean;
  private sending = false;
  private owed = false;
  private disposed = false;
  private attempt = 0;
  private lockedAttempt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private snapshot: SaveStatus = { state: 'saved', pending: 0, failure: null, retryAt: null, locked: false };
  private readonly listeners = new Set<() => void>();
  private readonly hooks: SaveQueueHooks<T, A>;

  constructor(options: SaveQueueOptions<T, A>) {
    this.hooks = options.hooks;
    this.running = !options.paused;
    this.ready = openEntry<T>(options.storageKey, options.tab ?? thisTab()).then((entry) => {
      this.entry = entry;
      // Recovered items are older than anything pushed while the entry opened.
      this.items = [...entry.recovered, ...this.items];
      this.persist();
      if (this.disposed) entry.release();
      this.refresh();
      this.kick();
    });
    if (typeof window !== 'undefined') {
      window.addEventListener('online', this.retryNow);
      window.addEventListener('focus', this.onFocus);
      window.addEventListener('pagehide', this.onPageHide);
    }
  }

  /** Queues a change to save after those already waiting. */
  push(payload: T, key = newKey()): QueueItem<T> {
    const item = { key, payload, createdAt: Date.now() };
    if (this.disposed) return item;
    this.items.push(item);
    this.persist();
    this.refresh();
    this.kick();
    return item;
  }

  /** Items not acknowledged yet, oldest first (the batch being sent included). */
  pending(): readonly QueueItem<T>[] {
    return this.items;
  }

  /** What waits now, re-applied or renumbered by the user (same order; items left out are dropped). */
  replace(items: readonly QueueItem<T>[]): void {
    this.items = [...items];
    this.persist();
    this.refresh();
  }

  /** Asks for `hooks.catchUp` before the next send. */
  owe(): void {
    this.owed = true;
    this.refresh();
  }

  /** Starts sending (a queue opened `paused`). */
  start(): void {
    this.running = true;
    this.kick();
  }

  status = (): SaveStatus => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Tries now instead of waiting for the next retry (the network came back, or the user asked). */
  readonly retryNow = (): void => {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.setStatus({ retryAt: null });
    this.kick();
  };

  /** Stops sending; what is left stays stored, free for the next page on this queue to take over. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (typeof window !== 'undefined') {
      window.removeEventListener('online', this.retryNow);
      window.removeEventListener('focus', this.onFocus);
      window.removeEventListener('pagehide', this.onPageHide);
    }
    this.checkTaken();
    this.entry?.release();
    this.listeners.clear();
  }

  /** Back on the page (perhaps after renewing a locked project in another tab): what waits is tried at once. */
  private readonly onFocus = () => {
    if (this.timer) this.retryNow();
  };
  /** Leaving (or a crash soon after): the entry is let go, so the next page takes it over without waiting. */
  private readonly onPageHide = () => this.entry?.markFree();

  private kick(): void {
    if (this.sending || this.timer || this.disposed || !this.running || !this.entry) return;
    void this.pump();
  }

  private async pump(): Promise<void> {
    this.checkTaken();
    const owed = this.owed && this.hooks.catchUp !== undefined;
    if (!owed && this.items.length === 0) {
      this.owed = false;
      this.refresh();
      return;
    }
    this.sending = true;
    this.refresh();
    try {
      if (owed) {
        this.owed = false;
        try {
          await this.hooks.catchUp?.();
        } catch (error) {
          this.owed = true;
          throw error;
        }
      } else await this.sendHead();
      this.attempt = 0;
      this.lockedAttempt = 0;
      this.setStatus({ failure: null, locked: false });
    } catch (error) {
      if (!this.disposed) this.scheduleRetry(error);
    } finally {
      this.sending = false;
      this.checkTaken();
      this.persist();
      this.refresh();
    }
    this.kick();
  }

  private async sendHead(): Promise<void> {
    const size = Math.max(1, this.hooks.batchSize?.(this.items) ?? 1);
    const batch = this.items.slice(0, size);
    let answer: A;
    try {
      answer = await this.hooks.send(batch);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        await this.hooks.onConflict(batch, error);
        return;
      }
      if (isProjectLocked(error) || isRetryable(error)) throw error;
      this.remove(batch);
      this.hooks.onRefused(batch, error);
      return;
    }
    this.remove(batch);
    this.hooks.onSaved?.(batch, answer);
  }

  private remove(batch: readonly QueueItem<T>[]) {
    const done = new Set(batch.map((item) => item.key));
    this.items = this.items.filter((item) => !done.has(item.key));
  }

  private scheduleRetry(error: unknown) {
    const locked = isProjectLocked(error);
    const delays = locked ? LOCKED_RETRY_DELAYS_MS : RETRY_DELAYS_MS;
    const tries = locked ? this.lockedAttempt++ : this.attempt++;
    if (!locked) this.lockedAttempt = 0;
    const delay = delays[Math.min(tries, delays.length - 1)]!;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.setStatus({ retryAt: null });
      this.kick();
    }, delay);
    this.setStatus({
      failure: locked ? LOCKED_MESSAGE : this.hooks.failureText(error),
      retryAt: Date.now() + delay,
      locked,
    });
  }

  /**
   * This tab's entry vanished: another tab took it over while this one was asleep (or seemed closed) and sends those
   * items now, so this one forgets them rather than sending them twice.
   */
  private checkTaken() {
    if (!this.entry || this.entry.stillOurs()) return;
    this.items = [];
    this.owed = false;
    this.attempt = 0;
    this.lockedAttempt = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.setStatus({ failure: null, retryAt: null, locked: false });
  }

  private persist() {
    // Once disposed, what is left stays marked free (an answer that arrived after is still written down).
    this.entry?.write(this.items, this.disposed ? 0 : Date.now());
  }

  private refresh() {
    this.setStatus({});
  }

  private setStatus(partial: Partial<SaveStatus>) {
    const next = { ...this.snapshot, ...partial, pending: this.items.length };
    if (!next.failure) next.locked = false;
    if (!this.sending && !this.timer && next.pending === 0 && !this.owed) {
      next.state = 'saved';
      next.failure = null;
      next.locked = false;
    } else if (next.failure || this.timer) next.state = 'unsaved';
    else next.state = 'saving';
    const keys = Object.keys(next) as (keyof SaveStatus)[];
    if (keys.every((key) => next[key] === this.snapshot[key])) return;
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }
}
