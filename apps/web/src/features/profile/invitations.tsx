import type { ApiResponse } from '@app/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { MailPlus } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { api } from '@/lib/api-client-typed';

export type PendingInvitation = ApiResponse<'/api/users/profile/pending-invitations/', 'get'>['results'][number];

export const pendingInvitationsQuery = queryOptions({
  queryKey: ['invitations', 'pending'] as const,
  queryFn: () => api.GET('/api/users/profile/pending-invitations/'),
});

/** Invitations waiting for the signed-in user; each opens the accept-invite route. */
export function PendingInvitations() {
  const { data } = useQuery(pendingInvitationsQuery);
  const invitations = data?.results ?? [];
  if (invitations.length === 0) return null;
  return (
    <Card className="mb-6 border-primary/30 bg-primary/[0.03]">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MailPlus className="size-4 text-primary" aria-hidden="true" />
          Invitations
        </CardTitle>
        <CardDescription>
          You have been invited to join {invitations.length === 1 ? 'a project' : 'these projects'}.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y">
          {invitations.map((invitation) => (
            <li key={invitation.invitation_uuid} className="flex items-center gap-3 py-2.5 first:pt-0 last:pb-0">
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium text-sm">{invitation.project_name}</p>
                {invitation.invited_by ? (
                  <p className="truncate text-muted-foreground text-xs">Invited by {invitation.invited_by}</p>
                ) : null}
              </div>
              <Badge variant="secondary" className="capitalize">
                {invitation.role}
              </Badge>
              <Button asChild size="sm">
                <Link to={`/auth/accept-invite/${invitation.project_uuid}/${invitation.invitation_uuid}`}>Accept</Link>
              </Button>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
