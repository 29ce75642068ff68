import { and, asc, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/errors.js';
import { memberships, projects, type Role, users } from '../../db/schema.js';
import { assertProjectAllows, type ProjectRow, roleAtLeast } from '../../lib/access.js';
import { badRequest, conflict, fieldError, forbidden, notFound } from '../../lib/errors.js';
import { type ListQuery, likePattern, parseOrdering, toPage } from '../../lib/pagination.js';
import { type FileViewer, fileUrl } from '../files/file-urls.js';
import type { ProjectResponse } from '../projects/project.schemas.js';
import { getProject } from '../projects/project.service.js';
import { displayName } from '../users/user.serializer.js';
import { type AssignableRole, MEMBER_ORDERING, type MemberResponse } from './member.schemas.js';

/** Who is acting: the caller and their role in the project (from the project scope). */
export interface Actor {
  userId: number;
  /** The caller as avatar URLs are made for them (id and last password change). */
  viewer: FileViewer;
  role: Role;
  project: ProjectRow;
}

const memberColumns = { user: users, role: memberships.role, joinedAt: memberships.createdAt };
type MemberRow = { user: typeof users.$inferSelect; role: Role; joinedAt: Date };

async function toResponse(context: AppContext, viewer: FileViewer, row: MemberRow): Promise<MemberResponse> {
  return {
    user: {
      id: row.user.id,
      email: row.user.email,
      display_name: displayName(row.user),
      avatar_url: await fileUrl(context, viewer, row.user.avatarKey),
    },
    role: row.role,
    joined_at: row.joinedAt.toISOString(),
  };
}

export async function listMembers(
  context: AppContext,
  viewer: FileViewer,
  projectUuid: string,
  query: ListQuery,
  url: string,
) {
  const { field, descending } = parseOrdering(query.ordering, MEMBER_ORDERING, 'joined_at');
  const column = { joined_at: memberships.createdAt, email: users.email, role: memberships.role }[field];
  const where = and(
    eq(memberships.projectUuid, projectUuid),
    query.search
      ? sql`(${users.email} ilike ${likePattern(query.search)} or (${users.firstName} || ' ' || ${users.lastName}) ilike ${likePattern(query.search)})`
      : undefined,
  );
  const [total] = await context.db
    .select({ value: count() })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(where);
  const rows = await context.db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(where)
    .orderBy(descending ? desc(column) : asc(column), asc(users.id))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  const results = await Promise.all(rows.map((row) => toResponse(context, viewer, row)));
  return toPage(url, context.config.publicUrl, query, total?.value ?? 0, results);
}

/** The member with this id (a path segment), or 404: ids of people outside the project tell nothing. */
async function findMember(context: AppContext, projectUuid: string, userId: string | number): Promise<MemberRow> {
  const id = Number(userId);
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound();
  const [row] = await context.db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.projectUuid, projectUuid), eq(memberships.userId, id)))
    .limit(1);
  if (!row) throw notFound('This person is not a member of this project.');
  return row;
}

/**
 * Owners and admins change roles. Nobody changes the owner's role (ownership moves only by a transfer, so a project
 * always has its one owner), nor their own; only the owner changes an admin's role.
 */
export async function changeRole(
  context: AppContext,
  actor: Actor,
  targetUserId: string,
  role: AssignableRole,
): Promise<MemberResponse> {
  const target = await findMember(context, actor.project.projectUuid, targetUserId);
  if (target.role === 'owner') {
    throw forbidden("The owner's role cannot be changed: the owner can transfer ownership to an admin instead.");
  }
  if (target.user.id === actor.userId) throw forbidden('You cannot change your own role.');
  if (target.role === 'admin' && actor.role !== 'owner') {
    throw forbidden("Only the project owner can change an admin's role.");
  }
  if (target.role !== role) {
    // The role read above may be stale; never turn an owner into anything else.
    const updated = await context.db
      .update(memberships)
      .set({ role })
      .where(
        and(
          eq(memberships.projectUuid, actor.project.projectUuid),
          eq(memberships.userId, target.user.id),
          ne(memberships.role, 'owner'),
        ),
      )
      .returning({ userId: memberships.userId });
    if (updated.length === 0) throw conflict('The team changed meanwhile: reload and try again.');
  }
  return toResponse(context, actor.viewer, { ...target, role });
}

/**
 * Removes a member; called on oneself it is leaving. Their videos, runs and edits stay, credited to them. The owner
 * cannot leave (ownership moves first) and cannot be removed; only the owner removes an admin. Leaving works on a
 * locked project too — nobody is kept in one — while removing someone else is a change like any other.
 */
export async function removeMember(context: AppContext, actor: Actor, targetUserId: string): Promise<void> {
  const target = await findMember(context, actor.project.projectUuid, targetUserId);
  const leaving = target.user.id === actor.userId;
  if (leaving) {
    if (target.role === 'owner') {
      throw forbidden(
        'The owner cannot leave the project: transfer ownership to an admin first, or delete the project.',
      );
    }
  } else {
    if (!roleAtLeast(actor.role, 'admin')) throw forbidden('Only project owners and admins can remove members.');
    assertProjectAllows(context, actor.project, 'change');
    if (target.role === 'owner') throw forbidden('The project owner cannot be removed.');
    if (target.role === 'admin' && actor.role !== 'owner') {
      throw forbidden('Only the project owner can remove an admin.');
    }
  }
  await context.db
    .delete(memberships)
    .where(
      and(
        eq(memberships.projectUuid, actor.project.projectUuid),
        eq(memberships.userId, target.user.id),
        ne(memberships.role, 'owner'),
      ),
    );
}

/**
 * The owner hands the project to one of its admins and stays on as an admin. Both roles and the project's owner
 * change in one transaction, so the project never has zero or two owners.
 */
export async function transferOwnership(
  context: AppContext,
  actor: Actor,
  newOwnerId: number,
): Promise<ProjectResponse> {
  const { project } = actor;
  if (newOwnerId === actor.userId) throw fieldError('user_id', 'You already own this project.');
  const [target] = await context.db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.projectUuid, project.projectUuid), eq(memberships.userId, newOwnerId)))
    .limit(1);
  if (!target) throw fieldError('user_id', 'This person is not a member of this project.');
  if (target.role !== 'admin') {
    throw fieldError('user_id', 'Ownership can only go to an admin of the project: make them an admin first.');
  }
  try {
    await context.db.transaction(async (tx) => {
      const moved = await tx
        .update(projects)
        .set({ ownerId: newOwnerId, updatedAt: new Date() })
        .where(and(eq(projects.projectUuid, project.projectUuid), eq(projects.ownerId, actor.userId)))
        .returning({ projectUuid: projects.projectUuid });
      if (moved.length === 0) throw conflict('The project changed meanwhile: reload and try again.');
      const promoted = await tx
        .update(memberships)
        .set({ role: 'owner' })
        .where(
          and(
            eq(memberships.projectUuid, project.projectUuid),
            eq(memberships.userId, newOwnerId),
            eq(memberships.role, 'admin'),
          ),
        )
        .returning({ userId: memberships.userId });
      if (promoted.length === 0) throw conflict('The team changed meanwhile: reload and try again.');
      await tx
        .update(memberships)
        .set({ role: 'admin' })
        .where(and(eq(memberships.projectUuid, project.projectUuid), eq(memberships.userId, actor.userId)));
    });
  } catch (error) {
    // Project names are unique per owner.
    if (isUniqueViolation(error)) {
      throw badRequest({
        user_id: [
          `${displayName(target.user)} already owns a project named "${project.name}": rename this project first.`,
        ],
      });
    }
    throw error;
  }
  return getProject(context, actor.viewer, project.projectUuid);
}
