/**
 * Tests only: several tabs of one browser in one test page — one shared localStorage, a sessionStorage each, and
 * Web Locks that a tab lets go when it closes (as the browser does), never while it merely sleeps.
 */
import { Tab } from './tab';

class MemoryStorage implements Storage {
  private readonly values = new Map<string, string>();
  get length() {
    return this.values.size;
  }
  clear() {
    this.values.clear();
  }
  getItem(key: string) {
    return this.values.get(key) ?? null;
  }
  key(index: number) {
    return [...this.values.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.values.delete(key);
  }
  setItem(key: string, value: string) {
    this.values.set(key, String(value));
  }
}

type Callback = (lock: Lock | null) => unknown;

interface Waiter {
  owner: number;
  name: string;
  grant: () => void;
}

export class FakeBrowser {
  private readonly holders = new Map<string, number>();
  private readonly waiters: Waiter[] = [];
  private nextTab = 1;

  constructor(readonly storage: Storage = window.localStorage) {}

  /** A new tab (a fresh sessionStorage unless `session` is passed: a reload or a duplicated tab). */
  openTab({ locks = true, session = new MemoryStorage() }: { locks?: boolean; session?: Storage } = {}) {
    const owner = this.nextTab++;
    const tab = new Tab({ storage: this.storage, session, locks: locks ? this.lockManager(owner) : null });
    return { tab, session, close: () => this.close(owner) };
  }

  /** The tab closed (or crashed): the browser releases every lock it held. */
  private close(owner: number) {
    for (const [name, holder] of [...this.holders]) if (holder === owner) this.release(name);
  }

  private release(name: string) {
    this.holders.delete(name);
    const next = this.waiters.findIndex((waiter) => waiter.name === name);
    if (next >= 0) this.waiters.splice(next, 1)[0]!.grant();
  }

  private lockManager(owner: number): LockManager {
    const request = (name: string, ...rest: unknown[]): Promise<unknown> => {
      const callback = rest.at(-1) as Callback;
      const options = (rest.length > 1 ? rest[0] : {}) as LockOptions;
      const run = () => {
        this.holders.set(name, owner);
        const result = Promise.resolve().then(() => callback({ name, mode: 'exclusive' } as Lock));
        // Released when the callback's promise settles, if the tab has not closed meanwhile.
        void result.finally(() => this.holders.get(name) === owner && this.release(name)).catch(() => {});
        return result;
      };
      if (!this.holders.has(name)) return run();
      if (options.ifAvailable) return Promise.resolve().then(() => callback(null));
      return new Promise((resolve, reject) => {
        this.waiters.push({ owner, name, grant: () => run().then(resolve, reject) });
      });
    };
    const query = async () => ({
      held: [...this.holders.keys()].map((name) => ({ name, mode: 'exclusive' as const, clientId: '' })),
      pending: this.waiters.map((waiter) => ({ name: waiter.name, mode: 'exclusive' as const, clientId: '' })),
    });
    return { request, query } as unknown as LockManager;
  }
}
