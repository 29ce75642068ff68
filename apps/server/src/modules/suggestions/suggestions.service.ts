/**
 * A project's suggestion models as its members see them (ADR 038): each scope (run kind and protocol) with its newest
 * version's figures, its training's state and every version's figures (how far the suggestions can be trusted, and
 * how that grew with the reviews); and "Train now".
 */
import { and, asc, count, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { analyses, protocols, suggestionModels, suggestionScopes } from '../../db/schema.js';
import { isUuid } from '../../lib/access.js';
import { badRequest } from '../../lib/errors.js';
import { toPage } from '../../lib/pagination.js';
import type { modelSchema, modelsQuery, trainBody } from './suggestions.schemas.js';
import { type ModelRow, type ScopeRow, upsertScope } from './suggestions.scopes.js';
import { NOTHING_TO_LEARN, trainSuggestionsJob } from './suggestions.training.js';
import { sendTraining, TRAIN_AFTER_REVIEWS } from './suggestions.trigger.js';

type ModelAnswer = z.infer<typeof modelSchema>;

/** Versions listed per scope (the history's newest). */
const HISTORY = 200;

const versionOf = (model: ModelRow) => ({
  model_uuid: model.modelUuid,
  version: model.version,
  trained_at: model.trainedAt.toISOString(),
  examples: model.examples,
  videos: model.videos,
  runs: model.runs,
  decisions: model.decisions,
  labels: model.labels,
});

/** The scope's training as pg-boss keeps its last job (ADR 038: the job's state, not a copy of it). */
async function trainingOf(context: AppContext, scope: ScopeRow): Promise<ModelAnswer['training']> {
  const job = scope.jobId ? await context.jobs.getJob(trainSuggestionsJob.name, scope.jobId) : null;
  const state =
    job?.state === 'created' || job?.state === 'retry'
      ? 'queued'
      : job?.state === 'active'
        ? 'running'
        : job?.state === 'failed'
          ? 'failed'
          : scope.trainRequestedAt
            ? 'queued'
            : 'idle';
  return {
    state,
    reviews_since_training: scope.reviewsSinceTraining,
    train_after_reviews: TRAIN_AFTER_REVIEWS,
    error: scope.lastError,
  };
}

async function present(context: AppContext, scope: ScopeRow, protocolName: string | null): Promise<ModelAnswer> {
  const versions = await context.db
    .select()
    .from(suggestionModels)
    .where(eq(suggestionModels.scopeUuid, scope.scopeUuid))
    .orderBy(desc(suggestionModels.version))
    .limit(HISTORY);
  const newest = versions[0];
  return {
    kind: scope.kind,
    protocol_uuid: scope.protocolUuid,
    protocol_name: protocolName,
    model_uuid: newest?.modelUuid ?? null,
    version: newest?.version ?? null,
    trained_at: newest?.trainedAt.toISOString() ?? null,
    examples: newest?.examples ?? null,
    videos: newest?.videos ?? null,
    runs: newest?.runs ?? null,
    features: newest?.features ?? [],
    decisions: newest?.decisions ?? null,
    labels: newest?.labels ?? [],
    training: await trainingOf(context, scope),
    history: versions.map(versionOf),
  };
}

/** The project's models, one per scope, by kind and protocol, a page at a time. */
export async function listModels(
  context: AppContext,
  projectUuid: string,
  query: z.output<typeof modelsQuery>,
  requestUrl: string,
) {
  const conditions: SQL[] = [eq(suggestionScopes.projectUuid, projectUuid)];
  if (query.kind) conditions.push(eq(suggestionScopes.kind, query.kind));
  if (query.protocol_uuid === 'none') conditions.push(isNull(suggestionScopes.protocolUuid));
  else if (query.protocol_uuid !== undefined) {
    if (!isUuid(query.protocol_uuid)) throw badRequest({ protocol_uuid: ['Must be a valid UUID, or none.'] });
    conditions.push(eq(suggestionScopes.protocolUuid, query.protocol_uuid));
  }
  const where = and(...conditions);
  const [total] = await context.db.select({ n: count() }).from(suggestionScopes).where(where);
  const rows = await context.db
    .select({ scope: suggestionScopes, protocolName: protocols.name })
    .from(suggestionScopes)
    .leftJoin(protocols, eq(protocols.protocolUuid, suggestionScopes.protocolUuid))
    .where(where)
    .orderBy(asc(suggestionScopes.kind), sql`${protocols.name} nulls first`, asc(suggestionScopes.scopeUuid))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  const results = [];
  for (const row of rows) results.push(await present(context, row.scope, row.protocolName));
  return toPage(requestUrl, context.config.publicUrl, { ...query }, total?.n ?? 0, results);
}

/** "Train now": queues the scope's training at once (or names the one already waiting) and answers its state. */
export async function trainNow(
  context: AppContext,
  projectUuid: string,
  body: z.output<typeof trainBody>,
  userId: number,
): Promise<ModelAnswer> {
  const key = { projectUuid, kind: body.kind, protocolUuid: body.protocol_uuid };
  const [reviewed] = await context.db
    .select({ id: analyses.analysisUuid })
    .from(analyses)
    .where(
      and(
        eq(analyses.projectUuid, projectUuid),
        eq(analyses.kind, body.kind),
        body.protocol_uuid === null ? isNull(analyses.protocolUuid) : eq(analyses.protocolUuid, body.protocol_uuid),
        eq(analyses.status, 'succeeded'),
        sql`exists (select 1 from analysis_events e where e.analysis_uuid = ${analyses.analysisUuid}
                    and e.reviewed_at is not null and e.original_time is not null)`,
      ),
    )
    .limit(1);
  if (!reviewed) throw badRequest(NOTHING_TO_LEARN);
  const scope = await upsertScope(context.db, key);
  await sendTraining(context, scope, userId, true);
  const [fresh] = await context.db
    .select({ scope: suggestionScopes, protocolName: protocols.name })
    .from(suggestionScopes)
    .leftJoin(protocols, eq(protocols.protocolUuid, suggestionScopes.protocolUuid))
    .where(inArray(suggestionScopes.scopeUuid, [scope.scopeUuid]));
  return present(context, fresh!.scope, fresh!.protocolName);
}
