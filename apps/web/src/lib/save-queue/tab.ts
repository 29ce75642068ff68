/**
 * Which browser tab this is, and which tabs are still open — what decides whose save queue may be taken over.
 *
 * A tab holds a Web Lock named after its id for as long as it is open: the browser releases it when the tab closes,
 * crashes or is discarded, and never because the tab sits throttled in the background. Where Web Locks are missing,
 * `liveIds()` answers null and the stored heartbeats decide instead (see entry.ts). See ADR 020.
 */

const SESSION_KEY = 'save-queue-tab';
const LOCK_PREFIX = 'save-queue-tab-';
/** The lock name the Quick Score queue of the previous version held: a tab still running it is alive too. */
const LEGACY_LOCK_PREFIX = 'quick-score-tab-';

/** What a tab needs from the browser; tests hand in their own to play several tabs in one page. */
export interface TabEnvironment {
  /** Shared by every tab of the origin (localStorage). */
  storage: Storage | null;
  /** This tab's own (sessionStorage): keeps its id across reloads. */
  session: Storage | null;
  locks: LockManager | null;
}

function newId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export class Tab {
  private claimed: Promise<string> | null = null;

  constructor(readonly env: TabEnvironment) {}

  /** This tab's id: kept across reloads (sessionStorage), unique among open tabs (its lock is held). */
  id(): Promise<string> {
    this.claimed ??= this.claim();
    return this.claimed;
  }

  /** The ids of the open tabs, or null where Web Locks are missing (then heartbeats decide). */
  async liveIds(): Promise<Set<string> | null> {
    const { locks } = this.env;
    if (!locks) return null;
    const state = await locks.query();
    const ids = new Set<string>();
    for (const lock of [...(state.held ?? []), ...(state.pending ?? [])]) {
      const name = lock.name ?? '';
      if (name.startsWith(LOCK_PREFIX)) ids.add(name.slice(LOCK_PREFIX.length));
      else if (name.startsWith(LEGACY_LOCK_PREFIX)) ids.add(name.slice(LEGACY_LOCK_PREFIX.length));
    }
    return ids;
  }

  /** Runs `work` while no other tab runs work under the same name (taking over a queue), where locks exist. */
  async exclusive<R>(name: string, work: () => R | Promise<R>): Promise<R> {
    const { locks } = this.env;
    if (!locks) return work();
    return locks.request(`save-queue-adopt:${name}`, async () => work()) as Promise<R>;
  }

  private async claim(): Promise<string> {
    const { session, locks } = this.env;
    let id: string | null = null;
    try {
      id = session?.getItem(SESSION_KEY) ?? null;
    } catch {
      id = null;
    }
    for (let tries = 0; locks && tries < 5; tries++) {
      id ??= newId();
      // A duplicated tab copies sessionStorage: if the id's lock is held, the id is another tab's.
      if (await holdUntilClosed(locks, `${LOCK_PREFIX}${id}`)) break;
      id = null;
    }
    id ??= newId();
    try {
      session?.setItem(SESSION_KEY, id);
    } catch {
      // No sessionStorage: a new id per load; the last load's entry is then taken over as a closed tab's.
    }
    return id;
  }
}

/** Takes the lock if it is free and keeps it until the tab goes away; answers whether it was free. */
function holdUntilClosed(locks: LockManager, name: string): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    void locks.request(name, { ifAvailable: true }, (lock) => {
      resolve(lock !== null);
      return lock ? new Promise<void>(() => {}) : undefined;
    });
  });
}

function browserEnvironment(): TabEnvironment {
  const pick = <T>(get: () => T): T | null => {
    try {
      return get() ?? null;
    } catch {
      return null;
    }
  };
  return {
    storage: pick(() => window.localStorage),
    session: pick(() => window.sessionStorage),
    locks: pick(() => (typeof navigator !== 'undefined' && 'locks' in navigator ? navigator.locks : null)),
  };
}

let current: Tab | null = null;

/** The tab this page runs in. */
export function thisTab(): Tab {
  current ??= new Tab(browserEnvironment());
  return current;
}
