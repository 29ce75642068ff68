import { LOCKED_MESSAGE } from '@/lib/project-locked';
import type { Project } from './api';

type ProjectFacts = Pick<Project, 'role' | 'status' | 'plan'>;

/** What the signed-in user may do in a project: the server's rules, so the app shows only what will work. */
export interface ProjectPermissions {
  /** Subjects, videos, annotations, events: members and above, on a project that is not locked. */
  canEditContent: boolean;
  /** Uploads and analyses: members and above, on an active project (drafts wait, locked projects are read-only). */
  canProcess: boolean;
  /** Why a member cannot upload or analyse right now (draft or locked), or null. */
  processBlockedReason: string | null;
  /** Name, description, logo: owners and admins. */
  canEditProject: boolean;
  /** Invite, change roles, remove members: owners and admins. */
  canManageTeam: boolean;
  /** Act on admins, transfer ownership, delete the project: the owner. */
  isOwner: boolean;
  canTransferOwnership: boolean;
  canDeleteProject: boolean;
  /** Subscribe or manage billing: the owner, when billing is on (a locked project too: that is how it is renewed). */
  canManageBilling: boolean;
  /** Everyone but the owner can leave. */
  canLeave: boolean;
  /** Delete several subjects at once: owners and admins (a member deletes one at a time). */
  canBulkDelete: boolean;
  /** Restore from the project's trash: members and above, on a project that is not locked. */
  canRestoreTrash: boolean;
  /** Purge the trash for good: owners and admins. */
  canEmptyTrash: boolean;
}

const rank = { viewer: 0, member: 1, admin: 2, owner: 3 } as const;

export { LOCKED_MESSAGE };

/** The server's draft message, so the app says the same thing before anyone tries. */
export function draftMessage(plan: Project['plan'], supportEmail: string): string {
  return plan === 'institutional'
    ? `This project is a draft: uploads and analyses start once an operator activates its Institutional plan. Write to ${supportEmail} to have it activated.`
    : 'This project is a draft: uploads and analyses start once its Pro subscription is active. The project owner can subscribe on the project page.';
}

export function projectPermissions(
  project: ProjectFacts | null | undefined,
  options: { billingEnabled: boolean; supportEmail: string },
): ProjectPermissions {
  const role = project?.role ?? 'viewer';
  const at = (minimum: keyof typeof rank) => rank[role] >= rank[minimum];
  const locked = project?.status === 'locked';
  const draft = project?.status === 'draft';
  const member = at('member');
  return {
    canEditContent: member && !locked,
    canProcess: member && !locked && !draft,
    processBlockedReason: !member
      ? null
      : locked
        ? LOCKED_MESSAGE
        : draft
          ? draftMessage(project?.plan ?? 'pro', options.supportEmail)
          : null,
    canEditProject: at('admin') && !locked,
    canManageTeam: at('admin') && !locked,
    isOwner: role === 'owner',
    canTransferOwnership: role === 'owner' && !locked,
    canDeleteProject: role === 'owner' && !locked,
    canManageBilling: role === 'owner' && options.billingEnabled,
    canLeave: !!project && role !== 'owner',
    canBulkDelete: at('admin') && !locked,
    canRestoreTrash: member && !locked,
    canEmptyTrash: at('admin') && !locked,
  };
}
