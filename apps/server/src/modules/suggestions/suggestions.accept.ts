/**
 * Accepting suggestions in update-events/ (ADR 038). One accepted by its key (`accept_suggestion`) is a decision of
 * the person looking at the event: it is marked reviewed by them (ADR 014's first decision) and counts as a review
 * the next model learns from. "Accept all ≥ p" (`accept_suggestions`) accepts events nobody looked at: they carry the
 * acceptance (who, when, the model, `in_bulk`) but no reviewed_by, so they neither count as reviewed nor train a
 * model, until a person steps past them.
 */
import { and, eq, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { analysisEvents, eventSuggestions } from '../../db/schema.js';
import type { AnalysisRow } from '../analysis/analysis.runs.js';
import { DEFAULT_PRECISION_BAR, type SuggestionSource, shownSuggestion, sourceOfModel } from './suggestions.cache.js';
import { newestModel, scopeOfRun } from './suggestions.scopes.js';

export type AcceptChange =
  | { action: 'accept_suggestion'; id: number; model_version?: number; min_precision?: number }
  | { action: 'accept_suggestions'; min_confidence: number; model_version: number; min_precision?: number };

/** The sources a call's accept changes need, by bar: null when the run's scope has no model yet. */
export async function acceptSources(context: AppContext, run: AnalysisRow) {
  const model = await newestModel(context.db, scopeOfRun(run));
  return model ? (precision: number) => sourceOfModel(model, precision) : null;
}

interface Accepted {
  id: number;
  discard: boolean;
  label: string | null;
  confidence: number;
}

/** The run's undecided detected events (all, or `ids`) whose suggestion at the source's bar is shown. */
async function offered(tx: Database, run: AnalysisRow, source: SuggestionSource, ids?: number[]): Promise<Accepted[]> {
  const conditions: SQL[] = [
    eq(analysisEvents.analysisUuid, run.analysisUuid),
    isNull(analysisEvents.reviewedAt),
    isNull(analysisEvents.suggestionAcceptedAt),
    isNotNull(analysisEvents.originalTime),
  ];
  if (ids) conditions.push(inArray(analysisEvents.id, ids));
  const rows = await tx
    .select({
      id: analysisEvents.id,
      discardShare: eventSuggestions.discardShare,
      labelIndex: eventSuggestions.labelIndex,
      labelShare: eventSuggestions.labelShare,
    })
    .from(analysisEvents)
    .innerJoin(
      eventSuggestions,
      and(
        eq(eventSuggestions.analysisUuid, analysisEvents.analysisUuid),
        eq(eventSuggestions.eventId, analysisEvents.id),
        eq(eventSuggestions.modelUuid, source.modelUuid),
      ),
    )
    .where(and(...conditions));
  return rows.flatMap((row) => {
    const suggestion = shownSuggestion(source, row);
    return suggestion ? [{ id: row.id, ...suggestion }] : [];
  });
}

/** Writes the acceptances, 1,000 events a statement. */
async function record(
  tx: Database,
  run: AnalysisRow,
  source: SuggestionSource,
  accepted: Accepted[],
  userId: number,
  now: Date,
  inBulk: boolean,
) {
  const at = now.toISOString();
  // A look by a person is a decision (first one kept, ADR 014) and the last look; a bulk acceptance is neither.
  const looked = inBulk
    ? sql``
    : sql`, reviewed_by_id = case when e.reviewed_at is null then ${userId}::int else e.reviewed_by_id end,
          reviewed_at = coalesce(e.reviewed_at, ${at}::timestamptz),
          last_viewed_by_id = ${userId}::int, last_viewed_at = ${at}::timestamptz`;
  for (let i = 0; i < accepted.length; i += 1000) {
    const values = sql.join(
      accepted
        .slice(i, i + 1000)
        .map((a) => sql`(${a.id}::int, ${a.discard}::boolean, ${a.label}::text, ${a.confidence}::float8)`),
      sql`, `,
    );
    await tx.execute(sql`
      update analysis_events e set
        discarded = v.discard,
        label = case when v.discard then e.label else v.label end,
        updated_by_id = ${userId}::int, updated_at = ${at}::timestamptz,
        suggestion_accepted_by_id = ${userId}::int, suggestion_accepted_at = ${at}::timestamptz,
        suggestion_in_bulk = ${inBulk}, suggestion_model_uuid = ${source.modelUuid}::uuid,
        suggestion_model_version = ${source.version}::int, suggestion_discard = v.discard,
        suggestion_label = v.label, suggestion_confidence = v.confidence
        ${looked}
      from (values ${values}) as v(id, discard, label, confidence)
      where e.analysis_uuid = ${run.analysisUuid}::uuid and e.id = v.id`);
  }
}

/**
 * Applies one accept change inside update-events' transaction: answers the ids it accepted, and pushes what is wrong
 * with it onto `problems` (then nothing is accepted).
 */
export async function applyAccept(
  tx: Database,
  run: AnalysisRow,
  sources: ((precision: number) => SuggestionSource) | null,
  change: AcceptChange,
  index: number,
  userId: number,
  now: Date,
  problems: string[],
): Promise<number[]> {
  const source = sources?.(change.min_precision ?? DEFAULT_PRECISION_BAR) ?? null;
  if (!source) {
    problems.push(`Change ${index}: this run has no suggestions to accept yet.`);
    return [];
  }
  if (change.model_version !== undefined && change.model_version !== source.version) {
    problems.push(
      `Change ${index}: the suggestions changed (model version ${source.version} now): look at them again before accepting.`,
    );
    return [];
  }
  if (change.action === 'accept_suggestion') {
    const [one] = await offered(tx, run, source, [change.id]);
    if (!one) {
      problems.push(
        `Change ${index}: event ${change.id} has no suggestion to accept (someone decided on it, or none reaches the bar).`,
      );
      return [];
    }
    await record(tx, run, source, [one], userId, now, false);
    return [one.id];
  }
  const all = (await offered(tx, run, source)).filter((a) => a.confidence >= change.min_confidence);
  await record(tx, run, source, all, userId, now, true);
  return all.map((a) => a.id);
}
