import { Ban, CircleAlert, CircleCheck, Clock, Loader2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Progress } from '@/components/ui/progress';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import type { AnalysisRun, AnalysisStatus } from '@/features/analysis/api';
import { STATUS_LABELS } from '../run-display';

const VARIANTS = {
  queued: 'secondary',
  running: 'secondary',
  succeeded: 'success',
  failed: 'destructive',
  revoked: 'warning',
} as const satisfies Record<AnalysisStatus, string>;

const ICONS = { queued: Clock, running: Loader2, succeeded: CircleCheck, failed: CircleAlert, revoked: Ban };

/** Progress as a whole percentage (the server reports 0–1 and holds 0.99 until the run is merged). */
export const progressPercent = (progress: number) => Math.max(0, Math.min(100, Math.floor(progress * 100)));

/** A run's status: a badge, the progress of a running run, the reason of a failed one (whole text on hover). */
export function RunStatus({ run }: { run: Pick<AnalysisRun, 'status' | 'progress' | 'error'> }) {
  const Icon = ICONS[run.status];
  const percent = progressPercent(run.progress);
  return (
    <div className="flex flex-col gap-1 sm:min-w-28" data-testid="run-status" data-status={run.status}>
      <Badge variant={VARIANTS[run.status]}>
        <Icon className={run.status === 'running' ? 'animate-spin' : undefined} aria-hidden="true" />
        {STATUS_LABELS[run.status]}
      </Badge>
      {run.status === 'running' ? (
        <div className="flex items-center gap-2">
          <Progress value={percent} aria-label="Run progress" className="h-1.5 w-14 sm:w-20" />
          <span className="text-muted-foreground text-xs tabular-nums" data-testid="run-progress">
            {percent}%
          </span>
        </div>
      ) : null}
      {run.status === 'failed' && run.error ? (
        <Tooltip>
          <TooltipTrigger asChild>
            {/* Focusable, so keyboard users get the whole reason too. */}
            <p
              // biome-ignore lint/a11y/noNoninteractiveTabindex: the tooltip with the full reason opens on focus.
              tabIndex={0}
              className="max-w-48 truncate text-destructive text-xs"
              data-testid="run-error"
            >
              {run.error}
            </p>
          </TooltipTrigger>
          <TooltipContent className="max-w-sm">{run.error}</TooltipContent>
        </Tooltip>
      ) : null}
    </div>
  );
}
