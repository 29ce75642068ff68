/**
 * Where a tab keeps its unsaved Quick Score actions: localStorage, one key per user, run and tab, so that two tabs on
 * the same run never overwrite each other's queue. A tab owns its key for as long as it is open (a Web Lock, or a
 * heartbeat where locks are missing); the queue of a tab that closed or crashed is taken up by the next tab that
 * opens the run, so nothing waiting is ever lost.
 */
import type { QueuedAction, QueueStore } from './action-queue';

const PREFIX = 'quick-score-queue';
const TAB_KEY = 'quick-score-tab';
const LOCK_PREFIX = 'quick-score-tab-';
/** A tab without locks writes its heartbeat this often; a key silent for ORPHAN_AFTER_MS has no tab any more. */
const HEARTBEAT_MS = 5000;
const ORPHAN_AFTER_MS = 20_000;

interface Stored {
  items: QueuedAction[];
  /** Last heartbeat of the owning tab (ms since the epoch). */
  beat: number;
}

/** The key prefix of one user's queues for one run. */
export const queueKeyPrefix = (userId: number | string, analysisUuid: string) => `${PREFIX}:${userId}:${analysisUuid}:`;

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function read(key: string): Stored | null {
  try {
    const raw = storage()?.getItem(key);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Stored>;
    return { items: Array.isArray(parsed.items) ? parsed.items : [], beat: Number(parsed.beat) || 0 };
  } catch {
    return null;
  }
}

function randomId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : Math.random().toString(36).slice(2);
}

const locks = (): LockManager | null =>
  typeof navigator !== 'undefined' && 'locks' in navigator && navigator.locks ? navigator.locks : null;

let claimed: Promise<string> | null = null;

/** This tab's id: kept across reloads of the tab (sessionStorage), unique among open tabs (a held lock). */
function claimTabId(): Promise<string> {
  claimed ??= claimNewTabId();
  return claimed;
}

async function claimNewTabId(): Promise<string> {
  let id: string | null = null;
  try {
    id = window.sessionStorage.getItem(TAB_KEY);
  } catch {
    id = null;
  }
  const manager = locks();
  for (let tries = 0; tries < 5; tries++) {
    id ??= randomId();
    if (!manager) break;
    // A duplicated tab copies sessionStorage: if the id's lock is held, the id is taken.
    const held = await new Promise<boolean>((resolve) => {
      void manager.request(`${LOCK_PREFIX}${id}`, { ifAvailable: true }, (lock) => {
        if (!lock) {
          resolve(false);
          return undefined;
        }
        resolve(true);
        // Held until the tab closes.
        return new Promise<void>(() => {});
      });
    });
    if (held) break;
    id = null;
  }
  id ??= randomId();
  try {
    window.sessionStorage.setItem(TAB_KEY, id);
  } catch {
    // No sessionStorage: a new id per load; the old key is then taken up as an orphan.
  }
  return id;
}

async function liveTabIds(): Promise<Set<string> | null> {
  const manager = locks();
  if (!manager) return null;
  const state = await manager.query();
  const names = [...(state.held ?? []), ...(state.pending ?? [])].map((lock) => lock.name ?? '');
  return new Set(names.filter((name) => name.startsWith(LOCK_PREFIX)).map((name) => name.slice(LOCK_PREFIX.length)));
}

/**
 * Opens this tab's queue store for a run, with the waiting actions of closed tabs on that run moved into it
 * (oldest first). Call `close()` when the page goes away.
 */
export async function openQueueStore(prefix: string): Promise<QueueStore & { close(): void }> {
  const tabId = await claimTabId();
  const ownKey = `${prefix}${tabId}`;
  const live = await liveTabIds();
  const store = storage();
  const adopted: QueuedAction[] = [...(read(ownKey)?.items ?? [])];
  const orphans: string[] = [];
  if (store) {
    for (let i = 0; i < store.length; i++) {
      const key = store.key(i);
      if (!key?.startsWith(prefix) || key === ownKey) continue;
      const other = key.slice(prefix.length);
      const stored = read(key);
      const alive = live ? live.has(other) : stored !== null && Date.now() - stored.beat < ORPHAN_AFTER_MS;
      if (alive) continue;
      adopted.push(...(stored?.items ?? []));
      orphans.push(key);
    }
  }
  adopted.sort((a, b) => a.createdAt - b.createdAt);
  let items = adopted;

  const write = () => {
    try {
      if (items.length === 0) store?.removeItem(ownKey);
      else store?.setItem(ownKey, JSON.stringify({ items, beat: Date.now() } satisfies Stored));
    } catch {
      // Storage full or disabled: the queue still lives in memory and is sent as usual.
    }
  };
  // Write the merged queue before removing the orphans' keys, so a crash in between loses nothing.
  write();
  for (const key of orphans) store?.removeItem(key);
  const heartbeat = locks() ? null : setInterval(() => items.length > 0 && write(), HEARTBEAT_MS);

  return {
    load: () => items,
    save(next) {
      items = [...next];
      write();
    },
    close() {
      if (heartbeat) clearInterval(heartbeat);
    },
  };
}
