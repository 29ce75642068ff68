import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CircleX, Loader2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AuthLayout } from '@/components/layout/auth-layout';
import { Button } from '@/components/ui/button';
import { projectKeys, projectsApi } from '@/features/projects/api';
import { useActiveProject } from '@/features/projects/hooks/active-project-context';
import { errorMessage } from '@/lib/errors';
import { AuthCard } from './auth-card';

/** Accepts the invitation, then opens its project. */
export function AcceptInvite() {
  const { projectUuid, invitationUuid } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { setActiveProjectUuid } = useActiveProject();
  const accept = useMutation({
    mutationFn: () => projectsApi.acceptInvitation(projectUuid!, invitationUuid!),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: projectKeys.all });
      await queryClient.refetchQueries({ queryKey: projectKeys.lists() });
      setActiveProjectUuid(projectUuid!);
      navigate(`/projects/${projectUuid}`, { replace: true });
    },
  });
  const sent = useRef(false);
  const { mutate } = accept;
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    mutate();
  }, [mutate]);

  return (
    <AuthLayout>
      {accept.isError ? (
        <AuthCard title="Invitation not accepted" description={errorMessage(accept.error)}>
          <div className="grid grid-cols-1 gap-4">
            <CircleX className="mx-auto size-12 text-destructive" aria-hidden="true" />
            <Button asChild variant="outline">
              <Link to="/">Go to the dashboard</Link>
            </Button>
          </div>
        </AuthCard>
      ) : (
        <AuthCard title="Joining the project" description="Accepting your invitation…">
          <div role="status" className="flex items-center justify-center gap-2 text-muted-foreground text-sm">
            <Loader2 className="size-5 animate-spin" aria-hidden="true" />
            <span>Loading...</span>
          </div>
        </AuthCard>
      )}
    </AuthLayout>
  );
}
