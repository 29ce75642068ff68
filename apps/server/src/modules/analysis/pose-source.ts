/**
 * What every run that reads a pose set of its video shares (ADR 032, ADR 037): finding the set, naming its individual
 * and body parts with messages that list what the set has, reading its stored file, and the one-job life of such a
 * run — the job reads the set and hands it to an analysis worker thread, never the event loop.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { poseSets } from '../../db/schema.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import { isUuid } from '../../lib/access.js';
import { jobWorkDir } from '../../lib/storage-keys.js';
import { track } from './analysis.media-input.js';
import { PermanentRunFailure } from './analysis.results.js';
import { type AnalysisRow, humanReason, loadRun, markFailed, markRunning } from './analysis.runs.js';
import { TaskCancelledError } from './engine/worker-client.js';
import { type NamedPart, namedParts, type PartRequest } from './pose-settings.js';

export type PoseSetRow = typeof poseSets.$inferSelect;

export const NO_SUCH_SET = 'No pose set of this video has that id.';

/** A pose set of this video by id; another video's (or project's) set is answered as one that does not exist. */
export async function poseSetOfVideo(context: AppContext, videoUuid: string, poseUuid: string) {
  if (!isUuid(poseUuid)) return undefined;
  const [set] = await context.db
    .select()
    .from(poseSets)
    .where(and(eq(poseSets.poseUuid, poseUuid), eq(poseSets.videoUuid, videoUuid)));
  return set;
}

/** The video's newest pose set (the one the player draws unless another is picked), or undefined. */
export async function newestPoseSet(context: AppContext, videoUuid: string) {
  const [set] = await context.db
    .select()
    .from(poseSets)
    .where(eq(poseSets.videoUuid, videoUuid))
    .orderBy(desc(poseSets.createdAt), desc(poseSets.poseUuid))
    .limit(1);
  return set;
}

const list = (names: string[]) => names.join(', ');

type Resolved =
  | {
      /** The individual the bare names belong to; undefined when every part names its own. */
      individual: string | undefined;
      parts: NamedPart[];
      keypoints: number[];
    }
  | { errors: Record<string, string[]> };

/**
 * The keypoints (indices into the set's keypoints) of `parts` — bare names of one individual (the one named, or the
 * set's only one) or `{individual, part}` entries — or the field errors, under `fields.individual` and `fields.parts`,
 * that list what the set has; the same keypoint twice is refused.
 */
export function resolveParts(
  set: PoseSetRow,
  requested: { individual?: string; parts: PartRequest[] },
  fields: { individual: string; parts: string },
  options: {
    /** The run's own rule on the list (how many), said after the individual, before the names. */
    checkParts?: (parts: PartRequest[]) => string | null;
    /** The run takes `{individual, part}` entries: the message for a missing individual says so. */
    namedParts?: boolean;
  } = {},
): Resolved {
  const bare = requested.parts.some((entry) => typeof entry === 'string');
  const individual = requested.individual ?? (set.individuals.length === 1 ? set.individuals[0]! : undefined);
  if (individual === undefined && bare) {
    const each = options.namedParts ? `, or each part's own ({individual, part})` : '';
    return {
      errors: {
        [fields.individual]: [`The set has several individuals: name one of ${list(set.individuals)}${each}.`],
      },
    };
  }
  if (individual !== undefined && !set.individuals.includes(individual)) {
    return {
      errors: { [fields.individual]: [`The set has no individual "${individual}"; it has ${list(set.individuals)}.`] },
    };
  }
  const problem = options.checkParts?.(requested.parts);
  if (problem) return { errors: { [fields.parts]: [problem] } };
  // Each individual's parts, by name: the keypoint index.
  const own = new Map<string, Map<string, number>>(set.individuals.map((name) => [name, new Map()]));
  set.keypoints.forEach(([i, b], k) => {
    own.get(set.individuals[i]!)!.set(set.bodyparts[b]!, k);
  });
  const partsOf = (name: string) => list([...own.get(name)!.keys()]);
  const messages: string[] = [];
  // Bare names keep the message they always had: every unknown one at once.
  const unknownBare = requested.parts.filter(
    (entry): entry is string => typeof entry === 'string' && !own.get(individual!)!.has(entry),
  );
  if (unknownBare.length > 0) {
    messages.push(
      `${individual} has no body part ${list(unknownBare.map((u) => `"${u}"`))}; its body parts: ${partsOf(individual!)}.`,
    );
  }
  requested.parts.forEach((entry, n) => {
    if (typeof entry === 'string') return;
    const parts = own.get(entry.individual);
    if (!parts) {
      messages.push(`Part ${n + 1}: the set has no individual "${entry.individual}"; it has ${list(set.individuals)}.`);
    } else if (!parts.has(entry.part)) {
      messages.push(
        `Part ${n + 1}: ${entry.individual} has no body part "${entry.part}"; its body parts: ${partsOf(entry.individual)}.`,
      );
    }
  });
  if (messages.length > 0) return { errors: { [fields.parts]: messages } };
  const parts = namedParts({ individual, parts: requested.parts });
  const keypoints = parts.map(({ individual: name, part }) => own.get(name)!.get(part)!);
  if (new Set(keypoints).size !== keypoints.length) {
    return { errors: { [fields.parts]: ['Name different body parts.'] } };
  }
  return { individual: bare || requested.individual !== undefined ? individual : undefined, parts, keypoints };
}

/** The set's stored file (pose-file.ts), whole: a whole series is read from it. */
export async function readPoseSetBytes(context: AppContext, set: PoseSetRow): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of await context.storage.read(set.storageKey)) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Computes a run from its pose set and completes it; throws PermanentRunFailure for what no retry changes. */
export type PoseRunCompute = (context: AppContext, run: AnalysisRow, dir: string, signal: AbortSignal) => Promise<void>;

/**
 * The job of a run that reads a pose set: one attempt marks it running and computes it in a work folder; a revoke
 * (or this worker shutting down) ends its thread at once; a permanent failure, or the last attempt's, fails the run
 * with its reason.
 */
export function poseRunJob(name: string, compute: PoseRunCompute): JobDefinition<{ analysisUuid: string }, AppContext> {
  return {
    name,
    heartbeatSeconds: 10,
    payload: z.object({ analysisUuid: z.string().uuid() }),
    retryLimit: 2,
    retryDelaySeconds: 10,
    expireInSeconds: 60 * 60,
    async handle(context, { analysisUuid }, job) {
      const run = await loadRun(context, analysisUuid);
      if (!run || (run.status !== 'queued' && run.status !== 'running')) return;
      const dir = jobWorkDir(context.config.dataDir, 'analysis', randomUUID());
      const controller = new AbortController();
      const untrack = track(analysisUuid, controller);
      try {
        await mkdir(dir, { recursive: true });
        await markRunning(context, analysisUuid);
        await compute(context, { ...run, startedAt: run.startedAt ?? new Date() }, dir, controller.signal);
      } catch (error) {
        // Revoked: nothing more to do. Shutting down: the job is retried.
        if (error instanceof TaskCancelledError && (await loadRun(context, analysisUuid))?.status === 'revoked') return;
        if (error instanceof PermanentRunFailure || job.isFinalAttempt) {
          await markFailed(context, analysisUuid, humanReason(error));
          if (error instanceof PermanentRunFailure) return;
        }
        throw error;
      } finally {
        untrack();
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
