/**
 * Where a project's suggestions are learned (ADR 038): one scope per project, run kind and protocol, holding its count
 * of reviews since the last training and its models' versions.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { type analysisKinds, suggestionModels, suggestionScopes } from '../../db/schema.js';
import type { AnalysisRow } from '../analysis/analysis.runs.js';

export type ScopeRow = typeof suggestionScopes.$inferSelect;
export type ModelRow = typeof suggestionModels.$inferSelect;

export interface ScopeKey {
  projectUuid: string;
  kind: (typeof analysisKinds)[number];
  protocolUuid: string | null;
}

export const scopeOfRun = (run: Pick<AnalysisRow, 'projectUuid' | 'kind' | 'protocolUuid'>): ScopeKey => ({
  projectUuid: run.projectUuid,
  kind: run.kind,
  protocolUuid: run.protocolUuid,
});

const NO_PROTOCOL = '00000000-0000-0000-0000-000000000000';

/** Matches the scope of `key` (a null protocol matches the scope of runs made without one). */
export const sameScope = (key: ScopeKey) =>
  and(
    eq(suggestionScopes.projectUuid, key.projectUuid),
    eq(suggestionScopes.kind, key.kind),
    sql`coalesce(${suggestionScopes.protocolUuid}, ${NO_PROTOCOL}::uuid) = coalesce(${key.protocolUuid}::uuid, ${NO_PROTOCOL}::uuid)`,
  );

/** The scope of `key`, made when it is first needed; `reviews` are added to its count. */
export async function upsertScope(db: Database, key: ScopeKey, reviews = 0): Promise<ScopeRow> {
  const { rows } = (await db.execute(sql`
    insert into suggestion_scopes (project_uuid, kind, protocol_uuid, reviews_since_training)
    values (${key.projectUuid}, ${key.kind}, ${key.protocolUuid}, ${reviews})
    on conflict (project_uuid, kind, (coalesce(protocol_uuid, ${sql.raw(`'${NO_PROTOCOL}'`)}::uuid)))
    do update set reviews_since_training = suggestion_scopes.reviews_since_training + excluded.reviews_since_training
    returning scope_uuid`)) as unknown as { rows: { scope_uuid: string }[] };
  const [scope] = await db.select().from(suggestionScopes).where(eq(suggestionScopes.scopeUuid, rows[0]!.scope_uuid));
  return scope!;
}

/** The newest model of a run's scope, or null. */
export async function newestModel(db: Database, key: ScopeKey): Promise<ModelRow | null> {
  const [row] = await db
    .select({ model: suggestionModels })
    .from(suggestionModels)
    .innerJoin(suggestionScopes, eq(suggestionScopes.scopeUuid, suggestionModels.scopeUuid))
    .where(sameScope(key))
    .orderBy(desc(suggestionModels.version))
    .limit(1);
  return row?.model ?? null;
}
