/**
 * A queue of changes to save, kept in localStorage until the server has acknowledged each one, so a failed save,
 * a closed tab or a crash loses nothing: the next page that opens the same queue sends what was left.
 *
 * Items are sent one at a time, in order. The caller's `send` answers what became of an item:
 * - 'done': acknowledged (or nothing left to do) — removed;
 * - 'again': send it again at once (e.g. after a 409 the caller re-based it on the current version);
 * - 'retry': not saved (offline, server error) — kept, retried later with growing delays and when the browser is back
 *   online; the status says "not saved yet";
 * - 'drop': refused for good (the caller told the user why) — removed;
 * - 'locked': refused because the project is locked — kept (with everything after it), the status says so, and it is
 *   tried again slowly (LOCKED_RETRY_DELAYS_MS), when the page gets the focus back and on "Retry now", so the edits
 *   reach the server once the project is renewed (and can be downloaded meanwhile).
 *
 * Each tab keeps its own entry (`<key>:<tab id>`) with a heartbeat, so two tabs on the same video never send each
 * other's items twice; entries whose tab has closed (or stopped beating) are adopted by the next queue on that key.
 */

import { LOCKED_MESSAGE, LOCKED_RETRY_DELAYS_MS } from './project-locked';

export type SendResult = 'done' | 'again' | 'retry' | 'drop' | 'locked';
export type QueueState = 'saved' | 'saving' | 'unsaved';

export interface QueueItem<T> {
  id: string;
  payload: T;
  /** Failed attempts so far. */
  attempts: number;
}

export interface QueueStatus {
  state: QueueState;
  pending: number;
  /** Why the last attempt failed, while the queue is not saved. */
  error: string | null;
  /** The items wait because the project is locked (the server refused them for that reason only). */
  locked: boolean;
}

export interface PersistedQueueOptions<T> {
  /** localStorage key prefix, e.g. `annotator:{user}:{video}`. */
  storageKey: string;
  send: (item: QueueItem<T>) => Promise<SendResult>;
  /** Delays before retries, in ms; the last repeats. */
  retryDelays?: number[];
  /** Delays before retries while the project is locked, in ms; the last repeats. */
  lockedRetryDelays?: number[];
  /** An entry whose heartbeat is older than this is another tab's that has gone. */
  staleAfterMs?: number;
  storage?: Storage;
  /** Adopt entries of tabs that have gone (default true). */
  adopt?: boolean;
}

interface StoredEntry<T> {
  heartbeat: number;
  items: QueueItem<T>[];
}

const HEARTBEAT_MS = 5000;
/** Longer than a background tab's throttled timers (Chrome runs them once a minute), so a live tab keeps its items. */
const STALE_AFTER_MS = 90_000;

function newId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export class PersistedQueue<T> {
  private items: QueueItem<T>[] = [];
  private readonly key: string;
  private readonly storage: Storage | null;
  private readonly delays: number[];
  private readonly lockedDelays: number[];
  /** The head item was refused because the project is locked; tries since. */
  private lockedTries = 0;
  private readonly staleAfter: number;
  private sending = false;
  private failing: string | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private readonly listeners = new Set<() => void>();
  private disposed = false;
  private snapshot: QueueStatus = { state: 'saved', pending: 0, error: null, locked: false };
  /** This tab's entry is in storage (so its disappearance means another tab adopted it). */
  private stored = false;

  constructor(private readonly options: PersistedQueueOptions<T>) {
    this.key = `${options.storageKey}:${newId()}`;
    this.delays = options.retryDelays ?? [1000, 2000, 5000, 10_000, 30_000];
    this.lockedDelays = options.lockedRetryDelays ?? LOCKED_RETRY_DELAYS_MS;
    this.staleAfter = options.staleAfterMs ?? STALE_AFTER_MS;
    this.storage = options.storage ?? (typeof window === 'undefined' ? null : safeLocalStorage());
    if (options.adopt !== false) this.adoptOrphans();
    this.heartbeat = setInterval(() => {
      this.checkAdopted();
      this.persist();
    }, HEARTBEAT_MS);
    if (typeof window !== 'undefined') {
      window.addEventListener('online', this.onOnline);
      window.addEventListener('focus', this.onFocus);
      window.addEventListener('pagehide', this.onPageHide);
    }
    this.refreshStatus();
    this.kick();
  }

  /** Adds a change to save after those already queued. */
  push(payload: T): void {
    if (this.disposed) return;
    this.checkAdopted();
    this.items.push({ id: newId(), payload, attempts: 0 });
    this.persist();
    this.refreshStatus();
    this.kick();
  }

  /** Items not yet acknowledged, oldest first (the one being sent included). */
  pending(): readonly QueueItem<T>[] {
    return this.items;
  }

  status(): QueueStatus {
    return this.snapshot;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tries now instead of waiting for the next retry. */
  retryNow(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.kick();
  }

  /** Stops sending; what is left stays stored for the next page (marked as free to adopt). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (typeof window !== 'undefined') {
      window.removeEventListener('online', this.onOnline);
      window.removeEventListener('focus', this.onFocus);
      window.removeEventListener('pagehide', this.onPageHide);
    }
    this.checkAdopted();
    this.persist(0);
    this.listeners.clear();
  }

  private readonly onOnline = () => this.retryNow();
  /** Back on the page (perhaps after renewing the project in another tab): waiting items are tried at once. */
  private readonly onFocus = () => {
    if (this.timer) this.retryNow();
  };
  private readonly onPageHide = () => this.persist(0);

  private kick(): void {
    if (this.sending || this.timer || this.disposed || this.items.length === 0) return;
    void this.sendHead();
  }

  private async sendHead(): Promise<void> {
    this.checkAdopted();
    const item = this.items[0];
    if (!item) return;
    this.sending = true;
    this.refreshStatus();
    let result: SendResult;
    let error: string | null = null;
    try {
      result = await this.options.send(item);
    } catch (caught) {
      result = 'retry';
      error = caught instanceof Error ? caught.message : String(caught);
    }
    this.sending = false;
    if (this.disposed) return;
    if (result !== 'locked') this.lockedTries = 0;
    if (result === 'done' || result === 'drop') {
      this.items = this.items.filter((queued) => queued.id !== item.id);
      this.failing = null;
    } else if (result === 'locked') {
      this.failing = LOCKED_MESSAGE;
      this.lockedTries++;
      const delay = this.lockedDelays[Math.min(this.lockedTries - 1, this.lockedDelays.length - 1)] ?? 60_000;
      this.timer = setTimeout(() => {
        this.timer = null;
        this.kick();
      }, delay);
    } else if (result === 'retry') {
      item.attempts++;
      this.failing = error ?? 'The server could not be reached.';
      const delay = this.delays[Math.min(item.attempts - 1, this.delays.length - 1)] ?? 1000;
      this.timer = setTimeout(() => {
        this.timer = null;
        this.kick();
      }, delay);
    }
    this.persist();
    this.refreshStatus();
    this.kick();
  }

  private refreshStatus(): void {
    const state: QueueState = this.items.length === 0 ? 'saved' : this.failing !== null ? 'unsaved' : 'saving';
    const next = {
      state,
      pending: this.items.length,
      error: state === 'unsaved' ? this.failing : null,
      locked: state === 'unsaved' && this.lockedTries > 0,
    };
    const previous = this.snapshot;
    if (
      previous.state === next.state &&
      previous.pending === next.pending &&
      previous.error === next.error &&
      previous.locked === next.locked
    ) {
      return;
    }
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }

  private persist(heartbeat = Date.now()): void {
    if (!this.storage) return;
    try {
      if (this.items.length === 0) {
        this.storage.removeItem(this.key);
        this.stored = false;
      } else {
        this.storage.setItem(this.key, JSON.stringify({ heartbeat, items: this.items } satisfies StoredEntry<T>));
        this.stored = true;
      }
    } catch {
      // Storage full or disabled: the queue still works for this page.
    }
  }

  /**
   * When this tab's stored entry has vanished, another tab adopted it while this one was asleep: that tab sends
   * those items, so this one forgets them rather than sending them twice.
   */
  private checkAdopted(): void {
    if (!this.stored || !this.storage) return;
    let gone = false;
    try {
      gone = this.storage.getItem(this.key) === null;
    } catch {
      return;
    }
    if (!gone) return;
    this.items = [];
    this.stored = false;
    this.failing = null;
    this.lockedTries = 0;
    this.refreshStatus();
  }

  /** Takes over the items of this key's entries whose tabs have gone (their heartbeat stopped). */
  private adoptOrphans(): void {
    if (!this.storage) return;
    const prefix = `${this.options.storageKey}:`;
    const now = Date.now();
    try {
      const keys: string[] = [];
      for (let i = 0; i < this.storage.length; i++) {
        const key = this.storage.key(i);
        if (key?.startsWith(prefix) && key !== this.key) keys.push(key);
      }
      const adopted: (StoredEntry<T> & { key: string })[] = [];
      for (const key of keys) {
        const raw = this.storage.getItem(key);
        if (!raw) continue;
        const entry = JSON.parse(raw) as StoredEntry<T>;
        if (now - entry.heartbeat < this.staleAfter) continue;
        adopted.push({ ...entry, key });
      }
      // Oldest first: the order in which the edits were made.
      adopted.sort((a, b) => a.heartbeat - b.heartbeat);
      for (const entry of adopted) {
        this.items.push(...entry.items);
        this.storage.removeItem(entry.key);
      }
      this.persist();
    } catch {
      // An unreadable entry is left alone.
    }
  }
}

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
