import { useQuery } from '@tanstack/react-query';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate } from '@/lib/format';
import { initials } from '@/lib/utils';
import { projectQueries } from '../api';

export function MembersCard({ projectUuid }: { projectUuid: string }) {
  const { data, isLoading, isError } = useQuery(projectQueries.members(projectUuid));
  const members = data?.results ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Members</CardTitle>
        <CardDescription>
          {data
            ? `${data.count} ${data.count === 1 ? 'person has' : 'people have'} access to this project.`
            : 'Who has access.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="grid grid-cols-1 gap-3">
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
          </div>
        ) : isError ? (
          <p className="text-muted-foreground text-sm">The member list could not be loaded.</p>
        ) : (
          <ul className="divide-y" aria-label="Project members">
            {members.map((member) => (
              <li key={String(member.user.id)} className="flex items-center gap-3 py-3 first:pt-0 last:pb-0">
                <Avatar className="size-9">
                  {member.user.avatar_url ? <AvatarImage src={member.user.avatar_url} alt="" /> : null}
                  <AvatarFallback>{initials(member.user.display_name || member.user.email)}</AvatarFallback>
                </Avatar>
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium text-sm">{member.user.display_name || member.user.email}</p>
                  <p className="truncate text-muted-foreground text-xs">
                    {member.user.email} · joined {formatDate(member.joined_at)}
                  </p>
                </div>
                <Badge variant={member.role === 'owner' ? 'default' : 'secondary'} className="capitalize">
                  {member.role}
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
