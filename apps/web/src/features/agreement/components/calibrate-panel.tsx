import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, Loader2, SlidersHorizontal, TriangleAlert } from 'lucide-react';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { CurveChart } from '@/components/chart/curve-chart';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/select';
import { type AnalysisRun, analysisApi, analysisKeys, analysisQueries, type VideoRef } from '@/features/analysis/api';
import { annotationQueries } from '@/features/annotator/api';
import { ApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/errors';
import { countOf } from '@/lib/format';
import { agreementApi, type CalibrateBody, type CalibrationResult, type ExportFormat } from '../api';
import { calibrateBody, initialForm, localField, type SweepForm, type Target } from '../calibrate-request';
import { type EventMetric, eventCurves, type FreezingMetric, freezingCurves, METRIC_LABELS } from '../calibration-view';
import type { Scoring } from '../scorings';
import { BinsTable } from './agreement-figures';
import { CalibrationRecommendation } from './calibration-recommendation';
import { DefinitionsPanel } from './definitions-panel';
import { ScoringPicker } from './scoring-picker';

/**
 * Calibrate (ADR 010), on a run's result: sweep its detection settings on its stored series against a reference
 * scoring, see the score over the threshold (uPlot), the best setting and the warnings, and Apply it — a new
 * event-detection run on the same series. No video is decoded.
 */
export function CalibratePanel({
  videoRef,
  run,
  readOnly,
  onApplied,
}: {
  videoRef: VideoRef;
  run: AnalysisRun;
  readOnly: boolean;
  /** The run Apply created. */
  onApplied: (analysisUuid: string) => void;
}) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<SweepForm>(() => initialForm(run));
  const [reference, setReference] = useState<Scoring>({ kind: 'track' });
  const [localErrors, setLocalErrors] = useState<Record<string, string[]>>({});
  const [eventMetric, setEventMetric] = useState<EventMetric>('f1');
  const [freezingMetric, setFreezingMetric] = useState<FreezingMetric>('mean_abs_diff');
  const runs = useQuery(analysisQueries.list(videoRef.projectUuid, { video: videoRef.videoUuid, page_size: 100 }));
  const tracks = useQuery(annotationQueries.tracks(videoRef));

  const calibrate = useMutation({
    mutationFn: (body: CalibrateBody) => agreementApi.calibrate(videoRef, run.analysis_uuid, body),
  });
  const result: CalibrationResult | undefined = calibrate.data;
  const sentBody = calibrate.variables;
  const serverErrors = calibrate.error instanceof ApiError ? calibrate.error.fieldErrors : {};
  const errors: Record<string, string[]> = { ...localErrors };
  for (const [field, messages] of Object.entries(serverErrors)) {
    const local = localField(field);
    errors[local] = [...(errors[local] ?? []), ...messages];
  }

  const apply = useMutation({
    mutationFn: (parameters: Record<string, unknown>) =>
      analysisApi.create(videoRef, { kind: 'event_detection', source_analysis_uuid: run.analysis_uuid, parameters }),
    onSuccess: (created) => {
      queryClient.setQueryData(analysisKeys.run(created.analysis_uuid), created);
      void queryClient.invalidateQueries({ queryKey: analysisKeys.lists() });
      toast.success('Applied: a new event-detection run on this series.');
      onApplied(created.analysis_uuid);
    },
  });

  const submit = () => {
    const built = calibrateBody(form, reference);
    if ('errors' in built) {
      setLocalErrors(built.errors);
      return;
    }
    setLocalErrors({});
    calibrate.mutate(built.body);
  };

  const [exporting, setExporting] = useState(false);
  const download = async (format: ExportFormat) => {
    if (!sentBody) return;
    setExporting(true);
    try {
      await agreementApi.exportCurve(videoRef, run.analysis_uuid, sentBody, format);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setExporting(false);
    }
  };

  const curves = useMemo(() => {
    if (!result) return null;
    return result.target === 'events' ? eventCurves(result, eventMetric) : freezingCurves(result, freezingMetric);
  }, [result, eventMetric, freezingMetric]);

  const set = (key: keyof SweepForm) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setForm((prev) => ({ ...prev, [key]: event.target.value }));
  const input = (key: keyof SweepForm, field: string, label: string, description?: string, placeholder?: string) => (
    <Field id={`calibrate-${key}`} label={label} description={description} errors={errors[field]}>
      <Input
        {...fieldAria(`calibrate-${key}`, errors[field])}
        inputMode="decimal"
        value={form[key]}
        placeholder={placeholder}
        onChange={set(key)}
      />
    </Field>
  );
  const switchTarget = (target: Target) => {
    setForm((prev) => ({ ...prev, target }));
    if (target === 'freezing' && reference.kind !== 'track' && reference.kind !== 'upload')
      setReference({ kind: 'track' });
  };

  return (
    <section
      aria-labelledby="calibrate-title"
      className="grid grid-cols-1 gap-4 border-t pt-6"
      data-testid="calibrate-panel"
    >
      <div>
        <h3 id="calibrate-title" className="flex items-center gap-2 font-medium text-base">
          <SlidersHorizontal className="size-4" aria-hidden="true" />
          Calibrate
        </h3>
        <p className="text-muted-foreground text-sm">
          Sweep this run’s detection settings on its stored series against a reference scoring. No video is decoded.
        </p>
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
        <div className="grid grid-cols-1 content-start gap-3">
          <Field id="calibrate-target" label="Calibrate">
            <NativeSelect
              id="calibrate-target"
              value={form.target}
              onChange={(e) => switchTarget(e.target.value as Target)}
            >
              <option value="events">Event detection (scored by F1)</option>
              <option value="freezing">Freezing (scored per bin: r, slope, mean difference)</option>
            </NativeSelect>
          </Field>
          <ScoringPicker
            id="calibrate-reference"
            title="Reference"
            videoRef={videoRef}
            scoring={reference}
            onChange={setReference}
            runs={runs.data?.results ?? []}
            tracks={tracks.data ?? []}
            kinds={form.target === 'freezing' ? ['track', 'upload'] : undefined}
            errors={errors.reference}
          />
          {form.target === 'events' ? (
            <>
              <Field id="calibrate-mode" label="Sweep">
                <NativeSelect id="calibrate-mode" value={form.mode} onChange={set('mode')}>
                  <option value="k">k (threshold = k × noise top)</option>
                  <option value="threshold">Absolute threshold</option>
                </NativeSelect>
              </Field>
              <div className="grid grid-cols-3 gap-2">
                {input('from', 'from', 'From')}
                {input('to', 'to', 'To')}
                {input('step', 'step', 'Step')}
              </div>
              {input('refractory', 'refractory_s', 'Refractory periods (s)', 'One or more, separated by commas.')}
              {input('tolerance', 'tolerance_s', 'Tolerance τ (s)')}
            </>
          ) : (
            <>
              <div className="grid grid-cols-3 gap-2">
                {input('freezeFrom', 'from', 'From', undefined, 'auto')}
                {input('freezeTo', 'to', 'To', undefined, 'auto')}
                {input('freezeStep', 'step', 'Step', undefined, 'auto')}
              </div>
              <p className="-mt-1 text-muted-foreground text-xs">
                Freeze thresholds; empty: 0 to twice the noise top, 40 steps.
              </p>
              {input('minimums', 'min_freeze_s', 'Minimum durations (s)', 'One or more, separated by commas.')}
              {input('bin', 'bin_s', 'Bin (s)')}
            </>
          )}
          <Button onClick={submit} disabled={calibrate.isPending}>
            {calibrate.isPending ? (
              <Loader2 className="animate-spin" aria-hidden="true" />
            ) : (
              <SlidersHorizontal aria-hidden="true" />
            )}
            Calibrate
          </Button>
          <DefinitionsPanel calibration />
        </div>

        <div className="grid min-w-0 grid-cols-1 content-start gap-4" data-testid="calibration-result">
          {result && curves ? (
            <>
              <div className="flex flex-wrap items-center gap-2">
                <label htmlFor="calibrate-metric" className="text-sm">
                  Curve
                </label>
                <NativeSelect
                  id="calibrate-metric"
                  className="w-auto"
                  value={result.target === 'events' ? eventMetric : freezingMetric}
                  onChange={(e) =>
                    result.target === 'events'
                      ? setEventMetric(e.target.value as EventMetric)
                      : setFreezingMetric(e.target.value as FreezingMetric)
                  }
                >
                  {(result.target === 'events'
                    ? (['f1', 'precision', 'recall'] as const)
                    : (['mean_abs_diff', 'pearson_r', 'slope'] as const)
                  ).map((metric) => (
                    <option key={metric} value={metric}>
                      {METRIC_LABELS[metric]}
                    </option>
                  ))}
                </NativeSelect>
                <span className="ml-auto text-muted-foreground text-xs">
                  {countOf(result.points.length, 'setting')} · {result.elapsed_ms} ms on the server
                </span>
              </div>
              <div data-testid="calibration-curve">
                <CurveChart {...curves} />
              </div>
              <CalibrationRecommendation
                result={result}
                readOnly={readOnly}
                applying={apply.isPending}
                onApply={(parameters) => apply.mutate(parameters)}
              >
                {(['csv', 'xlsx'] as const).map((format) => (
                  <Button
                    key={format}
                    variant="outline"
                    size="sm"
                    onClick={() => void download(format)}
                    disabled={exporting}
                  >
                    <Download aria-hidden="true" />
                    Curve {format.toUpperCase()}
                  </Button>
                ))}
              </CalibrationRecommendation>
              {result.warnings.length > 0 ? (
                <Alert className="border-warning/60 [&>svg]:text-warning" data-testid="calibration-warnings">
                  <TriangleAlert aria-hidden="true" />
                  <AlertTitle>Do not trust this setting blindly</AlertTitle>
                  <AlertDescription>
                    <ul className="list-disc pl-4">
                      {result.warnings.map((warning) => (
                        <li key={warning}>{warning}</li>
                      ))}
                    </ul>
                  </AlertDescription>
                </Alert>
              ) : null}
              {result.target === 'freezing' ? <BinsTable bins={result.bins} candidateLabel="Best setting" /> : null}
            </>
          ) : calibrate.isError && Object.keys(serverErrors).length === 0 ? (
            <p role="alert" className="text-destructive text-sm">
              {errorMessage(calibrate.error)}
            </p>
          ) : (
            <p className="text-muted-foreground text-sm">
              Choose a reference and calibrate: every setting of the sweep is scored, and the best one can be applied.
            </p>
          )}
        </div>
      </div>
    </section>
  );
}
