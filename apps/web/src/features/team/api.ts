import type { ApiRequestBody, ApiResponse } from '@app/api';
import { queryOptions } from '@tanstack/react-query';
import { type Page, requireParam } from '@/lib/api-client';
import { api, idParam } from '@/lib/api-client-typed';

/** Shapes come from the server's OpenAPI document (packages/api). */
export type Member = ApiResponse<'/api/projects/{project_uuid}/members/', 'get'>['results'][number];
export type Invitation = ApiResponse<'/api/projects/{project_uuid}/invitations/', 'get'>['results'][number];
export type InvitationRole = Invitation['role'];
export type AssignableRole = ApiRequestBody<'/api/projects/{project_uuid}/members/{user_id}/', 'patch'>['role'];
export type CreateInvitationBody = ApiRequestBody<'/api/projects/{project_uuid}/invitations/', 'post'>;

export const ASSIGNABLE_ROLES: AssignableRole[] = ['admin', 'member', 'viewer'];

/** What each role may do, as the team section explains it. */
export const ROLE_HINTS: Record<AssignableRole, string> = {
  admin: 'Invites and manages members',
  member: 'Adds subjects, videos and analyses',
  viewer: 'Reads everything, changes nothing',
};

/** The largest page the server gives: a project's team fits in one. */
const TEAM_PAGE = 500;

export const teamKeys = {
  all: ['team'] as const,
  members: (projectUuid: string) => [...teamKeys.all, 'members', projectUuid] as const,
  invitations: (projectUuid: string) => [...teamKeys.all, 'invitations', projectUuid] as const,
};

const at = (projectUuid: string) => ({ path: { project_uuid: projectUuid } });
const member = (projectUuid: string, userId: number) => ({
  params: { path: { project_uuid: projectUuid, user_id: idParam(userId) } },
});
const invitation = (projectUuid: string, invitationUuid: string) => ({
  params: { path: { project_uuid: projectUuid, invitation_uuid: invitationUuid } },
});

export const teamApi = {
  members: (projectUuid: string): Promise<Page<Member>> =>
    api.GET('/api/projects/{project_uuid}/members/', {
      params: { ...at(projectUuid), query: { page_size: TEAM_PAGE } },
    }),
  changeRole: (projectUuid: string, userId: number, role: AssignableRole): Promise<Member> =>
    api.PATCH('/api/projects/{project_uuid}/members/{user_id}/', { ...member(projectUuid, userId), body: { role } }),
  /** Removes a member; on one's own id, leaves the project. */
  removeMember: (projectUuid: string, userId: number): Promise<void> =>
    api.DELETE('/api/projects/{project_uuid}/members/{user_id}/', member(projectUuid, userId)),
  transferOwnership: (projectUuid: string, userId: number): Promise<unknown> =>
    api.POST('/api/projects/{project_uuid}/members/transfer-ownership/', {
      params: at(projectUuid),
      body: { user_id: requireParam('userId', userId, 'projectsMembersTransferOwnership') },
    }),
  invitations: (projectUuid: string): Promise<Page<Invitation>> =>
    api.GET('/api/projects/{project_uuid}/invitations/', {
      params: { ...at(projectUuid), query: { page_size: TEAM_PAGE, ordering: '-created_at' } },
    }),
  invite: (projectUuid: string, body: CreateInvitationBody): Promise<Invitation> =>
    api.POST('/api/projects/{project_uuid}/invitations/', { params: at(projectUuid), body }),
  resend: (projectUuid: string, invitationUuid: string): Promise<Invitation> =>
    api.POST(
      '/api/projects/{project_uuid}/invitations/{invitation_uuid}/resend/',
      invitation(projectUuid, invitationUuid),
    ),
  revoke: (projectUuid: string, invitationUuid: string): Promise<Invitation> =>
    api.PATCH('/api/projects/{project_uuid}/invitations/{invitation_uuid}/', {
      ...invitation(projectUuid, invitationUuid),
      body: { status: 'revoked' },
    }),
};

export const teamQueries = {
  members: (projectUuid: string) =>
    queryOptions({ queryKey: teamKeys.members(projectUuid), queryFn: () => teamApi.members(projectUuid) }),
  invitations: (projectUuid: string) =>
    queryOptions({ queryKey: teamKeys.invitations(projectUuid), queryFn: () => teamApi.invitations(projectUuid) }),
};

/** Invitations that can still be acted on: pending ones, and expired ones that can be sent again. */
export function openInvitations(invitations: Invitation[]): Invitation[] {
  return invitations.filter((invitation) => invitation.status === 'pending' || invitation.status === 'expired');
}
