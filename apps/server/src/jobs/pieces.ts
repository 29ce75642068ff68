/**
 * One way to split work on a video's frames across workers (ADR 019): plan → one job per piece → progress →
 * finish under the owner's row lock → join. Playback-copy pieces and analysis segments use it.
 *
 * - The owner is a row (a video, a run) that is *active* while its pieces may work (`owner.active`);
 *   its piece rows, in a table with the common piece columns (see `analysisSegments`), cover [0, frames)
 *   with no gap and no overlap (`checkPlan`).
 * - Each piece is a job any worker takes. It works in its own folder, reports frames done (the owner's progress
 *   stays below 1 until the join has stored the result), and is finished with its frame count and hand-off
 *   state under the owner's row lock: exactly one job sees the set complete, and that one joins the pieces in
 *   plan order — whatever order they finished in.
 * - A piece that needs what came before it gets it from the mechanism, so a split run equals a single pass:
 *   `look-back` pieces run side by side and each reads the declared number of frames before its first (a frame difference
 *   needs the previous frame); `chained` pieces run one after the other, piece i + 1 queued when piece i has
 *   finished and given the small JSON state piece i saved (a tracker's last position).
 * - A failure no retry would change (`PieceFailure`, or the kind's `isPermanent`) or the last attempt records
 *   the reason on the owner; a job whose owner is no longer active (revoked, failed elsewhere, deleted) ends
 *   quietly. A killed worker's job is retried by the queue; finished pieces are never redone.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import type { Database } from '../db/client.js';
import { jobWorkDir } from '../lib/storage-keys.js';
import type { JobDefinition } from './job-queue.js';
import {
  checkPlan,
  type Piece,
  PieceFailure,
  type PieceKind,
  type PiecePayload,
  type PieceResult,
  readFromFrame,
} from './piece-kind.js';

// Users import the whole mechanism from here; piece-kind.ts only keeps this file under 400 lines.
export * from './piece-kind.js';

const id = (column: PgColumn) => sql.identifier(column.name);
const table = (t: PgTable) => sql.identifier(getTableName(t));

async function rows<T>(db: Database, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const PIECE_COLUMNS = sql`"index", start_frame as "startFrame", end_frame as "endFrame", frames_done as "framesDone",
  done, frame_count as "frameCount", job_id as "jobId", worker, handoff`;

export interface Pieces<Key extends string, Owner, State> {
  job: JobDefinition<PiecePayload<Key>, AppContext>;
  kind: PieceKind<Key, Owner, State>;
  /** Replaces the owner's pieces with a checked plan (inside the caller's transaction, beside the owner's row). */
  plan(tx: Database, key: string, pieces: Record<string, unknown>[]): Promise<void>;
  /** Plans many owners at once (a batch's runs), each as `plan` would, in one delete and one insert. */
  planMany(tx: Database, plans: { key: string; pieces: Record<string, unknown>[] }[]): Promise<void>;
  /** Queues what is left to do: every unfinished piece, or (chained) the first one. Safe to call again. */
  queue(context: AppContext, key: string): Promise<void>;
  /** `queue` for many owners at once: one read of their pieces, one insert of their jobs. */
  queueMany(context: AppContext, keys: string[]): Promise<void>;
  /** The job ids of the owners' pieces, to cancel the queued ones. */
  jobIds(context: AppContext, keys: string[]): Promise<string[]>;
  /** The owner's pieces in plan order. */
  list(db: Database, key: string): Promise<Piece<State>[]>;
}

export function definePieces<Key extends string, Owner, State = never>(
  kind: PieceKind<Key, Owner, State>,
): Pieces<Key, Owner, State> {
  const pieceTable = table(kind.pieces.table);
  const ownerOf = id(kind.pieces.owner);
  const ownerTable = table(kind.owner.table);
  const ownerKey = id(kind.owner.key);
  const chained = kind.handOff.mode === 'chained';
  /** Controllers of this process's running pieces, so a shutdown stops them (and their jobs are retried). */
  const running = new Set<AbortController>();

  const list = (db: Database, key: string) =>
    rows<Piece<State>>(db, sql`select ${PIECE_COLUMNS} from ${pieceTable} where ${ownerOf} = ${key} order by "index"`);
  const one = async (db: Database, key: string, index: number) =>
    (
      await rows<Piece<State>>(
        db,
        sql`select ${PIECE_COLUMNS} from ${pieceTable} where ${ownerOf} = ${key} and "index" = ${index}`,
      )
    )[0];

  async function send(context: AppContext, key: string, index: number) {
    const payload = { [kind.key]: key, index } as PiecePayload<Key>;
    const jobId = await context.jobs.send(job, payload, { singletonKey: `${key}:${index}` });
    if (jobId) {
      await context.db.execute(
        sql`update ${pieceTable} set job_id = ${jobId} where ${ownerOf} = ${key} and "index" = ${index}`,
      );
    }
  }

  async function queue(context: AppContext, key: string) {
    const pieces = await list(context.db, key);
    const open = pieces.filter((piece) => !piece.done);
    for (const piece of chained ? open.slice(0, 1) : open) await send(context, key, piece.index);
  }

  async function queueMany(context: AppContext, keys: string[]) {
    if (keys.length === 0) return;
    const pieces = await rows<Piece<State> & { owner: string }>(
      context.db,
      sql`select ${ownerOf}::text as owner, ${PIECE_COLUMNS} from ${pieceTable}
          where ${ownerOf} in (select jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb)::uuid) and not done
          order by ${ownerOf}, "index"`,
    );
    const wanted = chained ? pieces.filter((piece, i) => i === 0 || pieces[i - 1]!.owner !== piece.owner) : pieces;
    const ids = await context.jobs.sendMany(
      job,
      wanted.map((piece) => ({
        payload: { [kind.key]: piece.owner, index: piece.index } as PiecePayload<Key>,
        singletonKey: `${piece.owner}:${piece.index}`,
      })),
    );
    const sent = wanted.flatMap((piece, i) =>
      ids[i] ? [{ owner: piece.owner, index: piece.index, job: ids[i] }] : [],
    );
    if (sent.length === 0) return;
    await context.db.execute(
      sql`update ${pieceTable} p set job_id = s.job
          from jsonb_to_recordset(${JSON.stringify(sent)}::jsonb) as s(owner uuid, index int, job text)
          where p.${ownerOf} = s.owner and p."index" = s.index`,
    );
  }

  /** The owner's progress from its pieces' frames (while active), answering the owner's key. */
  const progressUpdate = (key: string) =>
    sql`update ${ownerTable} set ${id(kind.owner.progress)} = least(0.99, coalesce((
          select sum(least(p.frames_done, p.end_frame - p.start_frame))::float8 / nullif(sum(p.end_frame - p.start_frame), 0)
          from ${pieceTable} p where p.${ownerOf} = ${key}), 0))
        where ${ownerKey} = ${key} and (${kind.owner.active}) returning ${ownerKey} as key`;

  /**
   * Records the owner's progress from its pieces' frames; answers whether the owner is still active. Below 1
   * until the join has stored the result.
   */
  async function reportProgress(context: AppContext, key: string, index: number, framesDone: number) {
    await context.db.execute(
      sql`update ${pieceTable} set frames_done = ${framesDone}
          where ${ownerOf} = ${key} and "index" = ${index} and not done`,
    );
    return (await rows<{ key: string }>(context.db, progressUpdate(key))).length > 0;
  }

  async function isActive(context: AppContext, key: string) {
    const found = await rows<{ key: string }>(
      context.db,
      sql`select ${ownerKey} as key from ${ownerTable} where ${ownerKey} = ${key} and (${kind.owner.active})`,
    );
    return found.length > 0;
  }

  async function withWorkDir<T>(context: AppContext, work: (dir: string) => Promise<T>): Promise<T> {
    const dir = jobWorkDir(context.config.dataDir, kind.workDir, randomUUID());
    await mkdir(dir, { recursive: true });
    try {
      return await work(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Works one piece in its folder, with a progress ticker that also stops it when the owner stops. */
  async function workPiece(
    context: AppContext,
    key: string,
    owner: Owner,
    piece: Piece<State>,
    previous: State | null,
  ) {
    const count = (
      await rows<{ n: number }>(context.db, sql`select count(*)::int as n from ${pieceTable} where ${ownerOf} = ${key}`)
    )[0]!.n;
    const isLast = piece.index === count - 1;
    // Which process works on the piece now (a retry elsewhere overwrites it), and none of its frames done yet.
    await context.db.execute(
      sql`update ${pieceTable} set worker = ${context.jobs.workerId}, frames_done = 0
          where ${ownerOf} = ${key} and "index" = ${piece.index}`,
    );
    const controller = new AbortController();
    running.add(controller);
    const untrack = kind.track?.(key, controller);
    let framesDone = 0;
    let reporting: Promise<void> | null = null;
    const ticker = setInterval(() => {
      if (reporting) return;
      reporting = reportProgress(context, key, piece.index, framesDone)
        .then((active) => {
          if (!active) controller.abort();
        })
        .catch((error: unknown) => context.logger.warn({ err: error, job: kind.name }, 'piece progress update failed'))
        .finally(() => {
          reporting = null;
        });
    }, kind.progressEveryMs);
    try {
      const result = await withWorkDir(context, (dir) =>
        kind.work(context, owner, {
          piece,
          isLast,
          readFrom: readFromFrame(kind.handOff, piece.startFrame),
          previous,
          dir,
          signal: controller.signal,
          onFrames: (frames) => (framesDone = Math.max(framesDone, frames)),
        }),
      );
      const planned = piece.endFrame - piece.startFrame;
      if (result.frames !== planned && !(isLast && kind.openEnded)) {
        throw new PieceFailure(kind.countMismatch(owner, piece, result.frames));
      }
      return result;
    } finally {
      clearInterval(ticker);
      // A report still on its way must not land after the piece's finish (another connection may run it later).
      await reporting;
      untrack?.();
      running.delete(controller);
    }
  }

  /**
   * Marks a worked piece finished with its result; true for the one caller that finishes the set. The owner's
   * row is locked, so two last pieces finishing at once cannot both see the set complete.
   */
  async function finish(context: AppContext, key: string, index: number, result: PieceResult<State> | null) {
    return context.db.transaction(async (tx) => {
      const locked = await rows<{ key: string }>(
        tx,
        sql`select ${ownerKey} as key from ${ownerTable} where ${ownerKey} = ${key} and (${kind.owner.active}) for update`,
      );
      if (locked.length === 0) return false;
      if (result) {
        await tx.execute(
          sql`update ${pieceTable} set done = true, frame_count = ${result.frames}, frames_done = ${result.frames},
                handoff = ${result.handoff === undefined ? null : JSON.stringify(result.handoff)}::jsonb,
                worker = ${context.jobs.workerId}
              where ${ownerOf} = ${key} and "index" = ${index}`,
        );
        await tx.execute(progressUpdate(key));
      }
      const [open] = await rows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from ${pieceTable} where ${ownerOf} = ${key} and not done`,
      );
      return open?.n === 0;
    });
  }

  async function join(context: AppContext, key: string, owner: Owner) {
    const pieces = await list(context.db, key);
    await withWorkDir(context, (dir) => kind.join(context, owner, pieces, dir));
  }

  async function handle(context: AppContext, payload: PiecePayload<Key>, attempt: { isFinalAttempt: boolean }) {
    const key = payload[kind.key] as string;
    const owner = await kind.load(context, key);
    if (owner === undefined) return;
    const piece = await one(context.db, key, payload.index);
    if (!piece) return;
    try {
      let result: PieceResult<State> | null = null;
      if (!piece.done) {
        let previous: State | null = null;
        if (chained && piece.index > 0) {
          const before = await one(context.db, key, piece.index - 1);
          // Not finished yet (a stray job): the one before queues this piece when it finishes.
          if (!before?.done) return;
          previous = before.handoff;
        }
        await kind.begin?.(context, owner);
        result = await workPiece(context, key, owner, piece, previous);
      }
      if (await finish(context, key, piece.index, result)) await join(context, key, owner);
      else if (chained) {
        const next = await one(context.db, key, piece.index + 1);
        if (next && !next.done && (await isActive(context, key))) await send(context, key, next.index);
      }
      await kind.after?.(context, owner);
    } catch (error) {
      // Revoked, failed elsewhere or deleted meanwhile: nothing left to record.
      if (!(await isActive(context, key))) {
        await kind.after?.(context, owner);
        return;
      }
      if (kind.isInterruption?.(error)) throw error;
      const permanent = error instanceof PieceFailure || kind.isPermanent?.(error) === true;
      if (permanent || attempt.isFinalAttempt) {
        const reason = error instanceof PieceFailure ? error.message : kind.reason(error);
        context.logger.warn({ job: kind.name, [kind.key]: key, index: piece.index, reason }, 'piece failed');
        await kind.fail(context, key, reason);
        if (permanent) return;
      }
      throw error;
    }
  }

  const job: JobDefinition<PiecePayload<Key>, AppContext> = {
    name: kind.name,
    ...kind.job,
    payload: z.object({ [kind.key]: z.string().uuid(), index: z.number().int().min(0) }) as unknown as z.ZodType<
      PiecePayload<Key>
    >,
    onStop: () => {
      for (const controller of running) controller.abort();
    },
    handle: (context, payload, attempt) => handle(context, payload, attempt),
  };

  return {
    job,
    kind,
    list,
    queue,
    queueMany,
    async plan(tx, key, pieces) {
      checkPlan(pieces as unknown as Piece[]);
      await tx.execute(sql`delete from ${pieceTable} where ${ownerOf} = ${key}`);
      // biome-ignore lint/suspicious/noExplicitAny: the kind's own table; its rows are checked above
      await tx.insert(kind.pieces.table).values(pieces as any);
    },
    async planMany(tx, plans) {
      if (plans.length === 0) return;
      for (const plan of plans) checkPlan(plan.pieces as unknown as Piece[]);
      const keys = JSON.stringify(plans.map((plan) => plan.key));
      await tx.execute(
        sql`delete from ${pieceTable} where ${ownerOf} in (select jsonb_array_elements_text(${keys}::jsonb)::uuid)`,
      );
      // biome-ignore lint/suspicious/noExplicitAny: the kind's own table; its rows are checked above
      await tx.insert(kind.pieces.table).values(plans.flatMap((plan) => plan.pieces) as any);
    },
    async jobIds(context, keys) {
      if (keys.length === 0) return [];
      const found = await rows<{ jobId: string }>(
        context.db,
        sql`select job_id as "jobId" from ${pieceTable}
            where ${ownerOf} in (select jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb)::uuid)
              and job_id is not null`,
      );
      return found.map((row) => row.jobId);
    },
  };
}
