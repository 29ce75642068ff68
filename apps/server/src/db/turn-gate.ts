/**
 * Starts at most one embedded-database call per event-loop turn (ADR 012).
 *
 * PGlite runs each statement synchronously on this thread. Without a gate, one loop turn runs the statements of
 * every request read in that turn, so under load a turn lasts as long as all of them (~100 ms for 50 requests). Node
 * accepts one new connection per turn, so a client that connected while the server was busy waited one such turn per
 * connection ahead of it: seconds. Started one per turn, a turn is one statement long and new connections are taken
 * at once. Calls start in the order they were asked for; the gate never waits for a call to finish (a transaction's
 * own statements go to its transaction object, not through here), so it cannot deadlock.
 */
export function oneStartPerTurn(): <T>(start: () => Promise<T>) => Promise<T> {
  const waiting: (() => void)[] = [];
  let scheduled = false;
  const pump = () => {
    scheduled = false;
    waiting.shift()?.();
    if (waiting.length > 0) {
      scheduled = true;
      setImmediate(pump);
    }
  };
  return <T>(start: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      waiting.push(() => {
        try {
          start().then(resolve, reject);
        } catch (error) {
          reject(error);
        }
      });
      if (!scheduled) {
        scheduled = true;
        setImmediate(pump);
      }
    });
}

/** Routes a PGlite instance's top-level `query`, `exec` and `transaction` through `oneStartPerTurn`. */
export function gateByTurn<T extends { query: unknown; exec: unknown; transaction: unknown }>(pglite: T): T {
  const gate = oneStartPerTurn();
  for (const method of ['query', 'exec', 'transaction'] as const) {
    const original = (pglite[method] as (...args: unknown[]) => Promise<unknown>).bind(pglite);
    (pglite as Record<string, unknown>)[method] = (...args: unknown[]) => gate(() => original(...args));
  }
  return pglite;
}
