import { and, asc, count, desc, eq, gt, ilike, isNull, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../context.js';
import { invitations, memberships, projects, users } from '../../db/schema.js';
import type { UserRow } from '../../lib/authenticate.js';
import { fieldError } from '../../lib/errors.js';
import type { readImageUpload } from '../../lib/image-upload.js';
import { type ListQuery, likePattern, parseOrdering, toPage } from '../../lib/pagination.js';
import { userAvatarKey } from '../../lib/storage-keys.js';
import { displayName } from './user.serializer.js';

export interface ProfileChanges {
  first_name?: string | undefined;
  last_name?: string | undefined;
  email?: string | undefined;
}

/**
 * Updates the caller's names. The e-mail address is the login name and changing it needs a new verification,
 * which is not offered yet: a different address is refused, the unchanged one is accepted (clients send the
 * whole object back on PUT).
 */
export async function updateProfile(ctx: AppContext, user: UserRow, changes: ProfileChanges): Promise<UserRow> {
  if (changes.email !== undefined && changes.email.toLowerCase() !== user.email.toLowerCase()) {
    throw fieldError('email', 'The e-mail address cannot be changed.');
  }
  const set: Partial<typeof users.$inferInsert> = {};
  if (changes.first_name !== undefined) set.firstName = changes.first_name;
  if (changes.last_name !== undefined) set.lastName = changes.last_name;
  if (Object.keys(set).length === 0) return user;
  const [row] = await ctx.db.update(users).set(set).where(eq(users.id, user.id)).returning();
  return row ?? user;
}

const contentTypes: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/** Stores the new avatar, points the user at it, then removes the old file. */
export async function replaceAvatar(
  ctx: AppContext,
  user: UserRow,
  image: Awaited<ReturnType<typeof readImageUpload>>,
): Promise<UserRow> {
  const key = userAvatarKey(user.id, image.name);
  await ctx.storage.write(key, image.data, contentTypes[image.ext]);
  const [row] = await ctx.db.update(users).set({ avatarKey: key }).where(eq(users.id, user.id)).returning();
  if (user.avatarKey && user.avatarKey !== key) {
    await ctx.storage.delete(user.avatarKey).catch((error: unknown) => {
      ctx.logger.warn({ err: error, userId: user.id }, 'previous avatar could not be deleted');
    });
  }
  return row ?? user;
}

const inviter = alias(users, 'inviter');

const orderColumns = {
  created_at: invitations.createdAt,
  expires_at: invitations.expiresAt,
  project_name: projects.name,
} as const;
export const pendingInvitationOrderings = Object.keys(orderColumns) as (keyof typeof orderColumns)[];

/**
 * Invitations addressed to the caller's e-mail (any letter case) that can still be accepted:
 * pending, not expired, and for a project the caller is not already a member of.
 */
export async function listPendingInvitations(ctx: AppContext, user: UserRow, query: ListQuery, requestUrl: string) {
  const ordering = parseOrdering<keyof typeof orderColumns>(query.ordering, pendingInvitationOrderings, '-created_at');
  const where = and(
    sql`lower(${invitations.email}) = lower(${user.email})`,
    eq(invitations.status, 'pending'),
    // Not for a project in the trash.
    isNull(projects.deletedAt),
    gt(invitations.expiresAt, new Date()),
    notExists(
      ctx.db
        .select({ one: sql`1` })
        .from(memberships)
        .where(and(eq(memberships.projectUuid, invitations.projectUuid), eq(memberships.userId, user.id))),
    ),
    query.search ? ilike(projects.name, likePattern(query.search)) : undefined,
  );
  const column = orderColumns[ordering.field];
  const [total, rows] = await Promise.all([
    ctx.db
      .select({ value: count() })
      .from(invitations)
      .innerJoin(projects, eq(projects.projectUuid, invitations.projectUuid))
      .where(where),
    ctx.db
      .select({ invitation: invitations, projectName: projects.name, inviter })
      .from(invitations)
      .innerJoin(projects, eq(projects.projectUuid, invitations.projectUuid))
      .leftJoin(inviter, eq(inviter.id, invitations.invitedById))
      .where(where)
      .orderBy(ordering.descending ? desc(column) : asc(column), asc(invitations.invitationUuid))
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size),
  ]);
  const results = rows.map(({ invitation, projectName, inviter: by }) => ({
    invitation_uuid: invitation.invitationUuid,
    project_uuid: invitation.projectUuid,
    project_name: projectName,
    email: invitation.email,
    role: invitation.role,
    status: 'pending' as const,
    invited_by: by ? displayName(by) : null,
    created_at: invitation.createdAt.toISOString(),
    expires_at: invitation.expiresAt.toISOString(),
  }));
  return toPage(requestUrl, ctx.config.publicUrl, query, total[0]?.value ?? 0, results);
}
