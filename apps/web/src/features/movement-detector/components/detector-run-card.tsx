import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Loader2, Scale } from 'lucide-react';
import { Link } from 'react-router';
import type { PlayerController } from '@/components/player/player-controller';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CalibratePanel } from '@/features/agreement/components/calibrate-panel';
import { agreementPath } from '@/features/agreement/links';
import { type AnalysisRun, analysisApi, analysisKeys, type VideoRef } from '@/features/analysis/api';
import { RunStatus } from '@/features/analysis/components/run-status';
import { KIND_LABELS } from '@/features/analysis/labels';
import { SaveAsProtocolButton } from '@/features/protocols/components/save-as-protocol';
import { RunResult } from './run-result';

/**
 * The run named in the URL: its status (Stop while it works), its result and the Calibrate panel once it has
 * succeeded, the Agreement view, and "Save as protocol" with the settings it used.
 */
export function DetectorRunCard({
  videoRef,
  run,
  loadFailed,
  compareRun,
  player,
  readOnly,
  onOpenRun,
}: {
  videoRef: VideoRef;
  /** Undefined while it loads (or when it could not be loaded). */
  run: AnalysisRun | undefined;
  loadFailed: boolean;
  compareRun: AnalysisRun | null;
  player: PlayerController;
  readOnly: boolean;
  onOpenRun: (uuid: string) => void;
}) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: (uuid: string) => analysisApi.revoke(videoRef, uuid),
    onSuccess: (revoked) => {
      queryClient.setQueryData(analysisKeys.run(revoked.analysis_uuid), revoked);
      void queryClient.invalidateQueries({ queryKey: analysisKeys.lists() });
    },
  });
  // A run's stored parameters pass a protocol's checks as they are (ADR 031).
  const protocolKind = run?.kind === 'movement_detection' || run?.kind === 'event_detection' ? run.kind : null;

  return (
    <Card data-testid="run-result">
      <CardHeader className="flex flex-wrap items-start gap-2">
        <div className="grid min-w-0 flex-1 gap-1.5">
          <CardTitle>Result</CardTitle>
          {run ? (
            <CardDescription>
              {KIND_LABELS[run.kind]} · {run.software_version}
            </CardDescription>
          ) : null}
        </div>
        {run && protocolKind ? (
          <SaveAsProtocolButton
            projectUuid={videoRef.projectUuid}
            kind={protocolKind}
            label="Save this run’s settings as protocol"
            readParameters={() => run.parameters}
          />
        ) : null}
        {run?.status === 'succeeded' ? (
          <Button variant="outline" size="sm" asChild>
            <Link
              to={agreementPath(videoRef.projectUuid, {
                subject: videoRef.subjectUuid,
                video: videoRef.videoUuid,
                candidate: { kind: 'run_reviewed', analysisUuid: run.analysis_uuid },
              })}
            >
              <Scale aria-hidden="true" />
              Agreement
            </Link>
          </Button>
        ) : null}
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-6">
        {run ? (
          <>
            <RunStatus
              variant="panel"
              run={run}
              onStop={readOnly ? undefined : () => revoke.mutate(run.analysis_uuid)}
              stopping={revoke.isPending}
            />
            {run.status === 'succeeded' ? (
              <>
                <RunResult videoRef={videoRef} run={run} compareRun={compareRun} player={player} />
                <CalibratePanel
                  key={run.analysis_uuid}
                  videoRef={videoRef}
                  run={run}
                  readOnly={readOnly}
                  onApplied={onOpenRun}
                />
              </>
            ) : null}
          </>
        ) : loadFailed ? (
          <p className="text-destructive text-sm">This run could not be loaded.</p>
        ) : (
          <p className="flex items-center gap-2 text-muted-foreground text-sm">
            <Loader2 className="size-4 animate-spin" aria-hidden="true" />
            Loading the run…
          </p>
        )}
      </CardContent>
    </Card>
  );
}
