import { createServer, Socket } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateByTurn, oneStartPerTurn } from './turn-gate.js';

/** Counts event-loop turns: an immediate that re-arms itself until stopped. */
function countTurns(): { turns(): number; stop(): void } {
  let turns = 0;
  let counting = true;
  const tick = () => {
    turns += 1;
    if (counting) setImmediate(tick);
  };
  setImmediate(tick);
  return { turns: () => turns, stop: () => (counting = false) };
}

describe('oneStartPerTurn', () => {
  it('starts the calls in order, one per loop turn, and passes results and errors through', async () => {
    const gate = oneStartPerTurn();
    const started: number[] = [];
    const counter = countTurns();
    const startTurns: number[] = [];
    const calls = Array.from({ length: 10 }, (_, i) =>
      gate(async () => {
        started.push(i);
        startTurns.push(counter.turns());
        if (i === 3) throw new Error('call 3 failed');
        return i * 2;
      }),
    );
    const results = await Promise.allSettled(calls);
    counter.stop();
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Every start in a later turn than the one before it.
    for (let i = 1; i < startTurns.length; i++) expect(startTurns[i]!).toBeGreaterThan(startTurns[i - 1]!);
    expect(results[2]).toEqual({ status: 'fulfilled', value: 4 });
    expect(results[3]).toMatchObject({ status: 'rejected', reason: new Error('call 3 failed') });
    expect(results[9]).toEqual({ status: 'fulfilled', value: 18 });
  });
});

describe('a gated PGlite', () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = gateByTurn(new PGlite());
    await pglite.waitReady;
    await pglite.exec('create table t (n int)');
  });
  afterAll(async () => {
    await pglite.close();
  });

  it('runs a transaction while other statements queue behind it, without a deadlock', async () => {
    const transaction = pglite.transaction(async (tx) => {
      for (let i = 0; i < 20; i++) await tx.query('insert into t values ($1)', [i]);
    });
    const counts = Array.from({ length: 20 }, () => pglite.query<{ c: number }>('select count(*)::int as c from t'));
    await transaction;
    const seen = (await Promise.all(counts)).map((r) => r.rows[0]!.c);
    // The transaction started first: every count after it sees all its rows.
    expect(seen.every((c) => c === 20)).toBe(true);
  });

  it('lets the loop go round between statements: a connection made while 200 statements wait is accepted at once', async () => {
    const server = createServer((socket: Socket) => {
      socket.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      let acceptedAfter = -1;
      const counter = countTurns();
      const statements = Array.from({ length: 200 }, () => pglite.query('select count(*) from t'));
      let done = 0;
      for (const statement of statements) void statement.then(() => (done += 1));
      // Connect now; the accept needs the loop's poll phase, which the queued statements must not hold off.
      await new Promise<void>((resolve, reject) => {
        const client = new Socket();
        client.once('error', reject);
        client.connect(port, '127.0.0.1', () => undefined);
        server.once('connection', () => {
          acceptedAfter = done;
          client.destroy();
          resolve();
        });
      });
      await Promise.all(statements);
      counter.stop();
      expect(counter.turns()).toBeGreaterThanOrEqual(200);
      expect(acceptedAfter).toBeGreaterThanOrEqual(0);
      expect(acceptedAfter).toBeLessThan(100);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
