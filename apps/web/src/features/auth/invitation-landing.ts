import type { ApiResponse } from '@app/api';
import { useQuery } from '@tanstack/react-query';
import { apiRequest, requireParam } from '@/lib/api-client';
import type { FromState } from '@/routes/guards';

/** What an invitation link tells a signed-out visitor: the project, who invited them, the e-mail invited. */
export type InvitationLanding = ApiResponse<
  '/api/projects/{project_uuid}/invitations/{invitation_uuid}/landing/',
  'get'
>;

const ACCEPT_PATH = /^\/auth\/accept-invite\/([^/]+)\/([^/]+)\/?$/;

/** The invitation a sign-in was asked for: the accept page the visitor was sent to /auth/login from. */
export function invitationFromState(state: unknown): { projectUuid: string; invitationUuid: string } | null {
  const match = ACCEPT_PATH.exec((state as FromState | null)?.from?.pathname ?? '');
  return match ? { projectUuid: match[1]!, invitationUuid: match[2]! } : null;
}

/**
 * The landing of the invitation in the router state, if any. A link the server does not know (wrong, expired,
 * revoked) gives nothing, and the page is the plain sign-in.
 */
export function useInvitationLanding(state: unknown): InvitationLanding | null {
  const invitation = invitationFromState(state);
  const query = useQuery({
    queryKey: ['invitation-landing', invitation?.projectUuid, invitation?.invitationUuid],
    queryFn: () =>
      apiRequest<InvitationLanding>(
        `projects/${requireParam('projectUuid', invitation?.projectUuid, 'invitationLanding')}/invitations/${requireParam(
          'invitationUuid',
          invitation?.invitationUuid,
          'invitationLanding',
        )}/landing/`,
      ),
    enabled: invitation !== null,
    retry: false,
  });
  return query.data ?? null;
}
