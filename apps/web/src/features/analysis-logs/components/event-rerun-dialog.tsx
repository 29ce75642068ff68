import { Loader2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import type { AnalysisRun } from '@/features/analysis/api';
import { SaveAsProtocolButton } from '@/features/protocols/components/save-as-protocol';
import { type FieldErrors, serverFieldErrors } from '@/lib/validation';
import { useStartRun } from '../hooks/use-run-mutations';
import { eventDetectionSource, freezingParametersOf } from '../run-actions';
import { EventParameterFields, eventFormOf, readEventForm, withoutParametersPrefix } from './event-parameter-fields';

/**
 * Edits the event-detection settings of a run and starts a new event detection on the same series; on a series of
 * its own (a pose-derived series) it is the first detection, "Detect events". `onStarted` receives the new run.
 */
export function EventRerunDialog({
  projectUuid,
  run,
  onOpenChange,
  onStarted,
}: {
  projectUuid: string;
  run: AnalysisRun | null;
  onOpenChange: (open: boolean) => void;
  onStarted?: (run: AnalysisRun) => void;
}) {
  return (
    <Dialog open={run !== null} onOpenChange={onOpenChange}>
      <DialogContent>
        {run ? (
          <EventRerunForm
            projectUuid={projectUuid}
            run={run}
            onDone={(started) => {
              if (started) onStarted?.(started);
              onOpenChange(false);
            }}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function EventRerunForm({
  projectUuid,
  run,
  onDone,
}: {
  projectUuid: string;
  run: AnalysisRun;
  onDone: (started?: AnalysisRun) => void;
}) {
  const first = run.kind === 'pose_series';
  const [form, setForm] = useState(() => eventFormOf(run.parameters));
  const [errors, setErrors] = useState<FieldErrors>({});
  const start = useStartRun(projectUuid, first ? 'Event detection started' : 'Re-run started');
  const source = eventDetectionSource(run);

  /** The settings to run or save — a freezing summary the run was asked for (ADR 010) stays — or null. */
  const readParameters = (): Record<string, unknown> | null => {
    const read = readEventForm(form);
    setErrors(read.errors);
    return read.parameters ? { ...freezingParametersOf(run.parameters), ...read.parameters } : null;
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parameters = readParameters();
    if (!parameters || !source) return;
    start.mutate(
      { run, body: { kind: 'event_detection', source_analysis_uuid: source, parameters } },
      {
        onSuccess: (started) => onDone(started),
        onError: (error) => setErrors(withoutParametersPrefix(serverFieldErrors(error))),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-5">
      <DialogHeader>
        <DialogTitle>{first ? 'Detect events' : 'Re-run event detection'}</DialogTitle>
        <DialogDescription>
          {first
            ? `Detects events on this series of ${run.video_name} (${run.subject_name}), to review them in Quick Score.`
            : `Detects events again on the time series of ${run.video_name} (${run.subject_name}) with these settings. The earlier run stays as it is.`}
        </DialogDescription>
      </DialogHeader>
      <EventParameterFields idPrefix="rerun" form={form} onChange={setForm} errors={errors} />
      <DialogFooter className="sm:justify-between">
        <SaveAsProtocolButton
          projectUuid={projectUuid}
          kind="event_detection"
          variant="ghost"
          readParameters={readParameters}
          onParameterErrors={(error) => setErrors(withoutParametersPrefix(serverFieldErrors(error)))}
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          <Button type="button" variant="outline" onClick={() => onDone()}>
            Cancel
          </Button>
          <Button type="submit" disabled={start.isPending || !source}>
            {start.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
            {first ? 'Detect events' : 'Start re-run'}
          </Button>
        </div>
      </DialogFooter>
    </form>
  );
}
