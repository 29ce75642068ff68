/**
 * The pieces module alone, on the real test database and job queue, with fake per-frame analyses of a known
 * frame sequence: a frame difference (look-back) and a running state (chained), each compared with one pass.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { boolean, doublePrecision, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import type { AppContext } from '../context.js';
import { JobQueue } from './job-queue.js';
import { definePieces, type HandOff, type Piece, PieceFailure, type Pieces, type PieceWork } from './pieces.js';

const owners = pgTable('test_piece_owners', {
  ownerUuid: uuid('owner_uuid').primaryKey(),
  state: text('state').notNull(),
  progress: doublePrecision('progress').notNull().default(0),
  error: text('error'),
  result: jsonb('result').$type<number[]>(),
  /** The owner's progress as the join found it (before it stores the result). */
  progressAtJoin: doublePrecision('progress_at_join'),
});

const testPieces = pgTable(
  'test_pieces',
  {
    ownerUuid: uuid('owner_uuid').notNull(),
    index: integer('index').notNull(),
    startFrame: integer('start_frame').notNull(),
    endFrame: integer('end_frame').notNull(),
    framesDone: integer('frames_done').notNull().default(0),
    done: boolean('done').notNull().default(false),
    frameCount: integer('frame_count'),
    jobId: text('job_id'),
    worker: text('worker'),
    handoff: jsonb('handoff'),
  },
  (t) => [primaryKey({ columns: [t.ownerUuid, t.index] })],
);

/** The video's frames: one number each, known in advance. */
const frameValue = (n: number) => (n * 7919 + 13) % 251;

/** Frame differences from `readFrom`: values for [start, end), each against the frame before it (0 for frame 0). */
function differences(readFrom: number, start: number, end: number): number[] {
  const out: number[] = [];
  let before: number | null = null;
  for (let n = readFrom; n < end; n++) {
    const value = frameValue(n);
    if (n >= start) out.push(before === null ? 0 : Math.abs(value - before));
    before = value;
  }
  return out;
}

interface Track {
  position: number;
}

/** A tracker's positions for [start, end), from where the piece before left it. */
function positions(previous: Track | null, start: number, end: number): { values: number[]; last: Track } {
  let position = previous?.position ?? 7;
  const values: number[] = [];
  for (let n = start; n < end; n++) {
    position = (position * 31 + frameValue(n)) % 1009;
    values.push(position);
  }
  return { values, last: { position } };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise and its resolve (Promise.withResolvers is Node 22's). */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

type Behaviour = (work: PieceWork<Track>, attempt: number) => Promise<void>;

interface Harness {
  pieces: Pieces<'ownerUuid', { ownerUuid: string }, Track>;
  /** Per piece index: attempts started, and the times each attempt started and finished. */
  attempts: Map<number, number>;
  started: Map<number, number>;
  finished: Map<number, number>;
  joinedOrder: number[][];
}

let queueNumber = 0;

function harness(
  handOff: HandOff,
  behaviour: Behaviour = async () => {},
  options: { retryLimit?: number; frames?: (made: number) => number } = {},
): Harness {
  const retryLimit = options.retryLimit ?? 2;
  const results = new Map<string, number[]>();
  const h: Omit<Harness, 'pieces'> = { attempts: new Map(), started: new Map(), finished: new Map(), joinedOrder: [] };
  const pieces = definePieces<'ownerUuid', { ownerUuid: string }, Track>({
    name: `test.pieces-${++queueNumber}`,
    key: 'ownerUuid',
    pieces: { table: testPieces, owner: testPieces.ownerUuid },
    owner: { table: owners, key: owners.ownerUuid, progress: owners.progress, active: sql`state = 'running'` },
    handOff,
    openEnded: false,
    workDir: 'job',
    progressEveryMs: 50,
    job: { retryLimit, retryDelaySeconds: 1, expireInSeconds: 60, heartbeatSeconds: 30, concurrency: () => 4 },
    async load(context, ownerUuid) {
      const [owner] = await context.db.select().from(owners).where(eq(owners.ownerUuid, ownerUuid));
      return owner?.state === 'running' ? owner : undefined;
    },
    async work(_context, owner, work) {
      const { index, startFrame, endFrame } = work.piece;
      const attempt = (h.attempts.get(index) ?? 0) + 1;
      h.attempts.set(index, attempt);
      h.started.set(index, performance.now());
      await behaviour(work, attempt);
      const made =
        handOff.mode === 'chained'
          ? positions(work.previous, startFrame, endFrame)
          : { values: differences(work.readFrom, startFrame, endFrame), last: undefined };
      results.set(`${owner.ownerUuid}:${index}`, made.values);
      h.finished.set(index, performance.now());
      return {
        frames: options.frames?.(made.values.length) ?? made.values.length,
        ...(made.last ? { handoff: made.last } : {}),
      };
    },
    async join(context, owner, joined: Piece<Track>[]) {
      h.joinedOrder.push(joined.map((piece) => piece.index));
      const [before] = await context.db.select().from(owners).where(eq(owners.ownerUuid, owner.ownerUuid));
      const result = joined.flatMap((piece) => results.get(`${owner.ownerUuid}:${piece.index}`)!);
      await context.db
        .update(owners)
        .set({ state: 'done', progress: 1, result, progressAtJoin: before!.progress })
        .where(eq(owners.ownerUuid, owner.ownerUuid));
    },
    reason: (error) => (error instanceof Error ? `It failed: ${error.message}` : 'It failed.'),
    countMismatch: (_owner, piece, frames) => `Piece ${piece.index + 1} made ${frames} frames.`,
    async fail(context, ownerUuid, reason) {
      await context.db
        .update(owners)
        .set({ state: 'failed', error: reason })
        .where(sql`${owners.ownerUuid} = ${ownerUuid} and ${owners.state} = 'running'`);
    },
  });
  return { ...h, pieces };
}

describe('pieces', () => {
  let t: TestApp;
  const queues: JobQueue<AppContext>[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    await t.ctx.db.execute(sql`create table test_piece_owners (owner_uuid uuid primary key, state text not null,
      progress double precision not null default 0, error text, result jsonb, progress_at_join double precision)`);
    await t.ctx.db.execute(sql`create table test_pieces (owner_uuid uuid not null, "index" integer not null,
      start_frame integer not null, end_frame integer not null, frames_done integer not null default 0,
      done boolean not null default false, frame_count integer, job_id text, worker text, handoff jsonb,
      primary key (owner_uuid, "index"))`);
  });
  afterAll(async () => {
    for (const queue of queues) await queue.stop(5_000);
    await t?.close();
  });

  /** A context whose job queue runs this harness's pieces (in this process, four at once). */
  async function contextFor(h: Harness): Promise<AppContext> {
    const queue = JobQueue.open<AppContext>(t.ctx.database, [h.pieces.job], t.app.log);
    queues.push(queue);
    const context: AppContext = { ...t.ctx, jobs: queue };
    await queue.start(context);
    return context;
  }

  /** Plans `cuts` (frame boundaries) for a new running owner and queues its pieces. */
  async function start(context: AppContext, h: Harness, cuts: number[]): Promise<string> {
    const ownerUuid = randomUUID();
    await context.db.transaction(async (tx) => {
      await tx.insert(owners).values({ ownerUuid, state: 'running' });
      await h.pieces.plan(
        tx,
        ownerUuid,
        cuts.slice(1).map((endFrame, index) => ({ ownerUuid, index, startFrame: cuts[index]!, endFrame })),
      );
    });
    await h.pieces.queue(context, ownerUuid);
    return ownerUuid;
  }

  async function settled(ownerUuid: string) {
    for (let waited = 0; waited < 30_000; waited += 50) {
      const [owner] = await t.ctx.db.select().from(owners).where(eq(owners.ownerUuid, ownerUuid));
      if (owner && owner.state !== 'running') return owner;
      await wait(50);
    }
    throw new Error('the pieces never finished');
  }

  it('look-back: pieces side by side, each reading the frame before its first, equal one pass', async () => {
    let h: Harness;
    // The first piece finishes last, after the last one: the join still takes them in plan order.
    h = harness({ mode: 'look-back', frames: 1 }, async (work) => {
      if (work.piece.index !== 0) return;
      for (let waited = 0; !h.finished.has(3) && waited < 20_000; waited += 20) await wait(20);
    });
    const context = await contextFor(h);
    const owner = await settled(await start(context, h, [0, 97, 200, 251, 400]));
    expect(owner).toMatchObject({ state: 'done', error: null });
    expect(owner.result).toEqual(differences(0, 0, 400));
    // Without the look-back each cut would start at 0: the difference at frame 97 is not.
    expect(owner.result![97]).not.toBe(0);
    expect(h.finished.get(0)!).toBeGreaterThan(h.finished.get(3)!);
    expect(h.joinedOrder).toEqual([[0, 1, 2, 3]]);
    // Side by side: the last piece started before the first finished.
    expect(h.started.get(3)!).toBeLessThan(h.finished.get(0)!);
    expect(owner.progressAtJoin).toBe(0.99);
  }, 60_000);

  it('an independent piece reads only its own frames (the look-back is the mechanism’s, not the user’s)', async () => {
    const h = harness({ mode: 'independent' });
    const context = await contextFor(h);
    const owner = await settled(await start(context, h, [0, 50, 100]));
    expect(owner.result!.slice(0, 50)).toEqual(differences(0, 0, 50));
    expect(owner.result![50]).toBe(0);
  }, 60_000);

  it('chained: each piece starts after the one before finished, from its saved state, equal one pass', async () => {
    const h = harness({ mode: 'chained' });
    const context = await contextFor(h);
    const ownerUuid = await start(context, h, [0, 60, 130, 131, 300]);
    const owner = await settled(ownerUuid);
    expect(owner).toMatchObject({ state: 'done', error: null });
    expect(owner.result).toEqual(positions(null, 0, 300).values);
    for (const index of [1, 2, 3]) expect(h.started.get(index)!).toBeGreaterThanOrEqual(h.finished.get(index - 1)!);
    expect(h.joinedOrder).toEqual([[0, 1, 2, 3]]);
    // What each piece handed on is kept with it.
    const stored = await t.ctx.db.select().from(testPieces).where(eq(testPieces.ownerUuid, ownerUuid));
    const third = stored.find((piece) => piece.index === 2)!;
    expect(third.handoff).toEqual(positions(null, 0, 131).last);
  }, 60_000);

  it('chained: a piece whose predecessor has not finished does not run (its predecessor queues it)', async () => {
    const gate = deferred();
    const h = harness({ mode: 'chained' }, async (work) => {
      if (work.piece.index === 0) await gate.promise;
    });
    const context = await contextFor(h);
    const ownerUuid = await start(context, h, [0, 10, 20, 30]);
    // A stray job for piece 2 (e.g. queued twice by hand) while piece 0 still works: it returns without working.
    await h.pieces.job.handle(context, { ownerUuid, index: 2 }, { id: 'stray', isFinalAttempt: false });
    expect(h.attempts.get(2)).toBeUndefined();
    gate.resolve();
    const owner = await settled(ownerUuid);
    expect(owner.result).toEqual(positions(null, 0, 30).values);
    expect(h.attempts.get(2)).toBe(1);
  }, 60_000);

  it('chained: a piece that crashed is retried from the same state and the run finishes as one pass', async () => {
    const h = harness({ mode: 'chained' }, async (work, attempt) => {
      if (work.piece.index === 1 && attempt === 1) {
        work.onFrames(20);
        throw new Error('the worker died');
      }
    });
    const context = await contextFor(h);
    const owner = await settled(await start(context, h, [0, 40, 80, 120]));
    expect(owner).toMatchObject({ state: 'done', error: null });
    expect(owner.result).toEqual(positions(null, 0, 120).values);
    expect([...h.attempts.entries()].sort()).toEqual([
      [0, 1],
      [1, 2],
      [2, 1],
    ]);
  }, 60_000);

  it('look-back: a piece stopped mid-work (its process stopping) is retried; finished pieces are not redone', async () => {
    const running = deferred();
    const h = harness({ mode: 'look-back', frames: 1 }, async (work, attempt) => {
      if (work.piece.index !== 2 || attempt > 1) return;
      running.resolve();
      await new Promise((_, reject) => work.signal.addEventListener('abort', () => reject(new Error('killed'))));
    });
    const context = await contextFor(h);
    const ownerUuid = await start(context, h, [0, 30, 60, 90]);
    await running.promise;
    h.pieces.job.onStop!();
    const owner = await settled(ownerUuid);
    expect(owner).toMatchObject({ state: 'done', error: null });
    expect(owner.result).toEqual(differences(0, 0, 90));
    expect(h.attempts.get(0)).toBe(1);
    expect(h.attempts.get(1)).toBe(1);
    expect(h.attempts.get(2)).toBe(2);
  }, 60_000);

  it('progress: frames done over the plan’s frames, below 1 until the join', async () => {
    const half = deferred();
    const gate = deferred();
    const h = harness({ mode: 'chained' }, async (work) => {
      if (work.piece.index !== 1) return;
      work.onFrames(150);
      half.resolve();
      await gate.promise;
    });
    const context = await contextFor(h);
    const ownerUuid = await start(context, h, [0, 100, 400]);
    await half.promise;
    const progressOf = async () =>
      (await t.ctx.db.select().from(owners).where(eq(owners.ownerUuid, ownerUuid)))[0]!.progress;
    // Piece 0 finished (100 frames) and piece 1 reported 150 of its 300: 250 of 400.
    for (let waited = 0; (await progressOf()) !== 0.625 && waited < 5000; waited += 25) await wait(25);
    expect(await progressOf()).toBe(0.625);
    const [first] = await t.ctx.db
      .select()
      .from(testPieces)
      .where(sql`${testPieces.ownerUuid} = ${ownerUuid} and ${testPieces.index} = 0`);
    expect(first).toMatchObject({ done: true, frameCount: 100, framesDone: 100 });
    gate.resolve();
    const owner = await settled(ownerUuid);
    expect(owner.progressAtJoin).toBe(0.99);
    expect(owner.progress).toBe(1);
  }, 60_000);

  it('a failure no retry would change records its reason at once; the other pieces stop', async () => {
    const h = harness({ mode: 'look-back', frames: 1 }, async (work) => {
      if (work.piece.index === 1) throw new PieceFailure('Frame 40 cannot be read.');
      // The other pieces keep working until they learn (from their progress report) that the owner failed.
      if (work.piece.index !== 1) {
        await new Promise((resolve) => {
          work.signal.addEventListener('abort', resolve);
          setTimeout(resolve, 3000);
        });
      }
    });
    const context = await contextFor(h);
    const owner = await settled(await start(context, h, [0, 30, 60, 90]));
    expect(owner).toMatchObject({ state: 'failed', error: 'Frame 40 cannot be read.', result: null });
    expect(h.attempts.get(1)).toBe(1);
    await wait(1500);
    expect(h.joinedOrder).toEqual([]);
  }, 60_000);

  it('the last attempt of a failing piece records the kind’s reason; a wrong frame count fails at once', async () => {
    const h = harness(
      { mode: 'independent' },
      async () => {
        throw new Error('disk full');
      },
      { retryLimit: 1 },
    );
    const context = await contextFor(h);
    const owner = await settled(await start(context, h, [0, 10]));
    expect(owner).toMatchObject({ state: 'failed', error: 'It failed: disk full' });
    expect(h.attempts.get(0)).toBe(2);

    const short = harness({ mode: 'look-back', frames: 1 }, undefined, { frames: (made) => made - 1 });
    const shortContext = await contextFor(short);
    const shortOwner = await settled(await start(shortContext, short, [0, 10, 20]));
    expect(shortOwner).toMatchObject({ state: 'failed', error: expect.stringMatching(/^Piece [12] made 9 frames\.$/) });
  }, 60_000);

  it('refuses a plan with a gap, an overlap or an empty piece', async () => {
    const h = harness({ mode: 'independent' });
    const plan = (cuts: [number, number][]) =>
      t.ctx.db.transaction((tx) =>
        h.pieces.plan(
          tx,
          randomUUID(),
          cuts.map(([startFrame, endFrame], index) => ({ ownerUuid: randomUUID(), index, startFrame, endFrame })),
        ),
      );
    await expect(
      plan([
        [0, 10],
        [11, 20],
      ]),
    ).rejects.toThrow(/not where the piece before ended/);
    await expect(
      plan([
        [0, 10],
        [9, 20],
      ]),
    ).rejects.toThrow(/not where the piece before ended/);
    await expect(
      plan([
        [0, 10],
        [10, 10],
      ]),
    ).rejects.toThrow(/empty/);
    await expect(plan([[5, 10]])).rejects.toThrow(/starts at frame 5/);
  });
});
