import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { Database } from '../db/client.js';
import { memberships, projects, type Role, users } from '../db/schema.js';
import { forbidden, notFound, unauthorized } from './errors.js';

const rank: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

export const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return rank[role] >= rank[minimum];
}

export type ProjectRow = typeof projects.$inferSelect;

/** The answer to every change of a locked project (read-only until its subscription is renewed). */
export const LOCKED_MESSAGE = 'This project is locked: renew its subscription to make changes.';

/**
 * What a call does to a project, against its state: `read` works everywhere; `change` (any write) is refused on a
 * locked project; `process` (uploads and analyses) also waits while the project is a draft; `renew` (billing, and
 * leaving) works everywhere, so that a locked project can be paid for and nobody is kept in one.
 */
export type ProjectWork = 'read' | 'change' | 'process' | 'renew';

export const roleMessage = (minimum: Role) =>
  minimum === 'owner'
    ? 'Only the project owner can do this.'
    : minimum === 'admin'
      ? 'Only project owners and admins can do this.'
      : 'Viewers have read-only access to this project.';

/** Why a draft project's uploads and analyses wait, and what to do about it. */
export function draftMessage(context: AppContext, project: Pick<ProjectRow, 'plan'>): string {
  return project.plan === 'institutional'
    ? `This project is a draft: uploads and analyses start once an operator activates its Institutional plan. Write to ${context.config.supportEmail} to have it activated.`
    : 'This project is a draft: uploads and analyses start once its Pro subscription is active. The project owner can subscribe on the project page.';
}

/** Refuses `work` the project's state does not allow: 403 with the reason and what to do. */
export function assertProjectAllows(context: AppContext, project: ProjectRow, work: ProjectWork): void {
  if (work === 'read' || work === 'renew') return;
  if (project.status === 'locked') throw forbidden(LOCKED_MESSAGE);
  if (work === 'process' && project.status === 'draft') throw forbidden(draftMessage(context, project));
}

/**
 * The gate in front of everything under /projects/{uuid}/: a non-member (or a malformed uuid) gets 404,
 * never a hint that the project exists; a member below `minimum` gets 403; then the project's state must allow
 * the work (locked: no changes; draft: no uploads or analyses).
 */
export async function requireProjectRole(
  context: AppContext,
  userId: number,
  projectUuid: string,
  minimum: Role,
  work: ProjectWork = minimum === 'viewer' ? 'read' : 'change',
  inTrash = false,
): Promise<{ project: ProjectRow; role: Role }> {
  if (!isUuid(projectUuid)) throw notFound();
  const [row] = await context.db
    .select({ project: projects, role: memberships.role })
    .from(projects)
    .innerJoin(memberships, and(eq(memberships.projectUuid, projects.projectUuid), eq(memberships.userId, userId)))
    .where(eq(projects.projectUuid, projectUuid))
    .limit(1);
  return authorize(context, row, minimum, work, inTrash);
}

/**
 * A project in the trash is a 404 to everyone, like one that does not exist; only its owner, on the routes that act
 * on the trashed project itself (restoring it: `inTrash`), sees it.
 */
function authorize(
  context: AppContext,
  row: { project: ProjectRow | null; role: Role | null } | undefined,
  minimum: Role,
  work: ProjectWork,
  inTrash: boolean,
): { project: ProjectRow; role: Role } {
  if (!row?.project || !row.role) throw notFound();
  if (row.project.deletedAt && !(inTrash && row.role === 'owner')) throw notFound();
  if (!roleAtLeast(row.role, minimum)) throw forbidden(roleMessage(minimum));
  assertProjectAllows(context, row.project, work);
  return { project: row.project, role: row.role };
}

type UserRow = typeof users.$inferSelect;

/** The user with their membership and project, in one statement (prepared once per database). */
function memberQuery(db: Database) {
  return db
    .select({ user: users, project: projects, role: memberships.role })
    .from(users)
    .leftJoin(
      memberships,
      and(eq(memberships.userId, users.id), eq(memberships.projectUuid, sql.placeholder('projectUuid'))),
    )
    .leftJoin(projects, eq(projects.projectUuid, memberships.projectUuid))
    .where(eq(users.id, sql.placeholder('userId')))
    .limit(1)
    .prepare('project_member');
}
const memberQueries = new WeakMap<Database, ReturnType<typeof memberQuery>>();

/**
 * `app.authenticate` and `requireProjectRole` in one round trip, for the project-scoped routes: the token's user
 * (401 when it is gone or changed its password after the token was issued), their role in the project and the
 * project (404 for non-members), then the same role and project-state checks.
 */
export async function requireUserAndProjectRole(
  context: AppContext,
  claims: { sub: string; iat: number },
  projectUuid: string,
  minimum: Role,
  work: ProjectWork,
  inTrash = false,
): Promise<{ user: UserRow; project: ProjectRow; role: Role }> {
  let query = memberQueries.get(context.db);
  if (!query) {
    query = memberQuery(context.db);
    memberQueries.set(context.db, query);
  }
  // A malformed project id is a 404, after the user's own check: look the user up with no project.
  const [row] = await query.execute({
    userId: Number(claims.sub),
    projectUuid: isUuid(projectUuid) ? projectUuid : '00000000-0000-0000-0000-000000000000',
  });
  if (!row) throw unauthorized('User not found.');
  if (!tokenStillValid(row.user, claims)) throw unauthorized('Given token not valid for any token type');
  const { project, role } = authorize(context, isUuid(projectUuid) ? row : undefined, minimum, work, inTrash);
  return { user: row.user, project, role };
}

/** A token issued before the user's last password change no longer counts. */
export function tokenStillValid(user: Pick<UserRow, 'passwordChangedAt'>, claims: { iat: number }): boolean {
  return !user.passwordChangedAt || claims.iat >= Math.floor(user.passwordChangedAt.getTime() / 1000);
}
