/**
 * What a user of the pieces module declares (`PieceKind`), what a piece's work receives and answers, and the plan's
 * rules (jobs/pieces.ts runs them).
 */
import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { AppContext } from '../context.js';
import type { jobWorkDir } from '../lib/storage-keys.js';
import type { JobDefinition } from './job-queue.js';

/** A piece as its table stores it (the columns every piece table has). */
export interface Piece<State = unknown> {
  index: number;
  /** First frame whose result the piece produces. */
  startFrame: number;
  /** One past its last frame (the last piece of an open-ended plan reads to the end of the stream). */
  endFrame: number;
  framesDone: number;
  done: boolean;
  /** Frames the piece produced, once finished. */
  frameCount: number | null;
  jobId: string | null;
  /** The worker process (host:pid) that finished the piece. */
  worker: string | null;
  /** What a chained piece saved for the next one. */
  handoff: State | null;
}

/** How a piece gets what the frames before it left (see the file comment). */
export type HandOff = { mode: 'independent' } | { mode: 'look-back'; frames: number } | { mode: 'chained' };

/** What a kind's `work` is given for one piece. */
export interface PieceWork<State> {
  piece: Piece<State>;
  /** Whether it is the plan's last piece. */
  isLast: boolean;
  /** First frame to read: `startFrame` less the look-back (0 at most), else `startFrame`. */
  readFrom: number;
  /** Chained: the state the piece before saved (null for the first piece); otherwise null. */
  previous: State | null;
  /** A folder of its own, removed when the piece ends. */
  dir: string;
  /** Aborted when the owner stops being active, the process stops taking jobs, or the kind aborts it. */
  signal: AbortSignal;
  /** Frames of [startFrame, endFrame) done so far, for progress. */
  onFrames(framesDone: number): void;
}

export interface PieceResult<State> {
  /** Frames produced; checked against the plan (the last piece of an open-ended plan may differ). */
  frames: number;
  /** Chained: what the next piece receives. */
  handoff?: State;
}

/** A failure no retry would change: the owner fails at once with this message. */
export class PieceFailure extends Error {}

/**
 * One user of the mechanism. `Key` names the owner's id in the job payload (kept from before, so jobs queued by
 * an older version and the watchdog's `liveJobKeys` still read it).
 */
export interface PieceKind<Key extends string, Owner, State = never> {
  /** The job queue, e.g. `analyses.segment`. */
  name: string;
  key: Key;
  pieces: { table: PgTable; owner: PgColumn };
  owner: {
    table: PgTable;
    key: PgColumn;
    /** The double-precision column that shows progress 0–1. */
    progress: PgColumn;
    /** While true, pieces work, progress is recorded and the set can complete. */
    active: SQL;
  };
  handOff: HandOff;
  /** The last piece reads to the end of the stream, whatever the plan said (a probe may miscount). */
  openEnded: boolean;
  workDir: Parameters<typeof jobWorkDir>[1];
  /** How often a running piece records its progress (and learns that its owner stopped). */
  progressEveryMs: number;
  job: Pick<
    JobDefinition<unknown, AppContext>,
    'heartbeatSeconds' | 'retryLimit' | 'retryDelaySeconds' | 'expireInSeconds' | 'concurrency'
  >;
  /** The owner, when its pieces may still work; undefined ends the job quietly. */
  load(context: AppContext, key: string): Promise<Owner | undefined>;
  /** Called before a piece works (e.g. a queued run becomes running). */
  begin?(context: AppContext, owner: Owner): Promise<void>;
  work(context: AppContext, owner: Owner, work: PieceWork<State>): Promise<PieceResult<State>>;
  /** Runs once, in the job that finishes the set, with every piece in plan order. */
  join(context: AppContext, owner: Owner, pieces: Piece<State>[], dir: string): Promise<void>;
  /** Called after the piece's job did its part (e.g. remove what it stored if the owner was deleted meanwhile). */
  after?(context: AppContext, owner: Owner): Promise<void>;
  /** Errors that mean the piece was stopped (this process is shutting down), never recorded as a failure. */
  isInterruption?(error: unknown): boolean;
  /** Errors of the kind's own that no retry would change (besides `PieceFailure`). */
  isPermanent?(error: unknown): boolean;
  /** The reason users read for an error other than a `PieceFailure` (never a path or a stack). */
  reason(error: unknown): string;
  /** The reason when a piece produced another number of frames than planned. */
  countMismatch(owner: Owner, piece: Piece<State>, frames: number): string;
  /** Records the failure on the owner (only while active). */
  fail(context: AppContext, key: string, reason: string): Promise<void>;
  /** Lets the kind abort a running piece itself (e.g. a revoke in this process); answers how to forget it. */
  track?(key: string, controller: AbortController): () => void;
}

export type PiecePayload<Key extends string> = { [K in Key]: string } & { index: number };

/** A plan's pieces in order: indexes 0…n − 1, each non-empty, each starting where the one before ended. */
export function checkPlan(pieces: readonly { index: number; startFrame: number; endFrame: number }[]): void {
  if (pieces.length === 0) throw new Error('a plan needs at least one piece');
  for (const [i, piece] of pieces.entries()) {
    if (piece.index !== i) throw new Error(`piece ${i} has index ${piece.index}`);
    if (piece.endFrame <= piece.startFrame) throw new Error(`piece ${i} is empty`);
    const before = pieces[i - 1];
    if (i === 0 ? piece.startFrame !== 0 : piece.startFrame !== before!.endFrame) {
      throw new Error(`piece ${i} starts at frame ${piece.startFrame}, not where the piece before ended`);
    }
  }
}

/** The first frame a piece reads: `frames` before its own first one under look-back, at most back to frame 0. */
export function readFromFrame(handOff: HandOff, startFrame: number): number {
  return handOff.mode === 'look-back' ? Math.max(0, startFrame - handOff.frames) : startFrame;
}
