import { useQuery } from '@tanstack/react-query';
import { Crown, LogOut, UserMinus } from 'lucide-react';
import { useState } from 'react';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import {
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
} from '@/components/ui/dropdown-menu';
import { RowActionsMenu } from '@/components/ui/row-actions-menu';
import { Skeleton } from '@/components/ui/skeleton';
import type { ProjectPermissions } from '@/features/projects/permissions';
import { formatDate } from '@/lib/format';
import { initials } from '@/lib/utils';
import { ASSIGNABLE_ROLES, type AssignableRole, type Member, ROLE_HINTS, teamQueries } from '../api';
import { useChangeRole, useRemoveMember, useTransferOwnership } from '../hooks/use-team-mutations';

const nameOf = (member: Member) => member.user.display_name || member.user.email;

/** What the signed-in user may do to this member: the server's rules, so no menu offers a refusal. */
export function memberActions(member: Member, me: number | undefined, permissions: ProjectPermissions) {
  const self = member.user.id === me;
  const manageable =
    permissions.canManageTeam && !self && member.role !== 'owner' && (member.role !== 'admin' || permissions.isOwner);
  return {
    changeRole: manageable,
    remove: manageable,
    transfer: permissions.canTransferOwnership && member.role === 'admin',
    leave: self && permissions.canLeave,
  };
}

type Pending = { kind: 'remove' | 'transfer' | 'leave'; member: Member } | null;

export function MembersList({
  projectUuid,
  me,
  permissions,
  onLeave,
  leaving,
}: {
  projectUuid: string;
  me: number | undefined;
  permissions: ProjectPermissions;
  onLeave: () => void;
  leaving: boolean;
}) {
  const { data, isLoading, isError } = useQuery(teamQueries.members(projectUuid));
  const changeRole = useChangeRole(projectUuid);
  const remove = useRemoveMember(projectUuid);
  const transfer = useTransferOwnership(projectUuid);
  const [pending, setPending] = useState<Pending>(null);
  const members = data?.results ?? [];

  if (isLoading) {
    return (
      <div className="grid grid-cols-1 gap-3">
        <Skeleton className="h-10" />
        <Skeleton className="h-10" />
      </div>
    );
  }
  if (isError) return <p className="text-muted-foreground text-sm">The member list could not be loaded.</p>;

  const confirm = {
    remove: {
      title: `Remove ${pending ? nameOf(pending.member) : ''} from the project?`,
      description: 'They lose access at once. Their videos, analyses and edits stay in the project, credited to them.',
      label: 'Remove member',
      busy: remove.isPending,
      run: (member: Member) =>
        remove.mutate({ userId: member.user.id, name: nameOf(member) }, { onSuccess: () => setPending(null) }),
    },
    transfer: {
      title: `Make ${pending ? nameOf(pending.member) : ''} the owner?`,
      description:
        'They will own the project: delete it, manage billing and the admins. You stay on as an admin and cannot undo this yourself.',
      label: 'Transfer ownership',
      busy: transfer.isPending,
      run: (member: Member) =>
        transfer.mutate({ userId: member.user.id, name: nameOf(member) }, { onSuccess: () => setPending(null) }),
    },
    leave: {
      title: 'Leave this project?',
      description: 'You lose access at once; your work stays in the project. An admin can invite you again.',
      label: 'Leave project',
      busy: leaving,
      run: () => onLeave(),
    },
  } as const;
  const open = pending ? confirm[pending.kind] : null;

  return (
    <>
      <ul className="divide-y" aria-label="Project members">
        {members.map((member) => {
          const actions = memberActions(member, me, permissions);
          const name = nameOf(member);
          return (
            <li
              key={String(member.user.id)}
              className="flex items-center gap-3 py-3 first:pt-0 last:pb-0"
              data-testid="member-row"
            >
              <Avatar className="size-9">
                {member.user.avatar_url ? <AvatarImage src={member.user.avatar_url} alt="" /> : null}
                <AvatarFallback>{initials(name)}</AvatarFallback>
              </Avatar>
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium text-sm">
                  {name}
                  {member.user.id === me ? <span className="font-normal text-muted-foreground"> (you)</span> : null}
                </p>
                <p className="truncate text-muted-foreground text-xs">
                  {member.user.email} · joined {formatDate(member.joined_at)}
                </p>
              </div>
              <Badge variant={member.role === 'owner' ? 'default' : 'secondary'} className="capitalize">
                {member.role === 'owner' ? <Crown aria-hidden="true" /> : null}
                {member.role}
              </Badge>
              {actions.changeRole || actions.remove || actions.transfer || actions.leave ? (
                <RowActionsMenu name={name} contentClassName="w-64">
                  {actions.changeRole ? (
                    <>
                      <DropdownMenuLabel className="text-muted-foreground text-xs">Role</DropdownMenuLabel>
                      <DropdownMenuRadioGroup
                        value={member.role}
                        onValueChange={(role) =>
                          changeRole.mutate({ userId: member.user.id, role: role as AssignableRole, name })
                        }
                      >
                        {ASSIGNABLE_ROLES.map((role) => (
                          <DropdownMenuRadioItem key={role} value={role}>
                            <span className="grid">
                              <span className="capitalize">{role}</span>
                              <span className="text-muted-foreground text-xs">{ROLE_HINTS[role]}</span>
                            </span>
                          </DropdownMenuRadioItem>
                        ))}
                      </DropdownMenuRadioGroup>
                    </>
                  ) : null}
                  {actions.transfer ? (
                    <>
                      {actions.changeRole ? <DropdownMenuSeparator /> : null}
                      <DropdownMenuItem onSelect={() => setPending({ kind: 'transfer', member })}>
                        <Crown aria-hidden="true" />
                        Make owner
                      </DropdownMenuItem>
                    </>
                  ) : null}
                  {actions.remove ? (
                    <>
                      <DropdownMenuSeparator />
                      <DropdownMenuItem variant="destructive" onSelect={() => setPending({ kind: 'remove', member })}>
                        <UserMinus aria-hidden="true" />
                        Remove from project
                      </DropdownMenuItem>
                    </>
                  ) : null}
                  {actions.leave ? (
                    <DropdownMenuItem variant="destructive" onSelect={() => setPending({ kind: 'leave', member })}>
                      <LogOut aria-hidden="true" />
                      Leave project
                    </DropdownMenuItem>
                  ) : null}
                </RowActionsMenu>
              ) : (
                <span className="inline-block size-8" aria-hidden="true" />
              )}
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={open !== null}
        onOpenChange={(next) => (next ? null : setPending(null))}
        title={open?.title ?? ''}
        description={open?.description ?? ''}
        confirmLabel={open?.label ?? ''}
        pending={open?.busy}
        onConfirm={() => pending && open?.run(pending.member)}
      />
    </>
  );
}
