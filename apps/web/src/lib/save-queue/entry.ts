/**
 * Where a tab keeps one queue's unsaved items: localStorage under `<prefix><tab id>`, so two tabs on the same
 * queue never overwrite each other. Opening an entry takes over the entries of that prefix whose tab has gone.
 *
 * An entry is free to take over when its page let it go (`beat` 0: the queue was disposed or the page hidden), or
 * its tab is closed: its Web Lock is not held (see tab.ts), or, where locks are missing, its heartbeat is older than
 * STALE_AFTER_MS — longer than a background tab's throttled timers, so a live tab keeps its queue. See ADR 020.
 */
import type { Tab } from './tab';

export interface QueueItem<T> {
  /** Unique: sent once, acknowledged once. */
  key: string;
  payload: T;
  /** When it was queued (ms since the epoch). */
  createdAt: number;
}

/** A tab without Web Locks writes its heartbeat this often while it has items. */
export const HEARTBEAT_MS = 5000;
/**
 * Silent this long, a tab without Web Locks is taken for closed. Chrome runs a hidden tab's timers at most once a
 * minute (intensive throttling), Firefox and Safari at most once a second or a minute: 90 s leaves a throttled
 * heartbeat half a minute to spare.
 */
export const STALE_AFTER_MS = 90_000;

interface Stored<T> {
  beat: number;
  items: readonly QueueItem<T>[];
}

/**
 * Reads an entry, also in the shapes the previous version wrote: Quick Score's `{beat, items: [{key, action,
 * createdAt}]}` and the Annotator's `{heartbeat, items: [{id, payload, attempts}]}`.
 */
function parse<T>(raw: string | null): Stored<T> | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as { beat?: unknown; heartbeat?: unknown; items?: unknown };
    const beat = Number(value.beat ?? value.heartbeat) || 0;
    const items = Array.isArray(value.items) ? (value.items as Record<string, unknown>[]) : [];
    return {
      beat,
      items: items.map((item) => ({
        key: String(item.key ?? item.id),
        payload: ('payload' in item ? item.payload : item.action) as T,
        createdAt: Number(item.createdAt) || beat,
      })),
    };
  } catch {
    return null;
  }
}

export class QueueEntry<T> {
  /** The items of this tab's entry and of the closed tabs' entries taken over, oldest first. */
  readonly recovered: QueueItem<T>[];
  /** This tab's entry is in storage: if it disappears, another tab took it over. */
  private written = false;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private items: readonly QueueItem<T>[] = [];

  constructor(
    private readonly storage: Storage | null,
    readonly key: string,
    recovered: QueueItem<T>[],
    heartbeats: boolean,
  ) {
    this.recovered = recovered;
    if (heartbeats) {
      this.heartbeat = setInterval(() => {
        if (this.items.length > 0 && this.stillOurs()) this.write(this.items);
      }, HEARTBEAT_MS);
    }
  }

  /** Stores the items waiting now (removes the entry when there are none). */
  write(items: readonly QueueItem<T>[], beat = Date.now()): void {
    this.items = items;
    try {
      if (items.length === 0) {
        this.storage?.removeItem(this.key);
        this.written = false;
      } else if (this.storage) {
        this.storage.setItem(this.key, JSON.stringify({ beat, items } satisfies Stored<T>));
        this.written = true;
      }
    } catch {
      // Storage full or disabled: the queue still lives in memory and is sent as usual.
    }
  }

  /** False once another tab has taken this entry over: that tab sends its items now. */
  stillOurs(): boolean {
    if (!this.written || !this.storage) return true;
    try {
      return this.storage.getItem(this.key) !== null;
    } catch {
      return true;
    }
  }

  /** Marks the entry free: the next page on this queue (in any tab) takes its items over at once. */
  markFree(): void {
    if (this.items.length > 0 && this.stillOurs()) this.write(this.items, 0);
  }

  /** The page is done with the entry: no more heartbeats, and its items are free to take over. */
  release(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.markFree();
  }
}

/** Opens this tab's entry under `prefix`, taking over the entries of tabs that have gone. */
export async function openEntry<T>(prefix: string, tab: Tab): Promise<QueueEntry<T>> {
  const tabId = await tab.id();
  const ownKey = `${prefix}${tabId}`;
  const { storage } = tab.env;
  // One tab at a time takes over a prefix's entries, so two tabs opening together never both take the same one.
  return tab.exclusive(prefix, async () => {
    const live = await tab.liveIds();
    const now = Date.now();
    const recovered = [...(parse<T>(storage?.getItem(ownKey) ?? null)?.items ?? [])];
    const taken: string[] = [];
    for (let i = 0; storage && i < storage.length; i++) {
      const key = storage.key(i);
      if (!key?.startsWith(prefix) || key === ownKey) continue;
      const stored = parse<T>(storage.getItem(key));
      if (!stored) continue; // Unreadable: left alone rather than lost.
      const gone = live ? !live.has(key.slice(prefix.length)) : now - stored.beat >= STALE_AFTER_MS;
      if (stored.beat !== 0 && !gone) continue;
      recovered.push(...stored.items);
      taken.push(key);
    }
    recovered.sort((a, b) => a.createdAt - b.createdAt);
    const entry = new QueueEntry<T>(storage, ownKey, recovered, live === null);
    // The merged entry is written before the taken ones are removed, so a crash in between loses nothing.
    entry.write(recovered);
    for (const key of taken) storage?.removeItem(key);
    return entry;
  });
}
