import { FileClock, Lock } from 'lucide-react';
import { cn } from '@/lib/utils';
import type { Project } from '../api';

/** A project's logo (or its initial); locked projects are greyed out. */
export function ProjectLogo({
  project,
  className,
}: {
  project: Pick<Project, 'name' | 'logo_url' | 'status'>;
  className?: string;
}) {
  const locked = project.status === 'locked';
  return (
    <div
      data-locked={locked || undefined}
      className={cn(
        'flex size-8 shrink-0 items-center justify-center overflow-hidden rounded-lg bg-primary font-semibold text-primary-foreground text-sm',
        locked && 'opacity-60 grayscale',
        className,
      )}
    >
      {project.logo_url ? (
        <img src={project.logo_url} alt="" className="size-full bg-background object-cover" />
      ) : (
        <span aria-hidden="true">{project.name.trim().charAt(0).toUpperCase() || 'P'}</span>
      )}
    </div>
  );
}

/** The indicator icon of a locked or draft project (nothing for active ones). */
export function ProjectStatusIcon({ status, className }: { status: Project['status']; className?: string }) {
  if (status === 'locked')
    return <Lock className={cn('size-3.5 text-muted-foreground', className)} aria-label="Locked" role="img" />;
  if (status === 'draft')
    return (
      <FileClock className={cn('size-3.5 text-amber-600 dark:text-warning', className)} aria-label="Draft" role="img" />
    );
  return null;
}
