import { Ban, CircleAlert, CircleCheck, Clock, Loader2, Square } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { formatDate } from '@/lib/format';
import { type AnalysisRun, type AnalysisStatus, isRunActive } from '../api';
import { STATUS_LABELS } from '../labels';

const VARIANTS = {
  queued: 'secondary',
  running: 'secondary',
  succeeded: 'success',
  failed: 'destructive',
  revoked: 'warning',
} as const satisfies Record<AnalysisStatus, string>;

const ICONS = { queued: Clock, running: Loader2, succeeded: CircleCheck, failed: CircleAlert, revoked: Ban };

/**
 * Progress as a whole percentage. Rounded down, so 100% never shows before the run is done (the server reports
 * 0–1 and holds 0.99 until the run is merged); a succeeded run is 100%.
 */
export function runPercent(run: Pick<AnalysisRun, 'status' | 'progress'>): number {
  if (run.status === 'succeeded') return 100;
  return Math.max(0, Math.min(100, Math.floor(run.progress * 100)));
}

export function RunStatusBadge({ status }: { status: AnalysisStatus }) {
  const Icon = ICONS[status];
  return (
    <Badge variant={VARIANTS[status]} data-status={status}>
      <Icon className={status === 'running' ? 'animate-spin' : undefined} aria-hidden="true" />
      {STATUS_LABELS[status]}
    </Badge>
  );
}

type PanelRun = Pick<AnalysisRun, 'status' | 'progress' | 'error' | 'created_at' | 'created_by' | 'duration_s'>;

/**
 * A run's status, one component for every page. `compact` (a table cell: Analysis Logs, Home): the badge, the
 * progress of a running run, the reason of a failed one (whole text on hover or focus). `panel` (the open run in the
 * Movement Detector): the badge and percentage, who started it and how long it took, a progress bar, the failure in
 * an alert, and a Stop button while it works.
 */
export function RunStatus(
  props:
    | { run: Pick<AnalysisRun, 'status' | 'progress' | 'error'>; variant?: 'compact' }
    | { run: PanelRun; variant: 'panel'; onStop?: (() => void) | undefined; stopping?: boolean },
) {
  if (props.variant === 'panel') return <RunStatusPanel {...props} />;
  const { run } = props;
  const percent = runPercent(run);
  return (
    <div className="flex flex-col gap-1 sm:min-w-28" data-testid="run-status" data-status={run.status}>
      <RunStatusBadge status={run.status} />
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

function RunStatusPanel({
  run,
  onStop,
  stopping,
}: {
  run: PanelRun;
  onStop?: (() => void) | undefined;
  stopping?: boolean;
}) {
  const percent = runPercent(run);
  return (
    <div className="grid grid-cols-1 gap-2" data-testid="run-status" data-status={run.status}>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <RunStatusBadge status={run.status} />
        <span className="font-mono tabular-nums" data-testid="run-progress">
          {percent}%
        </span>
        <span className="text-muted-foreground text-xs">
          started {formatDate(run.created_at)}
          {run.created_by ? ` by ${run.created_by.display_name}` : ''}
          {run.duration_s != null ? ` · took ${run.duration_s.toFixed(1)} s` : ''}
        </span>
        {isRunActive(run) && onStop ? (
          <Button variant="outline" size="sm" className="ml-auto" onClick={onStop} disabled={stopping}>
            <Square aria-hidden="true" />
            Stop
          </Button>
        ) : null}
      </div>
      <Progress value={percent} aria-label="Analysis progress" />
      {run.status === 'failed' ? (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertTitle>The analysis failed</AlertTitle>
          <AlertDescription data-testid="run-error">{run.error || 'No reason was given.'}</AlertDescription>
        </Alert>
      ) : null}
      {run.status === 'revoked' ? (
        <p className="text-muted-foreground text-sm">This run was stopped before it finished.</p>
      ) : null}
    </div>
  );
}
