import { useQuery } from '@tanstack/react-query';
import { MailX, RotateCw } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate } from '@/lib/format';
import { type Invitation, openInvitations, teamQueries } from '../api';
import { useResendInvitation, useRevokeInvitation } from '../hooks/use-team-mutations';

/** Pending and expired invitations, with who sent them and until when they hold; resend or revoke each. */
export function InvitationsList({ projectUuid }: { projectUuid: string }) {
  const { data, isLoading, isError } = useQuery(teamQueries.invitations(projectUuid));
  const resend = useResendInvitation(projectUuid);
  const revoke = useRevokeInvitation(projectUuid);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  const invitations = openInvitations(data?.results ?? []);

  if (isLoading) return <Skeleton className="h-10" />;
  if (isError) return <p className="text-muted-foreground text-sm">The invitations could not be loaded.</p>;
  if (invitations.length === 0) return null;

  return (
    <section aria-labelledby="pending-invitations" className="grid grid-cols-1 gap-2">
      <h3 id="pending-invitations" className="font-medium text-sm">
        Pending invitations
      </h3>
      <ul className="divide-y rounded-lg border" aria-label="Pending invitations">
        {invitations.map((invitation) => (
          <li
            key={invitation.invitation_uuid}
            className="flex flex-col gap-2 px-3 py-2.5 sm:flex-row sm:items-center"
            data-testid="invitation-row"
          >
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-2 text-sm">
                <span className="truncate font-medium">{invitation.email}</span>
                <Badge variant="secondary" className="capitalize">
                  {invitation.role}
                </Badge>
                <Badge variant={invitation.status === 'expired' ? 'warning' : 'outline'} className="capitalize">
                  {invitation.status}
                </Badge>
              </p>
              <p className="truncate text-muted-foreground text-xs">
                Invited by {invitation.invited_by?.display_name ?? 'a former member'} ·{' '}
                {invitation.status === 'expired' ? 'expired' : 'expires'} {formatDate(invitation.expires_at)}
              </p>
            </div>
            <div className="flex shrink-0 gap-2">
              <Button
                variant="outline"
                size="sm"
                disabled={resend.isPending}
                onClick={() => resend.mutate(invitation)}
                aria-label={`Resend the invitation to ${invitation.email}`}
              >
                <RotateCw aria-hidden="true" />
                Resend
              </Button>
              {invitation.status === 'pending' ? (
                <Button
                  variant="outline"
                  size="sm"
                  className="text-destructive hover:text-destructive"
                  onClick={() => setRevoking(invitation)}
                  aria-label={`Revoke the invitation to ${invitation.email}`}
                >
                  <MailX aria-hidden="true" />
                  Revoke
                </Button>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => (open ? null : setRevoking(null))}
        title={`Revoke the invitation to ${revoking?.email ?? ''}?`}
        description="Its link stops working. You can invite the same address again later."
        confirmLabel="Revoke invitation"
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking, { onSuccess: () => setRevoking(null) })}
      />
    </section>
  );
}
