/**
 * When a scope trains (ADR 038): reviews are counted per scope as update-events saves them, and at TRAIN_AFTER_REVIEWS
 * a training job is sent — one waiting at most, one running at most (the job's queue is `stately`, keyed by the
 * scope) — so review never waits for a training. "Train now" sends one at once.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { suggestionScopes } from '../../db/schema.js';
import type { AnalysisRow } from '../analysis/analysis.runs.js';
import { type ScopeRow, scopeOfRun, upsertScope } from './suggestions.scopes.js';
import { trainSuggestionsJob } from './suggestions.training.js';

/** New reviews of a scope after which a training is queued (a cost setting, not a scientific one: ADR 038). */
export const TRAIN_AFTER_REVIEWS = 50;

/** A training sent this long ago that has not started is sent again (its job was lost). */
const REQUEST_STALE_MS = 10 * 60 * 1000;

/**
 * Sends the scope's training job unless one was sent and has not started (then it will see these reviews too).
 * Answers the job's id, or null when none was sent.
 */
export async function sendTraining(
  context: AppContext,
  scope: ScopeRow,
  requestedBy: number | null,
  force: boolean,
): Promise<string | null> {
  const claimed = await context.db
    .update(suggestionScopes)
    .set({ trainRequestedAt: new Date() })
    .where(
      and(
        eq(suggestionScopes.scopeUuid, scope.scopeUuid),
        force
          ? sql`true`
          : sql`(${suggestionScopes.trainRequestedAt} is null or ${suggestionScopes.trainRequestedAt} < now() - ${sql.raw(`interval '${REQUEST_STALE_MS / 1000} seconds'`)})`,
      ),
    )
    .returning({ scopeUuid: suggestionScopes.scopeUuid });
  if (claimed.length === 0) return null;
  try {
    const jobId = await context.jobs.send(
      trainSuggestionsJob,
      { scopeUuid: scope.scopeUuid, requestedBy },
      { singletonKey: scope.scopeUuid },
    );
    if (jobId) {
      await context.db.update(suggestionScopes).set({ jobId }).where(eq(suggestionScopes.scopeUuid, scope.scopeUuid));
    }
    return jobId;
  } catch (error) {
    // Not sent: the next review tries again.
    await context.db
      .update(suggestionScopes)
      .set({ trainRequestedAt: null })
      .where(eq(suggestionScopes.scopeUuid, scope.scopeUuid));
    throw error;
  }
}

/**
 * Counts `reviews` new decisions (first decisions on detected events, by a person) of the run's scope and sends a
 * training when the scope has TRAIN_AFTER_REVIEWS since its last one. Called after update-events has committed; a
 * failure here is logged, never the reviewer's problem.
 */
export async function noteReviews(context: AppContext, run: AnalysisRow, reviews: number): Promise<void> {
  if (reviews <= 0 || run.kind === 'location_tracking') return;
  try {
    const scope = await upsertScope(context.db, scopeOfRun(run), reviews);
    if (scope.reviewsSinceTraining >= TRAIN_AFTER_REVIEWS) await sendTraining(context, scope, null, false);
  } catch (error) {
    context.logger.error({ err: error, analysisUuid: run.analysisUuid }, 'could not count reviews for suggestions');
  }
}
