import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Separator } from '@/components/ui/separator';
import { useSession } from '@/features/auth/hooks/use-session';
import { useActiveProject } from '@/features/projects/hooks/active-project-context';
import type { ProjectPermissions } from '@/features/projects/permissions';
import { teamQueries } from '../api';
import { useLeaveProject } from '../hooks/use-team-mutations';
import { InvitationsList } from './invitations-list';
import { InviteForm } from './invite-form';
import { MembersList } from './members-list';

/**
 * The project's team: everyone sees the members; owners and admins invite, follow pending invitations and manage
 * roles; the owner hands the project over; anyone but the owner can leave.
 */
export function TeamCard({ projectUuid, permissions }: { projectUuid: string; permissions: ProjectPermissions }) {
  const { user } = useSession();
  const navigate = useNavigate();
  const { forgetProject } = useActiveProject();
  const { data } = useQuery(teamQueries.members(projectUuid));
  const leave = useLeaveProject(projectUuid);

  const onLeave = () => {
    if (!user) return;
    leave.mutate(user.id, {
      onSuccess: () => {
        forgetProject(projectUuid);
        toast.success('You left the project');
        navigate('/', { replace: true });
      },
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Team</CardTitle>
        <CardDescription>
          {data
            ? `${data.count} ${data.count === 1 ? 'person has' : 'people have'} access to this project.`
            : 'Who has access.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-5">
        {permissions.canManageTeam ? (
          <>
            <InviteForm projectUuid={projectUuid} />
            <InvitationsList projectUuid={projectUuid} />
            <Separator />
          </>
        ) : null}
        <MembersList
          projectUuid={projectUuid}
          me={user?.id}
          permissions={permissions}
          onLeave={onLeave}
          leaving={leave.isPending}
        />
      </CardContent>
    </Card>
  );
}
