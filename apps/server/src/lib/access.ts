import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { memberships, projects, type Role } from '../db/schema.js';
import { forbidden, notFound } from './errors.js';

const rank: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

export const isUuid = (value: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return rank[role] >= rank[minimum];
}

export type ProjectRow = typeof projects.$inferSelect;

/**
 * The gate in front of everything under /projects/{uuid}/: a non-member (or a malformed uuid) gets 404,
 * never a hint that the project exists; a member below `minimum` gets 403; writes to a locked project
 * get 403 with the reason.
 */
export async function requireProjectRole(
  context: AppContext,
  userId: number,
  projectUuid: string,
  minimum: Role,
): Promise<{ project: ProjectRow; role: Role }> {
  if (!isUuid(projectUuid)) throw notFound();
  const [row] = await context.db
    .select({ project: projects, role: memberships.role })
    .from(projects)
    .innerJoin(memberships, and(eq(memberships.projectUuid, projects.projectUuid), eq(memberships.userId, userId)))
    .where(eq(projects.projectUuid, projectUuid))
    .limit(1);
  if (!row) throw notFound();
  if (!roleAtLeast(row.role, minimum)) {
    throw forbidden(
      minimum === 'owner'
        ? 'Only the project owner can do this.'
        : minimum === 'admin'
          ? 'Only project owners and admins can do this.'
          : 'Viewers have read-only access to this project.',
    );
  }
  if (minimum !== 'viewer' && row.project.status === 'locked' && minimum !== 'owner') {
    throw forbidden(
      'This project is locked: its data can be read but not changed. Renew the subscription to unlock it.',
    );
  }
  return { project: row.project, role: row.role };
}
