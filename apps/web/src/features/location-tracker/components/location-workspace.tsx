import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Eye, Loader2, Play } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { usePlayer } from '@/components/player/player-controller';
import { PlayerControls } from '@/components/player/player-controls';
import { transportKeys } from '@/components/player/player-keys';
import { VideoPlayer } from '@/components/player/video-player';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  type AnalysisRun,
  analysisApi,
  analysisKeys,
  analysisQueries,
  isRunActive,
  type VideoRef,
} from '@/features/analysis/api';
import { RunStatus } from '@/features/analysis/components/run-status';
import { type PoseSet, poseQueries } from '@/features/pose/api';
import { SaveAsProtocolButton } from '@/features/protocols/components/save-as-protocol';
import type { VideoToolWorkspaceProps } from '@/features/videos/components/video-tool-page';
import { playerFacts, playerSource } from '@/features/videos/player-source';
import {
  defaultParameterValues,
  type FieldErrors,
  locationFieldErrors,
  type ParameterValues,
  parameterValuesFromRun,
  parseParameterValues,
} from '../parameters';
import { splitTrack } from '../track';
import { emptyLayout, fromParameters, type Layout, type LayoutErrors, toRequest } from '../zones';
import { LocationPreviewPanel, type LocationPreviewShown } from './location-preview';
import { LocationResult } from './location-result';
import { LocationRuns } from './location-runs';
import { ParameterControls } from './parameter-controls';
import { PositionSource } from './position-source';
import { ReferenceChoice } from './reference-choice';
import { ShapeList } from './shape-list';
import { TrackTrail } from './track-trail';
import { ZoneEditor } from './zone-editor';

export const LOCATION_KIND = 'location_tracking' as const;
const NO_SETS: PoseSet[] = [];

/** Seconds a preview tracks, from the player's frame. */
const PREVIEW_SECONDS = 3;

/** Messages of the layout's parameters, shown by the shape list; the rest by the settings or under Run. */
const LAYOUT_KEYS = new Set(['zones', 'exclusions', 'scale']);

/**
 * Everything about one ready video: the player with the zone editor, the shapes' names, colours and scale, the
 * settings, Run, the open run's progress and result, and the video's other location runs. Keyed by video.
 */
export function LocationWorkspace({ projectUuid, video, runUuid, edit, readOnly, onOpenRun }: VideoToolWorkspaceProps) {
  const queryClient = useQueryClient();
  const ref: VideoRef = useMemo(
    () => ({ projectUuid, subjectUuid: video.subject_uuid, videoUuid: video.video_uuid }),
    [projectUuid, video.subject_uuid, video.video_uuid],
  );
  const picture = useMemo(
    () => ({ width: video.width || 640, height: video.height || 480 }),
    [video.width, video.height],
  );
  const player = usePlayer(playerFacts(video));
  // The video's pose sets: with any, positions may come from a body part instead of the tracker (ADR 037).
  const poseSets = useQuery(poseQueries.sets(ref)).data?.results ?? NO_SETS;
  const [layout, setLayout] = useState<Layout>(emptyLayout);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [values, setValues] = useState<ParameterValues>(defaultParameterValues);
  const fromPose = values.position === 'pose';
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [layoutErrors, setLayoutErrors] = useState<LayoutErrors>({});
  const [previewShown, setPreviewShown] = useState<LocationPreviewShown | null>(null);

  // The run named in the URL: its zones and settings go into the editor once, when it first arrives.
  const urlRun = useQuery({ ...analysisQueries.run(ref, runUuid ?? ''), enabled: runUuid !== null });
  const loadedRun = useRef<string | null>(null);
  const loadRun = useCallback(
    (run: AnalysisRun) => {
      loadedRun.current = run.analysis_uuid;
      if (run.kind !== LOCATION_KIND) return;
      setValues(parameterValuesFromRun(run.parameters));
      setLayout(fromParameters(run.parameters, picture));
      setSelectedId(null);
      setFieldErrors({});
      setLayoutErrors({});
    },
    [picture],
  );
  useEffect(() => {
    const run = urlRun.data;
    if (run && run.analysis_uuid === runUuid && loadedRun.current !== run.analysis_uuid) loadRun(run);
  }, [urlRun.data, runUuid, loadRun]);

  const runs = useQuery(analysisQueries.list(projectUuid, { video: video.video_uuid, page_size: 100 }));
  const runList = useMemo(() => (runs.data?.results ?? []).filter((run) => run.kind === LOCATION_KIND), [runs.data]);
  // A video opened without a run opens its last location run: its result, and its zones and settings.
  const defaulted = useRef(false);
  useEffect(() => {
    if (defaulted.current || runUuid !== null || !runs.isSuccess || runs.isPlaceholderData) return;
    defaulted.current = true;
    const last = runList[0];
    if (last) onOpenRun(last.analysis_uuid, { replace: true });
  }, [runUuid, runs.isSuccess, runs.isPlaceholderData, runList, onOpenRun]);

  /** The server's field errors, by the control that shows them. */
  const showServerErrors = (error: unknown) => {
    const errors = locationFieldErrors(error);
    setFieldErrors(errors);
    setLayoutErrors(
      Object.fromEntries(
        Object.entries(errors)
          .filter(([name]) => LAYOUT_KEYS.has(name))
          .map(([name, messages]) => [name, (messages ?? []).join(' ')]),
      ),
    );
  };

  /** The request's parameters, or null (with the fields' errors shown) when a setting or a shape is not right. */
  const requestParameters = (): Record<string, unknown> | null => {
    const settings = parseParameterValues(values);
    const shapes = toRequest(layout);
    setFieldErrors(settings.ok ? {} : settings.errors);
    setLayoutErrors(shapes.ok ? {} : shapes.errors);
    if (!settings.ok || !shapes.ok) return null;
    // Exclusion regions are the tracker's: a body part's positions have none to leave out.
    const exclusions = fromPose ? {} : { exclusions: shapes.exclusions };
    return { ...settings.parameters, zones: shapes.zones, ...exclusions, scale: shapes.scale };
  };

  const preview = useMutation({
    mutationFn: async (body: { parameters: Record<string, unknown>; start_s: number; length_s: number }) => {
      const started = performance.now();
      const answer = await analysisApi.locationPreview(ref, body);
      return { preview: answer, roundTripMs: performance.now() - started };
    },
    onSuccess: setPreviewShown,
    onError: showServerErrors,
  });

  const startPreview = () => {
    const parameters = requestParameters();
    if (!parameters) return;
    const duration = player.getState().duration;
    const length = duration > 0 ? Math.min(PREVIEW_SECONDS, duration) : PREVIEW_SECONDS;
    const start = Math.max(0, Math.min(player.currentFrame() / player.fps, duration > 0 ? duration - length : 0));
    preview.mutate({ parameters, start_s: Number(start.toFixed(6)), length_s: length });
  };

  const create = useMutation({
    mutationFn: (parameters: Record<string, unknown>) => analysisApi.create(ref, { kind: LOCATION_KIND, parameters }),
    onSuccess: (run) => {
      loadedRun.current = run.analysis_uuid;
      queryClient.setQueryData(analysisKeys.run(run.analysis_uuid), run);
      void queryClient.invalidateQueries({ queryKey: analysisKeys.lists() });
      onOpenRun(run.analysis_uuid);
    },
    onError: showServerErrors,
  });

  const startRun = () => {
    const parameters = requestParameters();
    if (parameters) create.mutate(parameters);
  };

  const revoke = useMutation({
    mutationFn: (uuid: string) => analysisApi.revoke(ref, uuid),
    onSuccess: (run) => {
      queryClient.setQueryData(analysisKeys.run(run.analysis_uuid), run);
      void queryClient.invalidateQueries({ queryKey: analysisKeys.lists() });
    },
  });

  const openRun = (uuid: string, options?: { edit?: boolean }) => {
    if (options?.edit) {
      const cached = runList.find((run) => run.analysis_uuid === uuid);
      if (cached) loadRun(cached);
      else loadedRun.current = null;
    }
    onOpenRun(uuid, options);
  };

  const shownRun = runUuid && !edit && urlRun.data?.kind === LOCATION_KIND ? urlRun.data : undefined;
  // The open run's positions (the result's chart reads the same query): the player draws the point and its trail.
  const series = useQuery({
    ...analysisQueries.series(ref, shownRun?.analysis_uuid ?? ''),
    enabled: shownRun?.status === 'succeeded',
  });
  const track = useMemo(
    () => (shownRun?.status === 'succeeded' && series.data ? splitTrack(series.data) : null),
    [shownRun?.status, series.data],
  );
  const otherErrors = Object.entries(fieldErrors)
    .filter(
      ([name]) =>
        !LAYOUT_KEYS.has(name) &&
        !name.match(
          /^(algorithm|method|use_window|rmv_wire|loc_thresh|window_size|window_weight|wire_krn|reference_frames|reference|bin_s|jump_px|source)$/,
        ),
    )
    .flatMap(([, messages]) => messages ?? []);

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="grid min-w-0 grid-cols-1 content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle>Arena</CardTitle>
              <CardDescription>
                Pause on a frame where the arena is clear, then draw the zones, the regions the tracker should ignore,
                and a line of known length.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid grid-cols-1 gap-4">
              <ZoneEditor
                picture={picture}
                layout={layout}
                onChange={setLayout}
                selectedId={selectedId}
                onSelect={setSelectedId}
                renderPlayer={(overlay) => (
                  <VideoPlayer
                    player={player}
                    source={{ ...playerSource(video), width: picture.width, height: picture.height }}
                    onKeyDown={transportKeys(player)}
                    overlay={
                      <>
                        {overlay}
                        {track ? <TrackTrail picture={picture} track={track} clock={player.clock} /> : null}
                      </>
                    }
                    controls={<PlayerControls player={player} id={`lt-rate-${video.video_uuid}`} />}
                  />
                )}
              />
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>Preview and run</CardTitle>
              <CardDescription>
                Preview {PREVIEW_SECONDS} s from the player’s frame to check the zones and settings, then track the
                animal through the whole video.
              </CardDescription>
            </CardHeader>
            <CardContent className="grid grid-cols-1 gap-3">
              <div className="flex flex-wrap items-center gap-2">
                <Button
                  variant="outline"
                  onClick={startPreview}
                  disabled={readOnly || preview.isPending || fromPose}
                  title={fromPose ? 'Positions from a pose body part need no preview: run it.' : undefined}
                >
                  {preview.isPending ? (
                    <Loader2 className="animate-spin" aria-hidden="true" />
                  ) : (
                    <Eye aria-hidden="true" />
                  )}
                  Preview
                </Button>
                <Button
                  onClick={startRun}
                  disabled={readOnly || create.isPending || (shownRun ? isRunActive(shownRun) : false)}
                >
                  {create.isPending ? (
                    <Loader2 className="animate-spin" aria-hidden="true" />
                  ) : (
                    <Play aria-hidden="true" />
                  )}
                  Run
                </Button>
                <SaveAsProtocolButton
                  projectUuid={projectUuid}
                  kind={LOCATION_KIND}
                  readParameters={requestParameters}
                  onParameterErrors={showServerErrors}
                />
                {readOnly ? (
                  <span className="text-muted-foreground text-xs">Viewers can open results but not run analyses.</span>
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
              <LocationPreviewPanel
                shown={previewShown}
                pending={preview.isPending}
                onSeek={(time) => void player.seekTime(time)}
              />
            </CardContent>
          </Card>
        </div>

        <div className="grid grid-cols-1 content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle>Zones and scale</CardTitle>
            </CardHeader>
            <CardContent>
              <ShapeList
                layout={layout}
                onChange={setLayout}
                selectedId={selectedId}
                onSelect={setSelectedId}
                errors={layoutErrors}
              />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Settings</CardTitle>
              <CardDescription>The defaults suit most open-field videos.</CardDescription>
            </CardHeader>
            <CardContent>
              <div className="grid grid-cols-1 gap-6">
                {poseSets.length > 0 || fromPose ? (
                  <PositionSource sets={poseSets} values={values} onChange={setValues} errors={fieldErrors} />
                ) : null}
                <ParameterControls
                  values={values}
                  onChange={setValues}
                  errors={fieldErrors}
                  trackerSettings={!fromPose}
                />
                {fromPose ? null : (
                  <ReferenceChoice
                    projectUuid={projectUuid}
                    video={video}
                    value={values.reference}
                    onChange={(reference) => setValues({ ...values, reference })}
                    currentFrame={() => player.currentFrame()}
                    errors={fieldErrors}
                  />
                )}
              </div>
            </CardContent>
          </Card>
        </div>
      </div>

      {runUuid && !edit ? (
        <Card data-testid="run-result">
          <CardHeader className="flex flex-wrap items-start justify-between gap-2">
            <CardTitle>Result</CardTitle>
            {shownRun ? (
              <SaveAsProtocolButton
                projectUuid={projectUuid}
                kind={LOCATION_KIND}
                label="Save this run’s settings as protocol"
                readParameters={() => shownRun.parameters}
              />
            ) : null}
          </CardHeader>
          <CardContent className="grid grid-cols-1 gap-6">
            {shownRun ? (
              <>
                <RunStatus
                  variant="panel"
                  run={shownRun}
                  onStop={readOnly ? undefined : () => revoke.mutate(shownRun.analysis_uuid)}
                  stopping={revoke.isPending}
                />
                {shownRun.status === 'succeeded' ? (
                  <LocationResult videoRef={ref} run={shownRun} player={player} />
                ) : null}
              </>
            ) : urlRun.isError || (urlRun.data && urlRun.data.kind !== LOCATION_KIND) ? (
              <p className="text-destructive text-sm">This run could not be loaded here.</p>
            ) : (
              <p className="flex items-center gap-2 text-muted-foreground text-sm">
                <Loader2 className="size-4 animate-spin" aria-hidden="true" />
                Loading the run…
              </p>
            )}
          </CardContent>
        </Card>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle>Location runs of this video</CardTitle>
          <CardDescription>Open an earlier run, or start from its zones and settings.</CardDescription>
        </CardHeader>
        <CardContent>
          <LocationRuns
            runs={runList}
            loading={runs.isLoading}
            openUuid={runUuid && !edit ? runUuid : null}
            onOpen={(uuid) => openRun(uuid)}
            onEdit={(uuid) => openRun(uuid, { edit: true })}
          />
        </CardContent>
      </Card>
    </div>
  );
}
