import type { ApiResponse } from '@app/api';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client-typed';
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
    queryFn: (): Promise<InvitationLanding> =>
      api.GET('/api/projects/{project_uuid}/invitations/{invitation_uuid}/landing/', {
        params: {
          // enabled only with an invitation; a missing one fails with the spec's "Required parameter".
          path: {
            project_uuid: invitation?.projectUuid as string,
            invitation_uuid: invitation?.invitationUuid as string,
          },
        },
      }),
    enabled: invitation !== null,
    retry: false,
  });
  return query.data ?? null;
}
