import type { TimeRange } from '@app/time-ranges';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Eye, Loader2, Play } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { usePlayer } from '@/components/player/player-controller';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  type AnalysisRun,
  analysisApi,
  analysisKeys,
  analysisQueries,
  type CreateAnalysisBody,
  isRunActive,
  type VideoRef,
} from '@/features/analysis/api';
import { SaveAsProtocolButton } from '@/features/protocols/components/save-as-protocol';
import type { VideoToolWorkspaceProps } from '@/features/videos/components/video-tool-page';
import { playerFacts } from '@/features/videos/player-source';
import { lastDetectionRun } from '../context-runs';
import {
  defaultParameterValues,
  type FieldErrors,
  PARAMETER_FIELDS,
  type ParameterValues,
  parameterValuesFromRun,
  parseParameterValues,
  serverFieldErrors,
} from '../parameters';
import {
  activeRoiIndex,
  addRoiAt,
  deleteRoi,
  initialRois,
  moveRoi,
  type Roi,
  type RoiRect,
  roisForRequest,
  roisFromParameters,
  setRoiRect,
  snapToFrame,
} from '../rois';
import { BypassUpload } from './bypass-upload';
import { DetectorRunCard } from './detector-run-card';
import { EarlierRuns } from './earlier-runs';
import { ParameterControls } from './parameter-controls';
import { PreviewPanel, type PreviewShown } from './preview-panel';
import { RoiPlayer } from './roi-player';
import { RoiTimeline } from './roi-timeline';
import { SameCamera } from './same-camera';

/** Seconds of video a preview covers. */
export const PREVIEW_SECONDS = 3;
const DEFAULT_FPS = 30;
const SHOWN_BY_CONTROLS = new Set<string>([...PARAMETER_FIELDS.map((field) => field.name), 'rois', 'bypass_ranges']);

function bypassFromRun(raw: unknown): TimeRange[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (range): range is TimeRange => Array.isArray(range) && typeof range[0] === 'number' && typeof range[1] === 'number',
  );
}

/**
 * Everything about one ready video: player with ROIs, timeline, bypass ranges, parameters, preview, run, the
 * open run's result and the video's other runs. Keyed by video, so choosing another video starts afresh.
 */
export function DetectorWorkspace({
  projectUuid,
  video,
  runUuid,
  edit,
  readOnly,
  readOnlyReason,
  onOpenRun,
}: VideoToolWorkspaceProps & {
  /** Why a member cannot run analyses here (a draft or locked project); viewers get the role's reason. */
  readOnlyReason?: string | null;
}) {
  const queryClient = useQueryClient();
  const ref: VideoRef = useMemo(
    () => ({ projectUuid, subjectUuid: video.subject_uuid, videoUuid: video.video_uuid }),
    [projectUuid, video.subject_uuid, video.video_uuid],
  );
  const fps = video.fps && video.fps > 0 ? video.fps : DEFAULT_FPS;
  const duration = video.duration_s ?? 0;
  const picture = useMemo(
    () => ({ width: video.width || 640, height: video.height || 480 }),
    [video.width, video.height],
  );

  const player = usePlayer(playerFacts(video));
  const clock = player.clock;
  const [rois, setRois] = useState<Roi[]>(initialRois);
  const [bypass, setBypass] = useState<TimeRange[]>([]);
  const [values, setValues] = useState<ParameterValues>(defaultParameterValues);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [previewShown, setPreviewShown] = useState<PreviewShown | null>(null);
  const [compareUuid, setCompareUuid] = useState<string | null>(null);
  /** The video whose regions were taken with "Same camera", said under the timeline until a run's are loaded. */
  const [roisFrom, setRoisFrom] = useState<string | null>(null);

  const seek = useCallback((time: number) => void player.seekTime(time), [player]);

  // The run named in the URL: its parameters go into the controls once, when it first arrives.
  const urlRun = useQuery({ ...analysisQueries.run(ref, runUuid ?? ''), enabled: runUuid !== null });
  const loadedRun = useRef<string | null>(null);
  const loadRunParameters = useCallback((run: AnalysisRun) => {
    loadedRun.current = run.analysis_uuid;
    if (run.kind !== 'movement_detection') return;
    setValues(parameterValuesFromRun(run.parameters));
    setRois(roisFromParameters(run.parameters.rois));
    setRoisFrom(null);
    setBypass(bypassFromRun(run.parameters.bypass_ranges));
    setFieldErrors({});
  }, []);
  useEffect(() => {
    const run = urlRun.data;
    if (run && run.analysis_uuid === runUuid && loadedRun.current !== run.analysis_uuid) loadRunParameters(run);
  }, [urlRun.data, runUuid, loadRunParameters]);

  const runs = useQuery(analysisQueries.list(projectUuid, { video: video.video_uuid, page_size: 100 }));
  const runList = runs.data?.results ?? [];
  // A video opened without a run opens its last one: its result, and its regions and parameters in the controls.
  const defaulted = useRef(false);
  const lastRun = runs.isSuccess && !runs.isPlaceholderData ? lastDetectionRun(runList) : undefined;
  useEffect(() => {
    if (defaulted.current || runUuid !== null || lastRun === undefined) return;
    defaulted.current = true;
    if (lastRun) onOpenRun(lastRun.analysis_uuid, { replace: true });
  }, [runUuid, lastRun, onOpenRun]);
  const compareRun = runList.find((run) => run.analysis_uuid === compareUuid && run.status === 'succeeded') ?? null;

  /** The request's parameters, or null (with the field errors shown) when a field is not a number. */
  const requestParameters = (): Record<string, unknown> | null => {
    const parsed = parseParameterValues(values);
    if (!parsed.ok) {
      setFieldErrors(parsed.errors);
      return null;
    }
    setFieldErrors({});
    return { ...parsed.parameters, rois: roisForRequest(rois, picture), bypass_ranges: bypass };
  };

  const preview = useMutation({
    mutationFn: async (body: { parameters: Record<string, unknown>; start_s: number; length_s: number }) => {
      const started = performance.now();
      const answer = await analysisApi.preview(ref, body);
      return { preview: answer, roundTripMs: performance.now() - started };
    },
    onSuccess: (shown) => setPreviewShown(shown),
    onError: (error) => setFieldErrors(serverFieldErrors(error)),
  });

  const startPreview = () => {
    const parameters = requestParameters();
    if (!parameters) return;
    const length = duration > 0 ? Math.min(PREVIEW_SECONDS, duration) : PREVIEW_SECONDS;
    const start = Math.max(0, Math.min(snapToFrame(clock.get(), fps), duration > 0 ? duration - length : 0));
    preview.mutate({ parameters, start_s: Number(start.toFixed(6)), length_s: length });
  };

  const create = useMutation({
    mutationFn: (body: CreateAnalysisBody) => analysisApi.create(ref, body),
    onSuccess: (run) => {
      loadedRun.current = run.analysis_uuid;
      queryClient.setQueryData(analysisKeys.run(run.analysis_uuid), run);
      void queryClient.invalidateQueries({ queryKey: analysisKeys.lists() });
      // The new run is the URL's run at once: its progress shows in the result card, and a reload keeps it.
      onOpenRun(run.analysis_uuid);
    },
    onError: (error) => setFieldErrors(serverFieldErrors(error)),
  });

  const startRun = () => {
    const parameters = requestParameters();
    if (!parameters) return;
    create.mutate({ kind: 'movement_detection', parameters });
  };

  const openRun = (uuid: string, options?: { edit?: boolean }) => {
    if (uuid === compareUuid) setCompareUuid(null);
    // Asking for a run's settings loads them, even when that run is already open.
    if (options?.edit) {
      const cached = runList.find((run) => run.analysis_uuid === uuid);
      if (cached) loadRunParameters(cached);
      else loadedRun.current = null;
    }
    onOpenRun(uuid, options);
  };

  const shownRun: AnalysisRun | undefined = runUuid && !edit ? urlRun.data : undefined;
  const busy = preview.isPending || create.isPending;
  // Messages not tied to a control (e.g. the preview window's own fields).
  const otherErrors = Object.entries(fieldErrors)
    .filter(([name]) => !SHOWN_BY_CONTROLS.has(name))
    .flatMap(([, messages]) => messages ?? []);

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="grid min-w-0 grid-cols-1 content-start gap-6">
          <Card>
            <CardContent className="grid grid-cols-1 gap-4">
              <RoiPlayer
                video={video}
                picture={picture}
                player={player}
                rois={rois}
                onDrawRect={(rect: RoiRect) =>
                  setRois((current) => setRoiRect(current, activeRoiIndex(current, clock.get()), rect))
                }
              />
              <RoiTimeline
                duration={duration}
                fps={fps}
                picture={picture}
                rois={rois}
                bypassRanges={bypass}
                clock={clock}
                onSeek={seek}
                onAdd={() => setRois((current) => addRoiAt(current, clock.get(), fps, duration).rois)}
                onMove={(index, time) => setRois((current) => moveRoi(current, index, time, fps, duration))}
                onDelete={(index) => setRois((current) => deleteRoi(current, index))}
                errors={fieldErrors.rois}
              />
              <SameCamera
                projectUuid={projectUuid}
                video={video}
                onUse={(next, from) => {
                  setRois(next);
                  setRoisFrom(from);
                }}
              />
              {roisFrom ? (
                <p className="text-muted-foreground text-xs" role="status">
                  Regions from {roisFrom}’s last run.
                </p>
              ) : null}
              <BypassUpload
                ranges={bypass}
                onChange={setBypass}
                serverErrors={fieldErrors.bypass_ranges}
                durationS={video.duration_s}
              />
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Preview and run</CardTitle>
              <CardDescription>
                Preview {PREVIEW_SECONDS} s from the current time to tune the parameters, then run the whole video.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid grid-cols-1 gap-4">
              <div className="flex flex-wrap items-center gap-2">
                <Button variant="outline" onClick={startPreview} disabled={readOnly || busy}>
                  {preview.isPending ? (
                    <Loader2 className="animate-spin" aria-hidden="true" />
                  ) : (
                    <Eye aria-hidden="true" />
                  )}
                  Preview
                </Button>
                <Button onClick={startRun} disabled={readOnly || busy || (shownRun ? isRunActive(shownRun) : false)}>
                  {create.isPending ? (
                    <Loader2 className="animate-spin" aria-hidden="true" />
                  ) : (
                    <Play aria-hidden="true" />
                  )}
                  Run
                </Button>
                <SaveAsProtocolButton
                  projectUuid={projectUuid}
                  kind="movement_detection"
                  readParameters={requestParameters}
                  onParameterErrors={(error) => setFieldErrors(serverFieldErrors(error))}
                />
                {readOnly ? (
                  <span className="text-muted-foreground text-xs">
                    {readOnlyReason ?? 'Viewers can open results but not run analyses.'}
                  </span>
                ) : null}
                {edit && runUuid ? (
                  <span className="text-muted-foreground text-xs">Settings loaded from an earlier run.</span>
                ) : null}
              </div>
              {otherErrors.length ? (
                <p role="alert" className="text-destructive text-sm">
                  {otherErrors.join(' ')}
                </p>
              ) : null}
              <PreviewPanel shown={previewShown} pending={preview.isPending} onSeek={seek} />
            </CardContent>
          </Card>
        </div>

        <Card className="content-start">
          <CardHeader>
            <CardTitle>Parameters</CardTitle>
            <CardDescription>Defaults suit most recordings; preview to check a change.</CardDescription>
          </CardHeader>
          <CardContent>
            <ParameterControls values={values} onChange={setValues} errors={fieldErrors} />
          </CardContent>
        </Card>
      </div>

      {runUuid && !edit ? (
        <DetectorRunCard
          videoRef={ref}
          run={shownRun}
          loadFailed={urlRun.isError}
          compareRun={compareRun}
          player={player}
          readOnly={readOnly}
          onOpenRun={(uuid) => openRun(uuid)}
        />
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle>Runs of this video</CardTitle>
          <CardDescription>Open an earlier run, reuse its settings, or compare two runs’ series.</CardDescription>
        </CardHeader>
        <CardContent>
          <EarlierRuns
            runs={runList}
            loading={runs.isLoading}
            openUuid={runUuid && !edit ? runUuid : null}
            compareUuid={compareRun?.analysis_uuid ?? null}
            onOpen={(uuid) => openRun(uuid)}
            onEdit={(uuid) => openRun(uuid, { edit: true })}
            onCompare={setCompareUuid}
          />
        </CardContent>
      </Card>
    </div>
  );
}
