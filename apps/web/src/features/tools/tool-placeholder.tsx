import type { LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { useActiveProject } from '@/features/projects/hooks/active-project-context';

/** A project-scoped tool whose workspace arrives in a later release; it keeps the project context. */
export function ToolPlaceholder({
  title,
  description,
  icon: Icon,
  points,
  isNew = false,
}: {
  title: string;
  description: string;
  icon: LucideIcon;
  points: string[];
  isNew?: boolean;
}) {
  const { project } = useActiveProject();
  return (
    <PageContainer>
      <PageHeader
        title={
          <span className="flex items-center gap-2">
            {title}
            {isNew ? <Badge>New</Badge> : null}
          </span>
        }
        description={project ? `${description} Project: ${project.name}.` : description}
      />
      <Card>
        <CardContent className="flex flex-col items-center gap-4 py-10 text-center">
          <span className="flex size-12 items-center justify-center rounded-2xl bg-primary/10 text-primary">
            <Icon className="size-6" aria-hidden="true" />
          </span>
          <div className="space-y-1">
            <h2 className="font-medium">Coming soon to this project</h2>
            <p className="mx-auto max-w-md text-muted-foreground text-sm">
              This tool is being prepared. In the meantime, make sure your subjects and videos are uploaded.
            </p>
          </div>
          <ul className="grid max-w-md gap-1 text-left text-muted-foreground text-sm">
            {points.map((point) => (
              <li key={point} className="flex gap-2">
                <span aria-hidden="true" className="text-primary">
                  •
                </span>
                {point}
              </li>
            ))}
          </ul>
          {project ? (
            <Button asChild variant="outline">
              <Link to={`/projects/${project.project_uuid}/subjects`}>Go to subjects</Link>
            </Button>
          ) : null}
        </CardContent>
      </Card>
    </PageContainer>
  );
}
