/**
 * A run's suggestions (ADR 038): the newest model of the run's scope votes on every detected event once, in a worker
 * thread, and the votes are kept in `event_suggestions` for that run and model; listing 10⁴ events then reads them
 * with the events (one join). Whether a vote is shown — the classes' held-out precision at the reader's bar, with
 * enough examples — is decided as the events are read (model.ts `suggestionOf`), so one cache serves every bar.
 */
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { analysisEvents, eventSuggestions } from '../../db/schema.js';
import type { AnalysisRow } from '../analysis/analysis.runs.js';
import type { ClassFigures } from './engine/cross-validation.js';
import type { Bar, ModelJson, Suggestion } from './engine/model.js';
import { suggestionOf } from './engine/model.js';
import { runSuggestionTask } from './engine/suggestions-worker-client.js';
import { detectedEvents, runInput, runThreshold, videosWithPose } from './suggestions.inputs.js';
import { type ModelRow, newestModel, scopeOfRun } from './suggestions.scopes.js';

/** The bar of issue 25: held-out precision 0.9 unless the reader asks for another, and at least 30 examples. */
export const DEFAULT_PRECISION_BAR = 0.9;
export const MIN_EXAMPLES = 30;

/** What reading a run's events needs to attach suggestions: the model whose votes are cached, and the bar. */
export interface SuggestionSource {
  modelUuid: string;
  version: number;
  decisions: ClassFigures[];
  labels: ClassFigures[];
  labelNames: (string | null)[];
  bar: Bar;
}

/** A model row's figures in the engine's shape (class 0 keep, 1 discard; labels in the model's order). */
export function sourceOfModel(model: ModelRow, precision: number): SuggestionSource {
  const figure = (c: number, f: ModelRow['labels'][number] | ModelRow['decisions']['keep']) => ({
    class: c,
    examples: f.examples,
    predicted: f.predicted,
    precision: f.precision,
    recall: f.recall,
  });
  return {
    modelUuid: model.modelUuid,
    version: model.version,
    decisions: [figure(0, model.decisions.keep), figure(1, model.decisions.discard)],
    labels: model.labels.map((f, i) => figure(i, f)),
    labelNames: model.labels.map((f) => f.label),
    bar: { precision, examples: MIN_EXAMPLES },
  };
}

/** The suggestion a cached vote makes at the source's bar, or null. */
export function shownSuggestion(
  source: SuggestionSource,
  vote: { discardShare: number; labelIndex: number | null; labelShare: number | null },
): (Suggestion & { model_version: number }) | null {
  const suggestion = suggestionOf(vote, source, source.bar);
  return suggestion && { ...suggestion, model_version: source.version };
}

type Vote = { discardShare: number; labelIndex: number | null; labelShare: number | null };

/**
 * A run's cached votes of one model, by event id (all, or `ids`): one range scan of the table's key, read apart
 * from the events so that 10⁴ events cost a lookup each rather than a join the planner may get wrong.
 */
export async function votesOf(
  context: AppContext,
  analysisUuid: string,
  modelUuid: string,
  ids?: number[],
): Promise<Map<number, Vote>> {
  const conditions = [eq(eventSuggestions.analysisUuid, analysisUuid), eq(eventSuggestions.modelUuid, modelUuid)];
  if (ids) conditions.push(inArray(eventSuggestions.eventId, ids.length > 0 ? ids : [-1]));
  const rows = await context.db
    .select({
      eventId: eventSuggestions.eventId,
      discardShare: eventSuggestions.discardShare,
      labelIndex: eventSuggestions.labelIndex,
      labelShare: eventSuggestions.labelShare,
    })
    .from(eventSuggestions)
    .where(and(...conditions));
  return new Map(rows.map(({ eventId, ...vote }) => [eventId, vote]));
}

/** The suggestion an event's cached vote makes at the source's bar; null without a vote. */
export const suggestionFor = (source: SuggestionSource, vote: Vote | undefined) =>
  vote ? shownSuggestion(source, vote) : null;

const inFlight = new Map<string, Promise<boolean>>();

/**
 * Makes sure the run's votes from `model` are cached (one worker thread for the whole run). Answers false when the
 * model cannot judge this run: it uses pose features and the run's video has no pose set, or its file is gone.
 */
async function ensureVotes(context: AppContext, run: AnalysisRow, model: ModelRow, threshold: number) {
  const [cached] = await context.db
    .select({ id: eventSuggestions.eventId })
    .from(eventSuggestions)
    .where(and(eq(eventSuggestions.analysisUuid, run.analysisUuid), eq(eventSuggestions.modelUuid, model.modelUuid)))
    .limit(1);
  if (cached) return true;
  const key = `${run.analysisUuid}:${model.modelUuid}`;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = computeVotes(context, run, model, threshold).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

async function computeVotes(context: AppContext, run: AnalysisRow, model: ModelRow, threshold: number) {
  const withPose = model.features.some((name) => name.startsWith('pose_'));
  if (withPose && !(await videosWithPose(context, [run.videoUuid])).has(run.videoUuid)) return false;
  if (!model.storageKey) return false;
  // Only events nobody decided on are shown a suggestion: a run whose events are all decided needs no votes.
  const [undecided] = await context.db
    .select({ id: analysisEvents.id })
    .from(analysisEvents)
    .where(
      and(
        eq(analysisEvents.analysisUuid, run.analysisUuid),
        isNull(analysisEvents.reviewedAt),
        isNull(analysisEvents.suggestionAcceptedAt),
        sql`${analysisEvents.originalTime} is not null`,
      ),
    )
    .limit(1);
  if (!undecided) return false;
  const events = await detectedEvents(context, run.analysisUuid);
  const chunks: Buffer[] = [];
  for await (const chunk of await context.storage.read(model.storageKey)) chunks.push(chunk as Buffer);
  const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ModelJson;
  const input = await runInput(
    context,
    run,
    threshold,
    events.map((event) => event.originalTime!),
    withPose,
  );
  const votes = await runSuggestionTask({ kind: 'predict', run: input, model: json });
  const rows = events.map((event, i) => ({
    analysisUuid: run.analysisUuid,
    eventId: event.id,
    modelUuid: model.modelUuid,
    discardShare: votes[i]!.discardShare,
    labelIndex: votes[i]!.labelIndex,
    labelShare: votes[i]!.labelShare,
  }));
  await context.db.transaction(async (tx) => {
    await tx
      .delete(eventSuggestions)
      .where(and(eq(eventSuggestions.analysisUuid, run.analysisUuid), ne(eventSuggestions.modelUuid, model.modelUuid)));
    // Events deleted since they were listed are left out (their key would not match an event any more).
    const live = new Set(
      (
        await tx
          .select({ id: analysisEvents.id })
          .from(analysisEvents)
          .where(
            and(
              eq(analysisEvents.analysisUuid, run.analysisUuid),
              inArray(
                analysisEvents.id,
                rows.map((row) => row.eventId),
              ),
            ),
          )
      ).map((row) => row.id),
    );
    const kept = rows.filter((row) => live.has(row.eventId));
    for (let i = 0; i < kept.length; i += 1000) {
      await tx
        .insert(eventSuggestions)
        .values(kept.slice(i, i + 1000))
        .onConflictDoUpdate({
          target: [eventSuggestions.analysisUuid, eventSuggestions.eventId],
          set: {
            modelUuid: sql`excluded.model_uuid`,
            discardShare: sql`excluded.discard_share`,
            labelIndex: sql`excluded.label_index`,
            labelShare: sql`excluded.label_share`,
          },
        });
    }
  });
  return true;
}

/**
 * Computes a run's votes from `model` ahead of its first reading (the training job does it for the runs most likely
 * to be opened next); a run the model cannot judge is left as it is.
 */
export async function prepareVotes(context: AppContext, run: AnalysisRow, model: ModelRow): Promise<void> {
  const threshold = runThreshold(run);
  if (threshold !== null) await ensureVotes(context, run, model, threshold);
}

/**
 * The source of a run's suggestions at the reader's bar, or null where none are shown: no model yet for the run's
 * scope, a run without a threshold, or a model that cannot judge it. With `compute` false only votes already cached
 * are used (an update's answer never waits for a worker).
 */
export async function suggestionSource(
  context: AppContext,
  run: AnalysisRow,
  precision = DEFAULT_PRECISION_BAR,
  options: { compute: boolean } = { compute: true },
): Promise<SuggestionSource | null> {
  const threshold = runThreshold(run);
  if (threshold === null) return null;
  const model = await newestModel(context.db, scopeOfRun(run));
  if (!model) return null;
  if (options.compute) {
    if (!(await ensureVotes(context, run, model, threshold))) return null;
  } else {
    const [cached] = await context.db
      .select({ id: eventSuggestions.eventId })
      .from(eventSuggestions)
      .where(and(eq(eventSuggestions.analysisUuid, run.analysisUuid), eq(eventSuggestions.modelUuid, model.modelUuid)))
      .limit(1);
    if (!cached) return null;
  }
  return sourceOfModel(model, precision);
}
