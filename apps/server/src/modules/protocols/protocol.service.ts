/**
 * Protocols (issue 23, ADR 031): named analysis settings of a project. Every edit writes a new version row and
 * moves `current_version`; no version is ever changed. Deleting sets `deleted_at`: the protocol leaves lists and
 * reads, its name is free again, and the runs made from it keep the uuid and version they recorded.
 */
import { isDeepStrictEqual } from 'node:util';
import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { type ProtocolKind, protocols, protocolVersions, users } from '../../db/schema.js';
import { isUuid } from '../../lib/access.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { likePattern, parseOrdering, toPage } from '../../lib/pagination.js';
import { displayName } from '../users/user.serializer.js';
import { parseProtocolParameters } from './protocol.parameters.js';
import {
  type createProtocolBody,
  PROTOCOL_ORDERINGS,
  type protocolDetailSchema,
  type protocolListQuery,
  type protocolSchema,
  type updateProtocolBody,
} from './protocol.schemas.js';

type ProtocolRow = typeof protocols.$inferSelect;
type VersionRow = typeof protocolVersions.$inferSelect;
type UserSummary = { id: number; display_name: string };
type ProtocolResponse = z.infer<typeof protocolSchema>;

const nameTaken = (name: string) =>
  badRequest({ name: [`This project already has a protocol named "${name}" (names ignore case).`] });

/** The live (not deleted) protocol of the project, or 404 — another project's is answered as one that does not exist. */
async function findProtocol(db: Database, projectUuid: string, protocolUuid: string): Promise<ProtocolRow | undefined> {
  if (!isUuid(protocolUuid)) return undefined;
  const [row] = await db
    .select()
    .from(protocols)
    .where(
      and(
        eq(protocols.protocolUuid, protocolUuid),
        eq(protocols.projectUuid, projectUuid),
        isNull(protocols.deletedAt),
      ),
    )
    .limit(1);
  return row;
}

async function requireProtocol(db: Database, projectUuid: string, protocolUuid: string): Promise<ProtocolRow> {
  const row = await findProtocol(db, projectUuid, protocolUuid);
  if (!row) throw notFound();
  return row;
}

async function findVersion(db: Database, protocolUuid: string, version: number): Promise<VersionRow | undefined> {
  const [row] = await db
    .select()
    .from(protocolVersions)
    .where(and(eq(protocolVersions.protocolUuid, protocolUuid), eq(protocolVersions.version, version)))
    .limit(1);
  return row;
}

async function userSummaries(db: Database, ids: (number | null)[]): Promise<Map<number, UserSummary>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.select().from(users).where(inArray(users.id, wanted));
  return new Map(rows.map((row) => [row.id, { id: row.id, display_name: displayName(row) }]));
}

function serialize(protocol: ProtocolRow, version: VersionRow, people: Map<number, UserSummary>): ProtocolResponse {
  const who = (id: number | null) => (id === null ? null : (people.get(id) ?? null));
  return {
    protocol_uuid: protocol.protocolUuid,
    project_uuid: protocol.projectUuid,
    name: version.name,
    kind: protocol.kind,
    version: version.version,
    current_version: protocol.currentVersion,
    parameters: version.parameters as Record<string, unknown>,
    created_by: who(protocol.createdById),
    created_at: protocol.createdAt.toISOString(),
    version_created_by: who(version.createdById),
    version_created_at: version.createdAt.toISOString(),
  };
}

export async function listProtocols(
  context: AppContext,
  projectUuid: string,
  query: z.output<typeof protocolListQuery>,
  requestUrl: string,
) {
  const ordering = parseOrdering(query.ordering, PROTOCOL_ORDERINGS, 'name');
  const where = and(
    eq(protocols.projectUuid, projectUuid),
    isNull(protocols.deletedAt),
    query.kind ? eq(protocols.kind, query.kind) : undefined,
    query.search ? ilike(protocols.name, likePattern(query.search)) : undefined,
  );
  const column = {
    name: sql`lower(${protocols.name})`,
    created_at: protocols.createdAt,
    updated_at: protocols.updatedAt,
  }[ordering.field];
  const [total] = await context.db.select({ count: count() }).from(protocols).where(where);
  const rows = await context.db
    .select({ protocol: protocols, version: protocolVersions })
    .from(protocols)
    .innerJoin(
      protocolVersions,
      and(
        eq(protocolVersions.protocolUuid, protocols.protocolUuid),
        eq(protocolVersions.version, protocols.currentVersion),
      ),
    )
    .where(where)
    .orderBy(ordering.descending ? desc(column) : asc(column), asc(protocols.protocolUuid))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  const people = await userSummaries(
    context.db,
    rows.flatMap((row) => [row.protocol.createdById, row.version.createdById]),
  );
  const results = rows.map((row) => serialize(row.protocol, row.version, people));
  return toPage(requestUrl, context.config.publicUrl, query, total?.count ?? 0, results);
}

/** The protocol at its current version, or at `version`, with the list of its versions. */
export async function getProtocol(
  context: AppContext,
  projectUuid: string,
  protocolUuid: string,
  version?: number,
): Promise<z.infer<typeof protocolDetailSchema>> {
  const protocol = await requireProtocol(context.db, projectUuid, protocolUuid);
  const versions = await context.db
    .select()
    .from(protocolVersions)
    .where(eq(protocolVersions.protocolUuid, protocol.protocolUuid))
    .orderBy(desc(protocolVersions.version));
  const wanted = version ?? protocol.currentVersion;
  const shown = versions.find((row) => row.version === wanted);
  if (!shown) {
    throw badRequest({ version: [`This protocol has versions 1 to ${protocol.currentVersion}.`] });
  }
  const people = await userSummaries(context.db, [protocol.createdById, ...versions.map((row) => row.createdById)]);
  return {
    ...serialize(protocol, shown, people),
    versions: versions.map((row) => ({
      version: row.version,
      name: row.name,
      created_by: row.createdById === null ? null : (people.get(row.createdById) ?? null),
      created_at: row.createdAt.toISOString(),
    })),
  };
}

/** A name no other live protocol of the project has (ignoring case), or 400 on `name`. */
async function requireFreeName(db: Database, projectUuid: string, name: string, except?: string) {
  const [clash] = await db
    .select({ protocolUuid: protocols.protocolUuid })
    .from(protocols)
    .where(
      and(
        eq(protocols.projectUuid, projectUuid),
        isNull(protocols.deletedAt),
        sql`lower(${protocols.name}) = lower(${name})`,
        except ? ne(protocols.protocolUuid, except) : undefined,
      ),
    )
    .limit(1);
  if (clash) throw nameTaken(name);
}

export async function createProtocol(
  context: AppContext,
  projectUuid: string,
  userId: number,
  body: z.output<typeof createProtocolBody>,
) {
  const parameters = await parseProtocolParameters(context, projectUuid, body.kind, body.parameters);
  await requireFreeName(context.db, projectUuid, body.name);
  try {
    const protocolUuid = await context.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(protocols)
        .values({ projectUuid, name: body.name, kind: body.kind, createdById: userId })
        .returning();
      await tx.insert(protocolVersions).values({
        protocolUuid: row!.protocolUuid,
        version: 1,
        name: body.name,
        parameters,
        createdById: userId,
      });
      return row!.protocolUuid;
    });
    return getProtocol(context, projectUuid, protocolUuid);
  } catch (error) {
    // Two saves of one name at once: the unique index keeps one; the other is told as if it came second.
    if (isUniqueViolation(error)) throw nameTaken(body.name);
    throw error;
  }
}

/**
 * A new version with the new name and/or parameters (parameters are given whole). A change that changes nothing
 * makes no version and answers the current one.
 */
export async function updateProtocol(
  context: AppContext,
  projectUuid: string,
  protocolUuid: string,
  userId: number,
  body: z.output<typeof updateProtocolBody>,
) {
  const protocol = await requireProtocol(context.db, projectUuid, protocolUuid);
  if (body.kind !== undefined && body.kind !== protocol.kind) {
    throw badRequest({
      kind: [`A protocol's kind cannot change (this one is ${protocol.kind}): make a new protocol instead.`],
    });
  }
  const current = (await findVersion(context.db, protocol.protocolUuid, protocol.currentVersion))!;
  const name = body.name ?? current.name;
  const parameters =
    body.parameters === undefined
      ? (current.parameters as Record<string, unknown>)
      : await parseProtocolParameters(context, projectUuid, protocol.kind, body.parameters);
  if (name === current.name && isDeepStrictEqual(parameters, current.parameters)) {
    return getProtocol(context, projectUuid, protocol.protocolUuid);
  }
  if (name.toLowerCase() !== current.name.toLowerCase()) {
    await requireFreeName(context.db, projectUuid, name, protocol.protocolUuid);
  }
  try {
    await context.db.transaction(async (tx) => {
      // The row lock orders concurrent edits: each gets the next number.
      const [bumped] = await tx
        .update(protocols)
        .set({ name, currentVersion: sql`${protocols.currentVersion} + 1`, updatedAt: new Date() })
        .where(and(eq(protocols.protocolUuid, protocol.protocolUuid), isNull(protocols.deletedAt)))
        .returning({ version: protocols.currentVersion });
      if (!bumped) throw notFound();
      await tx.insert(protocolVersions).values({
        protocolUuid: protocol.protocolUuid,
        version: bumped.version,
        name,
        parameters,
        createdById: userId,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(name);
    throw error;
  }
  return getProtocol(context, projectUuid, protocol.protocolUuid);
}

export async function deleteProtocol(context: AppContext, projectUuid: string, protocolUuid: string) {
  const protocol = await requireProtocol(context.db, projectUuid, protocolUuid);
  await context.db
    .update(protocols)
    .set({ deletedAt: new Date() })
    .where(and(eq(protocols.protocolUuid, protocol.protocolUuid), isNull(protocols.deletedAt)));
}

/**
 * The settings a run takes from a protocol of the video's project: its kind and a version's parameters (the
 * current one unless `version` names another). Unknown, deleted and other projects' protocols are one answer, on
 * `protocol_uuid`, so an id tells nothing about other projects.
 */
export async function protocolForRun(
  context: AppContext,
  projectUuid: string,
  protocolUuid: string,
  version: number | undefined,
): Promise<{ protocolUuid: string; version: number; kind: ProtocolKind; parameters: Record<string, unknown> }> {
  const protocol = await findProtocol(context.db, projectUuid, protocolUuid);
  if (!protocol) throw badRequest({ protocol_uuid: ['No protocol of this project has that id.'] });
  const wanted = version ?? protocol.currentVersion;
  const row = await findVersion(context.db, protocol.protocolUuid, wanted);
  if (!row) {
    throw badRequest({
      protocol_version: [`Protocol "${protocol.name}" has versions 1 to ${protocol.currentVersion}.`],
    });
  }
  return {
    protocolUuid: protocol.protocolUuid,
    version: row.version,
    kind: protocol.kind,
    parameters: row.parameters as Record<string, unknown>,
  };
}
