import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { invitations, memberships, projects, users } from '../../db/schema.js';
import { assertProjectAllows, isUuid, type ProjectRow } from '../../lib/access.js';
import type { UserRow } from '../../lib/authenticate.js';
import { badRequest, fieldError, notFound } from '../../lib/errors.js';
import { type ListQuery, likePattern, parseOrdering, toPage } from '../../lib/pagination.js';
import { displayName } from '../users/user.serializer.js';
import { INVITATION_ORDERING, type InvitationResponse, type invitableRoles } from './invitation.schemas.js';

export const INVITATION_DAYS = 7;

type InvitableRole = (typeof invitableRoles)[number];
type InvitationRow = typeof invitations.$inferSelect;

const expiryFromNow = () => new Date(Date.now() + INVITATION_DAYS * 24 * 60 * 60 * 1000);

/** A pending invitation past its date reads as expired, whether or not a job has updated the row yet. */
function effectiveStatus(row: InvitationRow): InvitationRow['status'] {
  return row.status === 'pending' && row.expiresAt.getTime() <= Date.now() ? 'expired' : row.status;
}

function toResponse(
  row: InvitationRow,
  inviter: Pick<UserRow, 'id' | 'email' | 'firstName' | 'lastName'> | null,
): InvitationResponse {
  return {
    invitation_uuid: row.invitationUuid,
    project_uuid: row.projectUuid,
    email: row.email,
    role: row.role as InvitableRole,
    status: effectiveStatus(row),
    invited_by: inviter ? { id: inviter.id, email: inviter.email, display_name: displayName(inviter) } : null,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  };
}

async function loadWithInviter(context: AppContext, projectUuid: string, invitationUuid: string) {
  if (!isUuid(invitationUuid)) throw notFound();
  const [row] = await context.db
    .select({ invitation: invitations, inviter: users })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedById))
    .where(and(eq(invitations.projectUuid, projectUuid), eq(invitations.invitationUuid, invitationUuid)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

export async function listInvitations(context: AppContext, projectUuid: string, query: ListQuery, url: string) {
  const { field, descending } = parseOrdering(query.ordering, INVITATION_ORDERING, '-created_at');
  const column = {
    created_at: invitations.createdAt,
    email: invitations.email,
    status: invitations.status,
    expires_at: invitations.expiresAt,
  }[field];
  const where = and(
    eq(invitations.projectUuid, projectUuid),
    query.search ? sql`${invitations.email} ilike ${likePattern(query.search)}` : undefined,
  );
  const [total] = await context.db.select({ value: count() }).from(invitations).where(where);
  const rows = await context.db
    .select({ invitation: invitations, inviter: users })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedById))
    .where(where)
    .orderBy(descending ? desc(column) : asc(column), asc(invitations.invitationUuid))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  const results = rows.map((row) => toResponse(row.invitation, row.inviter));
  return toPage(url, context.config.publicUrl, query, total?.value ?? 0, results);
}

export async function getInvitation(context: AppContext, projectUuid: string, invitationUuid: string) {
  const row = await loadWithInviter(context, projectUuid, invitationUuid);
  return toResponse(row.invitation, row.inviter);
}

/** Invites an e-mail address; the e-mail links to the web app's accept page. One pending invitation per address. */
export async function createInvitation(
  context: AppContext,
  project: ProjectRow,
  inviter: UserRow,
  input: { email: string; role: InvitableRole },
): Promise<InvitationResponse> {
  const [member] = await context.db
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.projectUuid, project.projectUuid), sql`lower(${users.email}) = ${input.email}`))
    .limit(1);
  if (member) throw fieldError('email', `${input.email} is already a member of this project.`);
  const [pending] = await context.db
    .select({ invitationUuid: invitations.invitationUuid })
    .from(invitations)
    .where(
      and(
        eq(invitations.projectUuid, project.projectUuid),
        sql`lower(${invitations.email}) = ${input.email}`,
        eq(invitations.status, 'pending'),
        sql`${invitations.expiresAt} > now()`,
      ),
    )
    .limit(1);
  if (pending) throw fieldError('email', `${input.email} already has a pending invitation to this project.`);

  const [row] = await context.db
    .insert(invitations)
    .values({
      projectUuid: project.projectUuid,
      email: input.email,
      role: input.role,
      invitedById: inviter.id,
      expiresAt: expiryFromNow(),
    })
    .returning();
  await sendInvitationMail(context, project, inviter, row!);
  return toResponse(row!, inviter);
}

/** The e-mail with the link to the web app's accept page. */
async function sendInvitationMail(
  context: AppContext,
  project: Pick<ProjectRow, 'projectUuid' | 'name'>,
  inviter: Pick<UserRow, 'email' | 'firstName' | 'lastName'>,
  invitation: InvitationRow,
): Promise<void> {
  const link = `${context.config.publicUrl}/auth/accept-invite/${project.projectUuid}/${invitation.invitationUuid}`;
  await context.mailer.send({
    to: invitation.email,
    subject: `${displayName(inviter)} invited you to "${project.name}"`,
    text: [
      `${displayName(inviter)} invited you to join the project "${project.name}" as ${invitation.role}.`,
      '',
      `Accept the invitation (sign in or create an account with ${invitation.email} first):`,
      link,
      '',
      `The invitation expires in ${INVITATION_DAYS} days.`,
    ].join('\n'),
    links: [link],
  });
}

/**
 * Sends a pending (or expired) invitation again with a fresh expiry; the e-mail comes in the name of whoever resends
 * it, the invitation still names who first invited. Accepted and revoked invitations are done with: a new invitation
 * is the way to ask again.
 */
export async function resendInvitation(
  context: AppContext,
  project: ProjectRow,
  sender: UserRow,
  invitationUuid: string,
): Promise<InvitationResponse> {
  const { invitation, inviter } = await loadWithInviter(context, project.projectUuid, invitationUuid);
  const status = effectiveStatus(invitation);
  if (status === 'accepted') throw badRequest('This invitation has already been accepted.');
  if (status === 'revoked') throw badRequest('This invitation was revoked: invite the person again instead.');
  const [member] = await context.db
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.projectUuid, project.projectUuid), sql`lower(${users.email}) = ${invitation.email}`))
    .limit(1);
  if (member) throw badRequest(`${invitation.email} is already a member of this project.`);
  const [row] = await context.db
    .update(invitations)
    .set({ status: 'pending', expiresAt: expiryFromNow() })
    .where(eq(invitations.invitationUuid, invitation.invitationUuid))
    .returning();
  await sendInvitationMail(context, project, sender, row!);
  return toResponse(row!, inviter);
}

export async function updateInvitation(
  context: AppContext,
  projectUuid: string,
  invitationUuid: string,
  changes: { role?: InvitableRole; status?: 'revoked' },
): Promise<InvitationResponse> {
  const { invitation } = await loadWithInviter(context, projectUuid, invitationUuid);
  if (effectiveStatus(invitation) !== 'pending') {
    throw badRequest(`This invitation is ${effectiveStatus(invitation)} and can no longer be changed.`);
  }
  const set = {
    ...(changes.role ? { role: changes.role } : {}),
    ...(changes.status ? { status: changes.status } : {}),
  };
  // An empty PATCH changes nothing and answers the invitation as it is.
  if (Object.keys(set).length > 0) {
    await context.db.update(invitations).set(set).where(eq(invitations.invitationUuid, invitation.invitationUuid));
  }
  return getInvitation(context, projectUuid, invitationUuid);
}

export async function deleteInvitation(context: AppContext, projectUuid: string, invitationUuid: string) {
  const { invitation } = await loadWithInviter(context, projectUuid, invitationUuid);
  await context.db.delete(invitations).where(eq(invitations.invitationUuid, invitation.invitationUuid));
}

/**
 * The invited person joins the project. Only the account with the invited e-mail may accept; to anyone else the
 * invitation does not exist (404), so invitation ids cannot be probed.
 */
/**
 * The landing page of an invitation link, for anyone holding it (signed in or not): the project's name, the
 * inviter's name and the invited address — for a pending, unexpired invitation of a live project only. Any other
 * link, a wrong id included, is 404 with nothing in it, so ids cannot be probed for projects.
 */
export async function invitationLanding(context: AppContext, projectUuid: string, invitationUuid: string) {
  if (!isUuid(projectUuid)) throw notFound();
  const { invitation, inviter } = await loadWithInviter(context, projectUuid, invitationUuid);
  if (effectiveStatus(invitation) !== 'pending') throw notFound();
  const [project] = await context.db
    .select({ name: projects.name, deletedAt: projects.deletedAt })
    .from(projects)
    .where(eq(projects.projectUuid, projectUuid))
    .limit(1);
  if (!project || project.deletedAt) throw notFound();
  return {
    project_name: project.name,
    invited_by: inviter ? displayName(inviter) : null,
    email: invitation.email,
  };
}

export async function acceptInvitation(
  context: AppContext,
  user: UserRow,
  projectUuid: string,
  invitationUuid: string,
) {
  if (!isUuid(projectUuid)) throw notFound();
  const { invitation } = await loadWithInviter(context, projectUuid, invitationUuid);
  if (invitation.email.toLowerCase() !== user.email.toLowerCase()) throw notFound();
  const status = effectiveStatus(invitation);
  if (status !== 'pending') {
    throw badRequest(
      status === 'accepted'
        ? 'This invitation has already been accepted.'
        : status === 'expired'
          ? 'This invitation has expired. Ask a project admin to invite you again.'
          : 'This invitation was withdrawn. Ask a project admin to invite you again.',
    );
  }
  // Joining is a change like any other: a locked project takes new members once it is renewed.
  const [project] = await context.db.select().from(projects).where(eq(projects.projectUuid, projectUuid)).limit(1);
  // A project in the trash takes nobody in: to the invited person it does not exist.
  if (!project || project.deletedAt) throw notFound();
  assertProjectAllows(context, project, 'change');
  await context.db.transaction(async (tx) => {
    await tx.insert(memberships).values({ projectUuid, userId: user.id, role: invitation.role }).onConflictDoNothing();
    await tx.update(invitations).set({ status: 'accepted' }).where(eq(invitations.invitationUuid, invitationUuid));
  });
  return { project_uuid: projectUuid, role: invitation.role as InvitableRole };
}
