import { useQuery } from '@tanstack/react-query';
import { Loader2, RotateCcw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useActiveProject } from '@/features/projects/hooks/active-project-context';
import { formatDate } from '@/lib/format';
import { type DeletedProject, trashQueries } from '../api';
import { useTrashDays } from '../hooks/use-trash-days';
import { useRestoreProject } from '../hooks/use-trash-mutations';

/** The signed-in owner's deleted projects, each restorable until it is purged; nothing when there are none. */
export function DeletedProjects({ className }: { className?: string }) {
  const { data } = useQuery(trashQueries.deletedProjects());
  const days = useTrashDays();
  const restore = useRestoreProject();
  const { setActiveProjectUuid } = useActiveProject();
  // Only what the server marks as in the trash.
  const projects = (data?.results ?? []).filter((project) => project.trash);
  if (projects.length === 0) return null;
  const restoring = restore.isPending ? restore.variables?.project_uuid : null;

  const onRestore = (project: DeletedProject) =>
    restore.mutate(project, { onSuccess: () => setActiveProjectUuid(project.project_uuid) });

  return (
    <Card className={className} data-testid="deleted-projects">
      <CardHeader>
        <CardTitle>Deleted projects</CardTitle>
        <CardDescription>
          Projects you deleted wait here for {days} days with everything in them; then they are purged for good.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y">
          {projects.map((project) => (
            <li
              key={project.project_uuid}
              className="flex flex-col gap-2 py-2.5 sm:flex-row sm:items-center"
              data-testid="deleted-project"
            >
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium text-sm">{project.name}</p>
                <p className="text-muted-foreground text-xs">
                  Deleted {formatDate(project.trash?.deleted_at)} · purged on {formatDate(project.trash?.purge_at)}
                </p>
              </div>
              <Button
                variant="outline"
                size="sm"
                onClick={() => onRestore(project)}
                disabled={restoring === project.project_uuid}
                aria-label={`Restore ${project.name}`}
              >
                {restoring === project.project_uuid ? (
                  <Loader2 className="animate-spin" aria-hidden="true" />
                ) : (
                  <RotateCcw aria-hidden="true" />
                )}
                Restore
              </Button>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
