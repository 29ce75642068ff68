import { useQuery } from '@tanstack/react-query';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useSession } from '@/features/auth/hooks/use-session';
import { cn } from '@/lib/utils';
import { checklistQueries, checklistSteps, dismissChecklist, isChecklistDismissed } from '../checklist';

/**
 * The project's first steps — add subjects → upload → detect → review → export — each ticked from the project's
 * data and linking to its screen. Once all are done it can be dismissed (remembered in this browser).
 */
export function GettingStarted({ projectUuid, className }: { projectUuid: string; className?: string }) {
  const { user } = useSession();
  const userId = user?.id ?? 0;
  const [dismissed, setDismissed] = useState(() => isChecklistDismissed(userId, projectUuid));
  const { data, isLoading } = useQuery({ ...checklistQueries.project(projectUuid), enabled: !dismissed });
  if (dismissed) return null;
  if (isLoading || !data) return isLoading ? <Skeleton className={cn('h-40', className)} /> : null;
  const steps = checklistSteps(data);
  const doneCount = steps.filter((step) => step.done).length;
  const complete = doneCount === steps.length;
  const base = `/projects/${projectUuid}`;

  return (
    <Card className={className} data-testid="getting-started">
      <CardHeader>
        <CardTitle>Getting started</CardTitle>
        <CardDescription>
          {complete
            ? 'All done: this project has gone from recordings to exported numbers.'
            : `${doneCount} of ${steps.length} steps done — from raw recordings to scored, exported events.`}
        </CardDescription>
        {complete ? (
          <CardAction>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                dismissChecklist(userId, projectUuid);
                setDismissed(true);
              }}
            >
              <X aria-hidden="true" />
              Dismiss
            </Button>
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent>
        <ol className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5">
          {steps.map((step, index) => (
            <li key={step.key} data-testid={`checklist-${step.key}`} data-done={step.done}>
              <Link
                to={`${base}/${step.path}`}
                className="flex h-full gap-3 rounded-lg border p-3 transition-colors hover:border-primary/40 hover:bg-muted/40 focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
              >
                <span
                  className={cn(
                    'flex size-6 shrink-0 items-center justify-center rounded-full font-medium text-xs',
                    step.done ? 'bg-primary text-primary-foreground' : 'border text-muted-foreground',
                  )}
                  aria-hidden="true"
                >
                  {step.done ? <Check className="size-3.5" /> : index + 1}
                </span>
                <span className="min-w-0 space-y-0.5">
                  <span className="block font-medium text-sm">
                    {step.title}
                    <span className="sr-only">{step.done ? ' (done)' : ' (to do)'}</span>
                  </span>
                  <span className="block text-muted-foreground text-xs">{step.text}</span>
                </span>
              </Link>
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
