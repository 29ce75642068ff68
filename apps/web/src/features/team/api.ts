import type { ApiRequestBody, ApiResponse } from '@app/api';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest, type Page, requireParam } from '@/lib/api-client';

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

const project = (uuid: string, operation: string) => requireParam('projectUuid', uuid, operation);

export const teamApi = {
  members: (projectUuid: string) =>
    apiRequest<Page<Member>>(`projects/${project(projectUuid, 'projectsMembersList')}/members/`, {
      query: { page_size: TEAM_PAGE },
    }),
  changeRole: (projectUuid: string, userId: number, role: AssignableRole) =>
    apiRequest<Member>(
      `projects/${project(projectUuid, 'projectsMembersPartialUpdate')}/members/${requireParam('userId', userId, 'projectsMembersPartialUpdate')}/`,
      { method: 'PATCH', body: { role } },
    ),
  /** Removes a member; on one's own id, leaves the project. */
  removeMember: (projectUuid: string, userId: number) =>
    apiRequest<void>(
      `projects/${project(projectUuid, 'projectsMembersDestroy')}/members/${requireParam('userId', userId, 'projectsMembersDestroy')}/`,
      { method: 'DELETE' },
    ),
  transferOwnership: (projectUuid: string, userId: number) =>
    apiRequest<unknown>(
      `projects/${project(projectUuid, 'projectsMembersTransferOwnership')}/members/transfer-ownership/`,
      {
        method: 'POST',
        body: { user_id: requireParam('userId', userId, 'projectsMembersTransferOwnership') },
      },
    ),
  invitations: (projectUuid: string) =>
    apiRequest<Page<Invitation>>(`projects/${project(projectUuid, 'projectsInvitationsList')}/invitations/`, {
      query: { page_size: TEAM_PAGE, ordering: '-created_at' },
    }),
  invite: (projectUuid: string, body: CreateInvitationBody) =>
    apiRequest<Invitation>(`projects/${project(projectUuid, 'projectsInvitationsCreate')}/invitations/`, {
      method: 'POST',
      body: requireParam('body', body, 'projectsInvitationsCreate'),
    }),
  resend: (projectUuid: string, invitationUuid: string) =>
    apiRequest<Invitation>(
      `projects/${project(projectUuid, 'projectsInvitationsResend')}/invitations/${requireParam('invitationUuid', invitationUuid, 'projectsInvitationsResend')}/resend/`,
      { method: 'POST' },
    ),
  revoke: (projectUuid: string, invitationUuid: string) =>
    apiRequest<Invitation>(
      `projects/${project(projectUuid, 'projectsInvitationsPartialUpdate')}/invitations/${requireParam('invitationUuid', invitationUuid, 'projectsInvitationsPartialUpdate')}/`,
      { method: 'PATCH', body: { status: 'revoked' } },
    ),
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
