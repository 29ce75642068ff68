import { Badge } from '@/components/ui/badge';
import type { ProjectStatus } from '../api';
import { ProjectStatusIcon } from './project-logo';

export function ProjectStatusBadge({ status }: { status: ProjectStatus }) {
  const variant = status === 'active' ? 'success' : status === 'draft' ? 'warning' : 'secondary';
  return (
    <Badge variant={variant} className="capitalize">
      <ProjectStatusIcon status={status} className="size-3 text-current" />
      {status}
    </Badge>
  );
}
