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
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import type { AnalysisRun } from '@/features/analysis/api';
import { type FieldErrors, fieldErrors, hasErrors, serverFieldErrors } from '@/lib/validation';
import { useStartRun } from '../hooks/use-run-mutations';
import { type EventParameters, eventDetectionSource, eventParametersOf, freezingParametersOf } from '../run-actions';

type Form = { k: string; threshold: string; refractory: string };

/** Checks the form against the server's bounds (ADR 006) and reads it into parameters. */
export function readEventForm(form: Form): { errors: FieldErrors; parameters: EventParameters | null } {
  const k = Number(form.k);
  const threshold = form.threshold.trim() === '' ? null : Number(form.threshold);
  const refractory = Number(form.refractory);
  const errors = fieldErrors({
    event_threshold_k:
      form.k.trim() === '' || !Number.isFinite(k) || k < 1 || k > 10 ? 'Give a number from 1 to 10.' : null,
    event_threshold:
      threshold !== null && (!Number.isFinite(threshold) || threshold < 0)
        ? 'Give a number of 0 or more, or leave it empty.'
        : null,
    refractory_s:
      form.refractory.trim() === '' || !Number.isFinite(refractory) || refractory < 0 || refractory > 60
        ? 'Give a number of seconds from 0 to 60.'
        : null,
  });
  return hasErrors(errors)
    ? { errors, parameters: null }
    : { errors, parameters: { event_threshold_k: k, event_threshold: threshold, refractory_s: refractory } };
}

/** Server messages come keyed `parameters.<name>`; the form's fields are the names. */
function withoutPrefix(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).map(([key, value]) => [key.replace(/^parameters\./, ''), value]));
}

/** Edits the event-detection settings of a run and starts a new event detection on the same series. */
export function EventRerunDialog({
  projectUuid,
  run,
  onOpenChange,
}: {
  projectUuid: string;
  run: AnalysisRun | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={run !== null} onOpenChange={onOpenChange}>
      <DialogContent>
        {run ? <EventRerunForm projectUuid={projectUuid} run={run} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function EventRerunForm({ projectUuid, run, onDone }: { projectUuid: string; run: AnalysisRun; onDone: () => void }) {
  const initial = eventParametersOf(run.parameters);
  const [form, setForm] = useState<Form>({
    k: String(initial.event_threshold_k),
    threshold: initial.event_threshold === null ? '' : String(initial.event_threshold),
    refractory: String(initial.refractory_s),
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const start = useStartRun(projectUuid);
  const source = eventDetectionSource(run);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const read = readEventForm(form);
    setErrors(read.errors);
    if (!read.parameters || !source) return;
    start.mutate(
      {
        run,
        body: {
          kind: 'event_detection',
          source_analysis_uuid: source,
          // A freezing summary the run was asked for (a calibrated one, ADR 010) stays with the re-run.
          parameters: { ...freezingParametersOf(run.parameters), ...read.parameters },
        },
      },
      { onSuccess: onDone, onError: (error) => setErrors(withoutPrefix(serverFieldErrors(error))) },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-5">
      <DialogHeader>
        <DialogTitle>Re-run event detection</DialogTitle>
        <DialogDescription>
          Detects events again on the time series of {run.video_name} ({run.subject_name}) with these settings. The
          earlier run stays as it is.
        </DialogDescription>
      </DialogHeader>
      <Field
        id="rerun-k"
        label="Threshold factor k"
        description="An event starts where the series rises above k × its noise top."
        errors={errors.event_threshold_k}
      >
        <Input
          {...fieldAria('rerun-k', errors.event_threshold_k)}
          type="number"
          inputMode="decimal"
          min={1}
          max={10}
          step="any"
          value={form.k}
          onChange={(e) => setForm((f) => ({ ...f, k: e.target.value }))}
        />
      </Field>
      <Field
        id="rerun-threshold"
        label="Absolute threshold"
        description="Optional: when set, it replaces k × noise top."
        errors={errors.event_threshold}
      >
        <Input
          {...fieldAria('rerun-threshold', errors.event_threshold)}
          type="number"
          inputMode="decimal"
          min={0}
          step="any"
          placeholder="Not set"
          value={form.threshold}
          onChange={(e) => setForm((f) => ({ ...f, threshold: e.target.value }))}
        />
      </Field>
      <Field
        id="rerun-refractory"
        label="Refractory period (s)"
        description="Onsets closer than this to the previous event are dropped."
        errors={errors.refractory_s}
      >
        <Input
          {...fieldAria('rerun-refractory', errors.refractory_s)}
          type="number"
          inputMode="decimal"
          min={0}
          max={60}
          step="any"
          value={form.refractory}
          onChange={(e) => setForm((f) => ({ ...f, refractory: e.target.value }))}
        />
      </Field>
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={start.isPending || !source}>
          {start.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Start re-run
        </Button>
      </DialogFooter>
    </form>
  );
}
