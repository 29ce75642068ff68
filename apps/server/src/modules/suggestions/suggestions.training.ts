/**
 * A scope's training (ADR 038), a pg-boss job: every event a person decided on in the scope's runs is an example —
 * kept, discarded, labelled — with its run's series features (and pose features when every one of those videos has a
 * pose set). Suggestions accepted in bulk, which nobody looked at, are not examples: their `reviewed_at` stays empty.
 * Blind scorers' own decisions are not either: the consensus is what the lab decided (ADR 014). The heavy work runs in
 * worker threads; a training that fails keeps the previous model.
 */

import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, isNotNull, isNull, lt, max, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { analyses, projects, suggestionModels, suggestionScopes } from '../../db/schema.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import { suggestionModelKey } from '../../lib/storage-keys.js';
import type { AnalysisRow } from '../analysis/analysis.runs.js';
import { featureNamesFor, type TrainedModel, type TrainingExample } from './engine/model.js';
import { runSuggestionTask } from './engine/suggestions-worker-client.js';
import { prepareVotes } from './suggestions.cache.js';
import { detectedEvents, runInput, runThreshold, videosWithPose } from './suggestions.inputs.js';
import type { ScopeRow } from './suggestions.scopes.js';

/** The most recent decisions a model learns from: a cap on a training's time (ADR 038 measures it). */
export const MAX_EXAMPLES = 20_000;

export const NOTHING_TO_LEARN =
  'No reviewed events to learn from yet: decide on some detected events of these runs in Quick Score first.';

/** The scope's finished runs that have at least one decided detected event. */
async function reviewedRuns(context: AppContext, scope: ScopeRow): Promise<AnalysisRow[]> {
  return context.db
    .select()
    .from(analyses)
    .where(
      and(
        eq(analyses.projectUuid, scope.projectUuid),
        eq(analyses.kind, scope.kind),
        scope.protocolUuid === null ? isNull(analyses.protocolUuid) : eq(analyses.protocolUuid, scope.protocolUuid),
        eq(analyses.status, 'succeeded'),
        sql`exists (select 1 from analysis_events e where e.analysis_uuid = ${analyses.analysisUuid}
                    and e.reviewed_at is not null and e.original_time is not null)`,
      ),
    );
}

interface Gathered {
  examples: (TrainingExample & { reviewedAt: number; time: number })[];
  runs: number;
  features: string[];
}

/** Every decided detected event of the scope's runs, with its features (one worker thread per run, one at a time). */
async function gatherExamples(context: AppContext, scope: ScopeRow, signal: AbortSignal): Promise<Gathered> {
  const runs = (await reviewedRuns(context, scope)).filter((run) => runThreshold(run) !== null);
  const withPose =
    runs.length > 0 &&
    (await videosWithPose(context, [...new Set(runs.map((run) => run.videoUuid))])).size ===
      new Set(runs.map((run) => run.videoUuid)).size;
  const examples: Gathered['examples'] = [];
  for (const run of runs) {
    const events = await detectedEvents(context, run.analysisUuid);
    const input = await runInput(
      context,
      run,
      runThreshold(run)!,
      events.map((event) => event.originalTime!),
      withPose,
    );
    const rows = await runSuggestionTask({ kind: 'features', run: input }, signal);
    events.forEach((event, i) => {
      if (!event.reviewedAt) return;
      examples.push({
        features: rows[i]!,
        discarded: event.discarded,
        label: event.discarded ? null : event.label,
        group: run.videoUuid,
        reviewedAt: event.reviewedAt.getTime(),
        time: event.originalTime!,
      });
    });
  }
  // Newest decisions first, then by video and time: the same reviews give the same examples in the same order, so
  // the seeded forest is the same model.
  examples.sort(
    (a, b) => b.reviewedAt - a.reviewedAt || (a.group < b.group ? -1 : a.group > b.group ? 1 : 0) || a.time - b.time,
  );
  return { examples: examples.slice(0, MAX_EXAMPLES), runs: runs.length, features: featureNamesFor(withPose) };
}

const figuresOf = (trained: TrainedModel) => {
  const figure = (c: (typeof trained.decisions)[number]) => ({
    examples: c.examples,
    predicted: c.predicted,
    precision: c.precision,
    recall: c.recall,
  });
  return {
    decisions: { keep: figure(trained.decisions[0]!), discard: figure(trained.decisions[1]!) },
    labels: trained.labels.map((c, i) => ({ label: trained.json.labels[i] ?? null, ...figure(c) })),
  };
};

/** Trains the scope's next version; answers false (and records why) when there is nothing to learn from. */
export async function trainScope(
  context: AppContext,
  scopeUuid: string,
  requestedBy: number | null,
  signal: AbortSignal,
): Promise<boolean> {
  const [found] = await context.db
    .select({ scope: suggestionScopes, deletedAt: projects.deletedAt })
    .from(suggestionScopes)
    .innerJoin(projects, eq(projects.projectUuid, suggestionScopes.projectUuid))
    .where(eq(suggestionScopes.scopeUuid, scopeUuid));
  if (!found || found.deletedAt) return false;
  const scope = found.scope;
  // The reviews this training takes in: the ones counted after this moment go to the next training.
  const [started] = await context.db
    .update(suggestionScopes)
    .set({ trainRequestedAt: null })
    .where(eq(suggestionScopes.scopeUuid, scopeUuid))
    .returning({ reviews: suggestionScopes.reviewsSinceTraining });
  const reviewsTaken = started?.reviews ?? 0;
  const began = performance.now();
  const gathered = await gatherExamples(context, scope, signal);
  if (gathered.examples.length === 0) {
    await context.db
      .update(suggestionScopes)
      .set({ lastError: NOTHING_TO_LEARN })
      .where(eq(suggestionScopes.scopeUuid, scopeUuid));
    return false;
  }
  const trained = await runSuggestionTask(
    {
      kind: 'train',
      examples: gathered.examples.map(({ reviewedAt: _, time: __, ...example }) => example),
      features: gathered.features,
    },
    signal,
  );
  const trainingMs = Math.round(performance.now() - began);
  const modelUuid = randomUUID();
  const key = suggestionModelKey(scope.projectUuid, modelUuid);
  const body = Buffer.from(JSON.stringify(trained.json));
  await context.storage.write(key, body, 'application/json');
  const retired = await storeVersion().catch(async (error: unknown) => {
    await context.storage.delete(key).catch(() => {});
    throw error;
  });
  for (const oldKey of retired) {
    await context.storage.delete(oldKey).catch((error: unknown) => {
      context.logger.warn({ err: error, key: oldKey }, 'could not remove a retired suggestion model');
    });
  }
  await prepareRecentRuns(context, scope, modelUuid, signal);
  return true;

  /** The model's row as the scope's next version, in one transaction; answers the files of retired versions. */
  async function storeVersion() {
    return context.db.transaction(async (tx) => {
      // The scope's row lock orders two trainings' versions (the queue already runs one at a time per scope).
      await tx.select().from(suggestionScopes).where(eq(suggestionScopes.scopeUuid, scopeUuid)).for('update');
      const [last] = await tx
        .select({ version: max(suggestionModels.version) })
        .from(suggestionModels)
        .where(eq(suggestionModels.scopeUuid, scopeUuid));
      const version = (last?.version ?? 0) + 1;
      await tx.insert(suggestionModels).values({
        modelUuid,
        scopeUuid,
        projectUuid: scope.projectUuid,
        version,
        examples: gathered.examples.length,
        videos: trained.videos,
        runs: gathered.runs,
        features: gathered.features,
        ...figuresOf(trained),
        storageKey: key,
        sizeBytes: body.length,
        trainingMs,
        requestedById: requestedBy,
      });
      await tx
        .update(suggestionScopes)
        .set({
          reviewsSinceTraining: sql`greatest(0, ${suggestionScopes.reviewsSinceTraining} - ${reviewsTaken})`,
          lastError: null,
        })
        .where(eq(suggestionScopes.scopeUuid, scopeUuid));
      // Only the two newest versions keep their forests (a suggestion being computed may still read the previous one).
      const old = await tx
        .select({ modelUuid: suggestionModels.modelUuid, key: suggestionModels.storageKey })
        .from(suggestionModels)
        .where(
          and(
            eq(suggestionModels.scopeUuid, scopeUuid),
            lt(suggestionModels.version, version - 1),
            isNotNull(suggestionModels.storageKey),
          ),
        );
      if (old.length > 0) {
        await tx
          .update(suggestionModels)
          .set({ storageKey: null })
          .where(
            inArray(
              suggestionModels.modelUuid,
              old.map((row) => row.modelUuid),
            ),
          );
      }
      return old.flatMap((row) => (row.key ? [row.key] : []));
    });
  }
}

/** Runs whose votes a training computes ahead of their first reading. */
export const PREPARED_RUNS = 20;

/**
 * The new model votes on the scope's most recent runs that still have events nobody decided on, so that opening one
 * in Quick Score reads kept votes. A run it fails on is computed when first read instead.
 */
async function prepareRecentRuns(context: AppContext, scope: ScopeRow, modelUuid: string, signal: AbortSignal) {
  const [model] = await context.db.select().from(suggestionModels).where(eq(suggestionModels.modelUuid, modelUuid));
  if (!model) return;
  const runs = await context.db
    .select()
    .from(analyses)
    .where(
      and(
        eq(analyses.projectUuid, scope.projectUuid),
        eq(analyses.kind, scope.kind),
        scope.protocolUuid === null ? isNull(analyses.protocolUuid) : eq(analyses.protocolUuid, scope.protocolUuid),
        eq(analyses.status, 'succeeded'),
        sql`exists (select 1 from analysis_events e where e.analysis_uuid = ${analyses.analysisUuid}
                    and e.reviewed_at is null and e.suggestion_accepted_at is null and e.original_time is not null)`,
      ),
    )
    .orderBy(desc(analyses.createdAt))
    .limit(PREPARED_RUNS);
  for (const run of runs) {
    if (signal.aborted) return;
    await prepareVotes(context, run, model).catch((error: unknown) => {
      context.logger.warn({ err: error, analysisUuid: run.analysisUuid }, 'could not prepare suggestions of a run');
    });
  }
}

const running = new Set<AbortController>();

export const trainSuggestionsJob: JobDefinition<{ scopeUuid: string; requestedBy: number | null }, AppContext> = {
  name: 'suggestions.train',
  policy: 'stately',
  payload: z.object({ scopeUuid: z.string().uuid(), requestedBy: z.int().nullable() }),
  retryLimit: 2,
  retryDelaySeconds: 30,
  expireInSeconds: 3600,
  heartbeatSeconds: 30,
  onStop() {
    for (const controller of running) controller.abort();
  },
  async handle(context, { scopeUuid, requestedBy }, job) {
    const controller = new AbortController();
    running.add(controller);
    try {
      await trainScope(context, scopeUuid, requestedBy, controller.signal);
    } catch (error) {
      if (job.isFinalAttempt) {
        await context.db
          .update(suggestionScopes)
          .set({ lastError: `The training failed: ${error instanceof Error ? error.message : String(error)}` })
          .where(eq(suggestionScopes.scopeUuid, scopeUuid));
      }
      throw error;
    } finally {
      running.delete(controller);
    }
  },
};
