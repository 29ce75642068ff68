import { CircleAlert, CircleCheck, CircleSlash, Clock, Loader2, Square } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { type AnalysisRun, type AnalysisStatus, isRunActive } from '@/features/analysis/api';
import { formatDate } from '@/lib/format';

const LABELS: Record<AnalysisStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  revoked: 'Stopped',
};

export function RunStatusBadge({ status }: { status: AnalysisStatus }) {
  const variant =
    status === 'succeeded'
      ? 'success'
      : status === 'failed'
        ? 'destructive'
        : status === 'revoked'
          ? 'warning'
          : 'secondary';
  const Icon =
    status === 'succeeded'
      ? CircleCheck
      : status === 'failed'
        ? CircleAlert
        : status === 'revoked'
          ? CircleSlash
          : status === 'queued'
            ? Clock
            : Loader2;
  return (
    <Badge variant={variant} data-status={status}>
      <Icon className={status === 'running' ? 'animate-spin' : undefined} aria-hidden="true" />
      {LABELS[status]}
    </Badge>
  );
}

/** A run's live state: status, a progress bar with its percentage, the failure reason; a stop button while it works. */
export function RunStatus({
  run,
  onStop,
  stopping,
}: {
  run: AnalysisRun;
  onStop?: (() => void) | undefined;
  stopping?: boolean;
}) {
  const percent = Math.round((run.status === 'succeeded' ? 1 : run.progress) * 100);
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
