import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { projectKeys } from '@/features/projects/api';
import { type AssignableRole, type CreateInvitationBody, teamApi, teamKeys } from '../api';

/** Every team change refreshes the members, the invitations and the project (its counts and the caller's role). */
function useTeamMutation<TVariables, TResult>(
  projectUuid: string,
  mutationFn: (variables: TVariables) => Promise<TResult>,
  success: (variables: TVariables) => string,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async (_result, variables) => {
      toast.success(success(variables));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: teamKeys.members(projectUuid) }),
        queryClient.invalidateQueries({ queryKey: teamKeys.invitations(projectUuid) }),
        queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectUuid) }),
      ]);
    },
  });
}

export function useInvite(projectUuid: string) {
  return useTeamMutation(
    projectUuid,
    (body: CreateInvitationBody) => teamApi.invite(projectUuid, body),
    (body) => `Invitation sent to ${body.email}`,
  );
}

export function useResendInvitation(projectUuid: string) {
  return useTeamMutation(
    projectUuid,
    (invitation: { invitation_uuid: string; email: string }) => teamApi.resend(projectUuid, invitation.invitation_uuid),
    (invitation) => `Invitation sent again to ${invitation.email}`,
  );
}

export function useRevokeInvitation(projectUuid: string) {
  return useTeamMutation(
    projectUuid,
    (invitation: { invitation_uuid: string; email: string }) => teamApi.revoke(projectUuid, invitation.invitation_uuid),
    (invitation) => `Invitation to ${invitation.email} revoked`,
  );
}

export function useChangeRole(projectUuid: string) {
  return useTeamMutation(
    projectUuid,
    ({ userId, role }: { userId: number; role: AssignableRole; name: string }) =>
      teamApi.changeRole(projectUuid, userId, role),
    ({ name, role }) => `${name} is now ${role === 'admin' ? 'an' : 'a'} ${role}`,
  );
}

export function useRemoveMember(projectUuid: string) {
  return useTeamMutation(
    projectUuid,
    ({ userId }: { userId: number; name: string }) => teamApi.removeMember(projectUuid, userId),
    ({ name }) => `${name} was removed from the project`,
  );
}

export function useTransferOwnership(projectUuid: string) {
  return useTeamMutation(
    projectUuid,
    ({ userId }: { userId: number; name: string }) => teamApi.transferOwnership(projectUuid, userId),
    ({ name }) => `${name} now owns the project; you are an admin`,
  );
}

/** Leaving: the project drops out of the caller's list; the caller goes home. */
export function useLeaveProject(projectUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => teamApi.removeMember(projectUuid, userId),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: projectKeys.detail(projectUuid) });
      queryClient.removeQueries({ queryKey: teamKeys.members(projectUuid) });
      void queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
    },
  });
}
