import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Loader2 } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { usePlayer } from '@/components/player/player-controller';
import { PlayerControls } from '@/components/player/player-controls';
import { transportKeys } from '@/components/player/player-keys';
import { VideoPlayer } from '@/components/player/video-player';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { type AnalysisRun, analysisApi, analysisKeys, analysisQueries, type VideoRef } from '@/features/analysis/api';
import { RunStatus } from '@/features/analysis/components/run-status';
import { type RunColumn, RunsTable } from '@/features/analysis/components/runs-table';
import { readsPoseSeries, seriesLabel, seriesName } from '@/features/analysis/series-names';
import { EventRerunDialog } from '@/features/analysis-logs/components/event-rerun-dialog';
import { RunResult } from '@/features/movement-detector/components/run-result';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import type { VideoToolWorkspaceProps } from '@/features/videos/components/video-tool-page';
import { playerFacts, playerSource } from '@/features/videos/player-source';
import { serverFieldErrors } from '@/lib/validation';
import { poseQueries } from '../api';
import {
  type FormErrors,
  formErrors,
  formFor,
  formFromRun,
  type SeriesForm,
  seriesParameters,
} from '../derived-series';
import { usePoseOverlay } from '../hooks/use-pose-overlay';
import { DerivedSeriesForm } from './derived-series-form';
import { PoseSeriesResult } from './pose-series-result';
import { PoseSets } from './pose-sets';

const SERIES_KIND = 'pose_series';

/**
 * The Pose page for one video: the player with the keypoints drawn on it, the derived-series builder, the open run
 * (a series on the shared chart with "Detect events", or an event detection on one with its events and the way to
 * Quick Score), the video's pose sets, and its series and detections. Keyed by video.
 */
export function PoseWorkspace({ projectUuid, video, runUuid, edit, readOnly, onOpenRun }: VideoToolWorkspaceProps) {
  const queryClient = useQueryClient();
  const permissions = useProjectPermissions();
  const ref: VideoRef = useMemo(
    () => ({ projectUuid, subjectUuid: video.subject_uuid, videoUuid: video.video_uuid }),
    [projectUuid, video.subject_uuid, video.video_uuid],
  );
  const player = usePlayer(playerFacts(video));
  const pose = usePoseOverlay({ projectUuid, video, player });
  const setsQuery = useQuery(poseQueries.sets(ref));
  const sets = useMemo(() => setsQuery.data?.results ?? [], [setsQuery.data]);

  const [chosen, setChosen] = useState<SeriesForm | null>(null);
  const [errors, setErrors] = useState<FormErrors>({});
  // The form is on the set it names while that set exists; else on the newest set.
  const newest = sets.at(-1);
  const form =
    chosen && sets.some((set) => set.pose_uuid === chosen.poseUuid) ? chosen : newest ? formFor(newest) : null;

  const runs = useQuery(analysisQueries.list(projectUuid, { video: video.video_uuid, page_size: 100 }));
  // The video's pose series and the detections on them (each run's answer says what its series is).
  const listed = useMemo(() => (runs.data?.results ?? []).filter(readsPoseSeries), [runs.data]);

  const urlRun = useQuery({ ...analysisQueries.run(ref, runUuid ?? ''), enabled: runUuid !== null });
  // "Reuse settings" (edit=1): the run's settings go into the builder once.
  const loaded = useRef<string | null>(null);
  useEffect(() => {
    const run = urlRun.data;
    if (!edit || !run || run.kind !== SERIES_KIND || loaded.current === run.analysis_uuid) return;
    const set = sets.find((item) => item.pose_uuid === run.parameters.pose_uuid);
    if (!set) return;
    loaded.current = run.analysis_uuid;
    setChosen(formFromRun(run, set));
    setErrors({});
  }, [edit, urlRun.data, sets]);

  const create = useMutation({
    mutationFn: (parameters: Record<string, unknown>) => analysisApi.create(ref, { kind: SERIES_KIND, parameters }),
    onSuccess: (run) => {
      queryClient.setQueryData(analysisKeys.run(run.analysis_uuid), run);
      void queryClient.invalidateQueries({ queryKey: analysisKeys.lists() });
      onOpenRun(run.analysis_uuid);
    },
    onError: (error) => setErrors(formErrors(serverFieldErrors(error))),
  });
  const revoke = useMutation({
    mutationFn: (uuid: string) => analysisApi.revoke(ref, uuid),
    onSuccess: (run) => {
      queryClient.setQueryData(analysisKeys.run(run.analysis_uuid), run);
      void queryClient.invalidateQueries({ queryKey: analysisKeys.lists() });
    },
  });
  const [detecting, setDetecting] = useState<AnalysisRun | null>(null);

  const compute = () => {
    const set = sets.find((item) => item.pose_uuid === form?.poseUuid);
    if (!form || !set) return;
    const read = seriesParameters(form, set);
    setErrors(read.ok ? {} : read.errors);
    if (read.ok) create.mutate(read.parameters);
  };

  const shown = runUuid && !edit ? urlRun.data : undefined;
  const columns: RunColumn[] = [
    {
      header: 'Series',
      beforeStatus: true,
      cell: (run) => (run.kind === SERIES_KIND ? seriesLabel(run) : `Events on: ${seriesLabel(run)}`),
    },
    {
      header: 'Events',
      numeric: true,
      cell: (run) => (run.kind === 'event_detection' && run.status === 'succeeded' ? (run.summary?.events ?? 0) : '—'),
    },
  ];

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_26rem]">
        <Card className="min-w-0 py-0">
          <VideoPlayer
            player={player}
            source={playerSource(video)}
            onKeyDown={transportKeys(player)}
            marks={pose.layer}
            controls={
              <>
                <PlayerControls player={player} id={`pose-rate-${video.video_uuid}`} seekBar />
                {pose.panel ? <div className="border-t px-4 py-3">{pose.panel}</div> : null}
              </>
            }
          />
        </Card>
        <Card className="content-start">
          <CardHeader>
            <CardTitle>Derived series</CardTitle>
            <CardDescription>
              Speed, a distance or an angle from the keypoints, one value per frame, for the chart and for events.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {setsQuery.isLoading ? (
              <Skeleton className="h-40" />
            ) : form ? (
              <DerivedSeriesForm
                sets={sets}
                form={form}
                onChange={(next) => {
                  setChosen(next);
                  setErrors({});
                }}
                errors={errors}
                onSubmit={compute}
                pending={create.isPending}
                disabled={readOnly}
              />
            ) : (
              <p className="text-muted-foreground text-sm">
                Import a pose file of this video (below) to derive series.
              </p>
            )}
          </CardContent>
        </Card>
      </div>

      {runUuid && !edit ? (
        <Card data-testid="run-result">
          <CardHeader>
            <CardTitle>
              {shown?.kind === 'event_detection'
                ? `Events on: ${seriesLabel(shown)}`
                : shown
                  ? seriesName(shown.parameters)
                  : 'Result'}
            </CardTitle>
          </CardHeader>
          <CardContent className="grid grid-cols-1 gap-6">
            {shown ? (
              <>
                <RunStatus
                  variant="panel"
                  run={shown}
                  onStop={readOnly ? undefined : () => revoke.mutate(shown.analysis_uuid)}
                  stopping={revoke.isPending}
                />
                {shown.status === 'succeeded' && shown.kind === SERIES_KIND ? (
                  <PoseSeriesResult
                    videoRef={ref}
                    run={shown}
                    player={player}
                    onDetect={readOnly ? undefined : () => setDetecting(shown)}
                  />
                ) : null}
                {shown.status === 'succeeded' && shown.kind === 'event_detection' ? (
                  <>
                    <RunResult videoRef={ref} run={shown} compareRun={null} player={player} />
                    {shown.source_analysis_uuid ? (
                      <div>
                        <Button variant="ghost" size="sm" onClick={() => onOpenRun(shown.source_analysis_uuid!)}>
                          <ArrowLeft aria-hidden="true" />
                          The series
                        </Button>
                      </div>
                    ) : null}
                  </>
                ) : null}
              </>
            ) : urlRun.isError ? (
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
          <CardTitle>Pose sets</CardTitle>
          <CardDescription>
            The keypoints imported for this video; the newest is drawn unless another is picked.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <PoseSets
            videoRef={ref}
            videoName={video.name}
            canEdit={permissions.canEditContent}
            canImport={permissions.canEditContent && permissions.canProcess}
          />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Series of this video</CardTitle>
          <CardDescription>Open a series or its events, or start from a series’ settings.</CardDescription>
        </CardHeader>
        <CardContent>
          {runs.isLoading ? (
            <Skeleton className="h-24" />
          ) : listed.length === 0 ? (
            <p className="text-muted-foreground text-sm">No series derived from this video’s keypoints yet.</p>
          ) : (
            <RunsTable
              label="Pose series of this video"
              runs={listed}
              openUuid={runUuid && !edit ? runUuid : null}
              columns={columns}
              canReuse={(run) => run.kind === SERIES_KIND && !readOnly}
              onOpen={(uuid) => onOpenRun(uuid)}
              onEdit={(uuid) => onOpenRun(uuid, { edit: true })}
            />
          )}
        </CardContent>
      </Card>

      <EventRerunDialog
        projectUuid={projectUuid}
        run={detecting}
        onOpenChange={(open) => !open && setDetecting(null)}
        onStarted={(run) => {
          queryClient.setQueryData(analysisKeys.run(run.analysis_uuid), run);
          onOpenRun(run.analysis_uuid);
        }}
      />
    </div>
  );
}
