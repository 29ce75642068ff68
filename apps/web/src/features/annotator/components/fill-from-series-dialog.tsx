import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, Wand2 } from 'lucide-react';
import { type FormEvent, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
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
import { NativeSelect } from '@/components/ui/select';
import { type AnalysisRun, analysisQueries } from '@/features/analysis/api';
import { seriesName, seriesUnit } from '@/features/analysis/series-names';
import { posePath } from '@/features/pose/links';
import { errorMessage } from '@/lib/errors';
import { countOf, formatDate } from '@/lib/format';
import { type FieldErrors, serverFieldErrors } from '@/lib/validation';
import { type AnnotationVideoRef, annotationKeys, annotationsApi, type Track, type TrackRanges } from '../api';
import type { Range } from '../bouts';
import { COMPARISONS, type Comparison, type FillForm, fillBody, ruleName } from '../fill-rule';

/**
 * "Fill from a series": the bouts where a pose-derived series meets a rule ("distance nose–object < 2 cm", for at
 * least a minimum duration, gaps shorter than one closed) go into a new track or one of the video's tracks —
 * replacing its bouts or added to them. They are then corrected by hand like any bout (ADR 037).
 */
export function FillFromSeriesDialog({
  videoRef,
  tracks,
  ranges,
  versionOf,
  hasPendingSaves,
  open,
  onOpenChange,
  onFilled,
}: {
  videoRef: AnnotationVideoRef;
  tracks: readonly Track[];
  ranges: Readonly<Record<string, Range[]>>;
  versionOf: (track: string) => number | undefined;
  hasPendingSaves: (track: string) => boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** An existing track's new bouts and version (a new track is loaded like any new track). */
  onFilled: (track: string, result: TrackRanges) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        {open ? (
          <FillFromSeriesForm
            videoRef={videoRef}
            tracks={tracks}
            ranges={ranges}
            versionOf={versionOf}
            hasPendingSaves={hasPendingSaves}
            onDone={() => onOpenChange(false)}
            onFilled={onFilled}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function FillFromSeriesForm({
  videoRef,
  tracks,
  ranges,
  versionOf,
  hasPendingSaves,
  onDone,
  onFilled,
}: {
  videoRef: AnnotationVideoRef;
  tracks: readonly Track[];
  ranges: Readonly<Record<string, Range[]>>;
  versionOf: (track: string) => number | undefined;
  hasPendingSaves: (track: string) => boolean;
  onDone: () => void;
  onFilled: (track: string, result: TrackRanges) => void;
}) {
  const queryClient = useQueryClient();
  const runs = useQuery(analysisQueries.list(videoRef.projectUuid, { video: videoRef.videoUuid, page_size: 100 }));
  const series = useMemo(
    () => (runs.data?.results ?? []).filter((run) => run.kind === 'pose_series' && run.status === 'succeeded'),
    [runs.data],
  );
  const [form, setForm] = useState<FillForm>({
    source: '',
    comparison: 'lt',
    threshold: '',
    minDuration: '',
    mergeGap: '',
    target: 'new',
    name: '',
    mode: 'replace',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const source: AnalysisRun | undefined = series.find((run) => run.analysis_uuid === form.source) ?? series[0];
  const unit = source ? seriesUnit(source) : '';
  const suggested = source ? ruleName(seriesName(source.parameters), form.comparison, form.threshold, unit) : '';
  const existing = tracks.find((track) => track.annotation_config_uuid === form.target) ?? null;
  const existingBouts = existing ? (ranges[existing.annotation_config_uuid]?.length ?? 0) : 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const filled = { ...form, source: source?.analysis_uuid ?? '', name: form.name || suggested };
    if (existing && hasPendingSaves(existing.annotation_config_uuid)) {
      toast.info(`Wait until the changes to "${existing.name}" are saved, then fill it.`);
      return;
    }
    const read = fillBody(filled, existing ? versionOf(existing.annotation_config_uuid) : undefined);
    setErrors(read.ok ? {} : read.errors);
    if (!read.ok) return;
    setPending(true);
    try {
      const answer = await annotationsApi.fillFromSeries(videoRef, read.body);
      const uuid = answer.track.annotation_config_uuid;
      if (existing) {
        onFilled(uuid, { annotation_config_uuid: uuid, ranges: answer.ranges, version: answer.version });
      } else {
        queryClient.setQueryData<Track[]>(annotationKeys.tracks(videoRef.videoUuid), (list) => [
          ...(list ?? []),
          answer.track,
        ]);
      }
      toast.success(`${countOf(answer.ranges.length, 'bout')} in "${answer.track.name}".`);
      onDone();
    } catch (error) {
      const byField = serverFieldErrors(error);
      setErrors(Object.keys(byField).length > 0 ? byField : { form: [errorMessage(error)] });
    } finally {
      setPending(false);
    }
  };

  const number = (
    id: string,
    field: keyof FillForm,
    label: string,
    description: string,
    error: string[] | undefined,
  ) => (
    <Field id={id} label={label} description={description} errors={error}>
      <Input
        {...fieldAria(id, error)}
        type="number"
        inputMode="decimal"
        min={0}
        step="any"
        placeholder="0"
        value={form[field]}
        onChange={(event) => setForm((f) => ({ ...f, [field]: event.target.value }))}
      />
    </Field>
  );

  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      className="grid grid-cols-1 gap-4"
      data-testid="fill-form"
    >
      <DialogHeader>
        <DialogTitle>Fill a track from a series</DialogTitle>
        <DialogDescription>
          Bouts where a pose-derived series meets a rule, frame by frame — “the nose within 2 cm of the object” — to
          correct by hand afterwards.
        </DialogDescription>
      </DialogHeader>
      {runs.isLoading ? null : series.length === 0 ? (
        <p className="text-muted-foreground text-sm">
          This video has no pose-derived series yet.{' '}
          <Link
            className="underline"
            to={posePath(videoRef.projectUuid, { subject: videoRef.subjectUuid, video: videoRef.videoUuid })}
          >
            Derive one on the Pose page
          </Link>
          .
        </p>
      ) : (
        <>
          <Field id="fill-source" label="Series" errors={errors.source_analysis_uuid}>
            <NativeSelect
              {...fieldAria('fill-source', errors.source_analysis_uuid)}
              value={source?.analysis_uuid ?? ''}
              onChange={(event) => setForm((f) => ({ ...f, source: event.target.value }))}
            >
              {series.map((run) => (
                <option key={run.analysis_uuid} value={run.analysis_uuid}>
                  {seriesName(run.parameters)} ({seriesUnit(run)}) · {formatDate(run.created_at)}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <div className="grid grid-cols-[8rem_1fr] items-start gap-3">
            <Field id="fill-comparison" label="Value is" errors={errors.comparison}>
              <NativeSelect
                {...fieldAria('fill-comparison', errors.comparison)}
                value={form.comparison}
                onChange={(event) => setForm((f) => ({ ...f, comparison: event.target.value as Comparison }))}
              >
                {COMPARISONS.map((item) => (
                  <option key={item.value} value={item.value}>
                    {item.sign} {item.label}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field id="fill-threshold" label={`Threshold (${unit})`} errors={errors.threshold}>
              <Input
                {...fieldAria('fill-threshold', errors.threshold)}
                type="number"
                inputMode="decimal"
                step="any"
                value={form.threshold}
                onChange={(event) => setForm((f) => ({ ...f, threshold: event.target.value }))}
              />
            </Field>
          </div>
          <div className="grid grid-cols-2 gap-3">
            {number(
              'fill-min',
              'minDuration',
              'For at least (s)',
              'Shorter bouts are left out.',
              errors.min_duration_s,
            )}
            {number(
              'fill-gap',
              'mergeGap',
              'Join gaps shorter than (s)',
              'Joined before the length counts.',
              errors.merge_gap_s,
            )}
          </div>
          <Field id="fill-target" label="Into the track" errors={errors.annotation_config_uuid}>
            <NativeSelect
              {...fieldAria('fill-target', errors.annotation_config_uuid)}
              value={form.target}
              onChange={(event) => setForm((f) => ({ ...f, target: event.target.value }))}
            >
              <option value="new">A new track</option>
              {tracks.map((track) => (
                <option key={track.annotation_config_uuid} value={track.annotation_config_uuid}>
                  {track.name}
                </option>
              ))}
            </NativeSelect>
          </Field>
          {existing ? (
            existingBouts > 0 ? (
              <fieldset className="grid gap-1.5 text-sm">
                <legend className="mb-1 font-medium">Its {countOf(existingBouts, 'bout')}</legend>
                <label className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="fill-mode"
                    className="accent-primary"
                    checked={form.mode === 'replace'}
                    onChange={() => setForm((f) => ({ ...f, mode: 'replace' }))}
                  />
                  Replace them with the rule’s bouts
                </label>
                <label className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="fill-mode"
                    className="accent-primary"
                    checked={form.mode === 'merge'}
                    onChange={() => setForm((f) => ({ ...f, mode: 'merge' }))}
                  />
                  Keep them and add the rule’s (overlapping bouts join)
                </label>
              </fieldset>
            ) : null
          ) : (
            <Field id="fill-name" label="Name of the new track" errors={errors.name}>
              <Input
                {...fieldAria('fill-name', errors.name)}
                value={form.name}
                maxLength={100}
                placeholder={suggested}
                onChange={(event) => setForm((f) => ({ ...f, name: event.target.value }))}
              />
            </Field>
          )}
          {errors.form?.length ? (
            <p role="alert" className="text-destructive text-sm">
              {errors.form.join(' ')}
            </p>
          ) : null}
        </>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending || series.length === 0}>
          {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Wand2 aria-hidden="true" />}
          Fill track
        </Button>
      </DialogFooter>
    </form>
  );
}
