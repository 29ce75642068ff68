import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, Loader2, RefreshCw } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { nearestFrame } from '@/components/player/frames';
import { usePlayer } from '@/components/player/player-controller';
import { PlayerControls } from '@/components/player/player-controls';
import { transportKeys } from '@/components/player/player-keys';
import { VideoPlayer } from '@/components/player/video-player';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { analysisQueries, type VideoRef } from '@/features/analysis/api';
import { annotationKeys, annotationQueries } from '@/features/annotator/api';
import type { Video } from '@/features/videos/api';
import { playerFacts, playerSource } from '@/features/videos/player-source';
import { ApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/errors';
import { type AgreementBody, type AgreementReport, agreementApi, type ExportFormat } from '../api';
import { disagreementsOf } from '../disagreements';
import { type Scoring, scoringRequest } from '../scorings';
import { EventFiguresView, IntervalFiguresView } from './agreement-figures';
import { AgreementTimeline } from './agreement-timeline';
import { DecisionFiguresView } from './decision-figures';
import { DefinitionsPanel } from './definitions-panel';
import { DisagreementList } from './disagreement-list';
import { ScoringPicker } from './scoring-picker';

/** How long the choice must stay unchanged before the server is asked. */
const SETTLE_MS = 300;

interface Options {
  tolerance: string;
  /** Empty: one frame. */
  slice: string;
  bin: string;
}

/** The options as numbers, or the message of each field that is not one it can take. */
export function parseOptions(options: Options) {
  const errors: Record<string, string[]> = {};
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  const tolerance = number(options.tolerance);
  if (!(tolerance >= 0 && tolerance <= 60)) errors.tolerance_s = ['Between 0 and 60 s.'];
  const slice = options.slice.trim() === '' ? undefined : number(options.slice);
  if (slice !== undefined && !(slice > 0 && slice <= 3600))
    errors.slice_s = ['More than 0 s, at most 3600 s; empty: one frame.'];
  const bin = number(options.bin);
  if (!(bin > 0 && bin <= 86400)) errors.bin_s = ['More than 0 s, at most 86400 s.'];
  return Object.keys(errors).length > 0
    ? ({ ok: false, errors } as const)
    : ({
        ok: true,
        values: { tolerance_s: tolerance, bin_s: bin, ...(slice === undefined ? {} : { slice_s: slice }) },
      } as const);
}

/**
 * The Agreement view for one video: two scorings picked (from the URL or here), compared by the server as soon as both
 * are complete; the figures with their meanings, the 2×2 table, a timeline of matched / missed / extra marks, and the
 * disagreements stepped through in the shared player, each playing its clip.
 */
export function AgreementWorkspace({
  projectUuid,
  video,
  initialReference,
  initialCandidate,
  onScorings,
}: {
  projectUuid: string;
  video: Video;
  initialReference: Scoring | null;
  initialCandidate: Scoring | null;
  /** The chosen scorings, for the page's URL. */
  onScorings: (reference: Scoring, candidate: Scoring) => void;
}) {
  const ref: VideoRef = useMemo(
    () => ({ projectUuid, subjectUuid: video.subject_uuid, videoUuid: video.video_uuid }),
    [projectUuid, video.subject_uuid, video.video_uuid],
  );
  const runs = useQuery(analysisQueries.list(projectUuid, { video: video.video_uuid, page_size: 100 }));
  const tracks = useQuery(annotationQueries.tracks(ref));
  const [reference, setReference] = useState<Scoring>(initialReference ?? { kind: 'track' });
  const [candidate, setCandidate] = useState<Scoring>(initialCandidate ?? { kind: 'run_reviewed' });
  const [options, setOptions] = useState<Options>({ tolerance: '0.2', slice: '', bin: '60' });
  const parsed = parseOptions(options);

  useEffect(() => onScorings(reference, candidate), [reference, candidate, onScorings]);

  const bodyKey = useMemo(() => {
    const referenceSide = scoringRequest(reference);
    const candidateSide = scoringRequest(candidate);
    if (!referenceSide || !candidateSide || !parsed.ok) return null;
    return JSON.stringify({ reference: referenceSide, candidate: candidateSide, ...parsed.values });
  }, [reference, candidate, parsed]);

  const queryClient = useQueryClient();
  const compare = useMutation({
    mutationFn: (key: string) => agreementApi.compare(ref, JSON.parse(key) as AgreementBody),
    // The timeline draws the tracks' bouts: read them again, as the server just did.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: [...annotationKeys.all, 'ranges'] }),
  });
  const { mutate } = compare;
  // Asked once the choice has settled: typing a tolerance sends only the number typed.
  useEffect(() => {
    if (!bodyKey) return;
    const timer = setTimeout(() => mutate(bodyKey), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [bodyKey, mutate]);
  // Only the answer to what is chosen now is shown.
  const report: AgreementReport | undefined = compare.variables === bodyKey ? compare.data : undefined;
  const serverErrors =
    compare.error instanceof ApiError && compare.variables === bodyKey ? compare.error.fieldErrors : {};
  const sideErrors = (side: 'reference' | 'candidate') =>
    Object.entries(serverErrors)
      .filter(([field]) => field === side || field.startsWith(`${side}.`))
      .flatMap(([, messages]) => messages);

  const player = usePlayer(playerFacts(video));
  const duration = Math.max(video.duration_s ?? 0, player.frameCount / player.fps);
  const items = useMemo(
    () => (report ? disagreementsOf(report, player.fps, player.frameCount) : []),
    [report, player.fps, player.frameCount],
  );
  // The open disagreement belongs to the report it was chosen in.
  const [selection, setSelection] = useState<{ report: AgreementReport; index: number } | null>(null);
  const current = report && selection?.report === report ? selection.index : null;
  const open = (index: number) => {
    const item = items[index];
    if (!item || !report) return;
    setSelection({ report, index });
    void player.playClip(item.clip, { rest: nearestFrame(item.start, player.fps) });
    player.preloadClip(items[index + 1]?.clip ?? null);
  };
  const step = (direction: 1 | -1) => {
    if (items.length === 0) return;
    const next = current === null ? (direction === 1 ? 0 : items.length - 1) : current + direction;
    open(Math.min(items.length - 1, Math.max(0, next)));
  };
  const transport = transportKeys(player);
  const onPlayerKey = (event: React.KeyboardEvent<HTMLElement>) => {
    if (event.key === 'n' || event.key === 'p') {
      event.preventDefault();
      step(event.key === 'n' ? 1 : -1);
    } else if (event.key === 'r' && current !== null) {
      event.preventDefault();
      open(current);
    } else transport(event);
  };

  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const download = async (format: ExportFormat) => {
    if (!bodyKey) return;
    setExporting(format);
    try {
      await agreementApi.exportReport(ref, JSON.parse(bodyKey) as AgreementBody, format);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setExporting(null);
    }
  };

  const setOption = (key: keyof Options) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setOptions((prev) => ({ ...prev, [key]: event.target.value }));
  const optionErrors = (field: string) =>
    parsed.ok ? serverErrors[field] : (parsed.errors[field] ?? serverErrors[field]);
  const rangesOf = (scoring: Scoring): [number, number][] | null => {
    if (scoring.kind === 'upload') return scoring.upload?.ranges ?? null;
    return null;
  };
  const trackRanges = useTrackRanges(ref, [reference, candidate]);
  const selected = current === null ? null : (items[current] ?? null);

  return (
    <div className="grid grid-cols-1 gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Scorings</CardTitle>
          <CardDescription>
            R is the reference (e.g. a trained scorer), C the candidate compared with it.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-4">
          <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
            <ScoringPicker
              id="agreement-reference"
              title="Reference (R)"
              videoRef={ref}
              scoring={reference}
              onChange={setReference}
              runs={runs.data?.results ?? []}
              tracks={tracks.data ?? []}
              errors={sideErrors('reference')}
            />
            <ScoringPicker
              id="agreement-candidate"
              title="Candidate (C)"
              videoRef={ref}
              scoring={candidate}
              onChange={setCandidate}
              runs={runs.data?.results ?? []}
              tracks={tracks.data ?? []}
              errors={sideErrors('candidate')}
            />
          </div>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
            <Field
              id="agreement-tolerance"
              label="Tolerance τ (s)"
              description="Largest |C − R| of a matched pair."
              errors={optionErrors('tolerance_s')}
            >
              <Input
                {...fieldAria('agreement-tolerance', optionErrors('tolerance_s'))}
                inputMode="decimal"
                value={options.tolerance}
                onChange={setOption('tolerance')}
              />
            </Field>
            <Field
              id="agreement-slice"
              label="Slice (s)"
              description="Empty: one frame. A sampling step, not a tolerance."
              errors={optionErrors('slice_s')}
            >
              <Input
                {...fieldAria('agreement-slice', optionErrors('slice_s'))}
                inputMode="decimal"
                placeholder="one frame"
                value={options.slice}
                onChange={setOption('slice')}
              />
            </Field>
            <Field
              id="agreement-bin"
              label="Bin (s)"
              description="For the % of time per bin, r and slope."
              errors={optionErrors('bin_s')}
            >
              <Input
                {...fieldAria('agreement-bin', optionErrors('bin_s'))}
                inputMode="decimal"
                value={options.bin}
                onChange={setOption('bin')}
              />
            </Field>
          </div>
          <DefinitionsPanel />
        </CardContent>
      </Card>

      <Card data-testid="agreement-result">
        <CardHeader className="flex flex-wrap items-start gap-2">
          <div className="grid min-w-0 flex-1 gap-1">
            <CardTitle>Agreement</CardTitle>
            <CardDescription>
              {report ? (
                <>
                  <span className="block">R: {report.reference.description}</span>
                  <span className="block">C: {report.candidate.description}</span>
                </>
              ) : bodyKey ? (
                'Comparing…'
              ) : (
                'Choose both scorings to compare them.'
              )}
            </CardDescription>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="ghost"
              size="sm"
              onClick={() => bodyKey && mutate(bodyKey)}
              disabled={!bodyKey || compare.isPending}
            >
              {compare.isPending ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <RefreshCw aria-hidden="true" />
              )}
              Compare again
            </Button>
            {(['csv', 'xlsx'] as const).map((format) => (
              <Button
                key={format}
                variant="outline"
                size="sm"
                onClick={() => void download(format)}
                disabled={!report || exporting !== null}
              >
                <Download aria-hidden="true" />
                Report {format.toUpperCase()}
              </Button>
            ))}
          </div>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-6">
          {report ? (
            <>
              <EventFiguresView events={report.events} toleranceS={report.tolerance_s} />
              {report.decisions ? (
                <DecisionFiguresView
                  decisions={report.decisions}
                  videoRef={ref}
                  reference={reference}
                  candidate={candidate}
                  onResolved={() => bodyKey && mutate(bodyKey)}
                />
              ) : null}
              {report.intervals ? (
                <IntervalFiguresView intervals={report.intervals} />
              ) : (
                <p className="text-muted-foreground text-sm">
                  Interval agreement needs ranges on both sides: an annotation track, or an uploaded CSV of ranges.
                </p>
              )}
            </>
          ) : compare.isError && compare.variables === bodyKey ? (
            <p role="alert" className="text-destructive text-sm">
              {errorMessage(compare.error)}
            </p>
          ) : null}
        </CardContent>
      </Card>

      {report ? (
        <Card>
          <CardHeader>
            <CardTitle>Disagreements</CardTitle>
            <CardDescription>
              Each opens its clip in the player. Keys on the player: N next, P previous, R replay.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid grid-cols-1 gap-4">
            <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
              <VideoPlayer
                player={player}
                source={playerSource(video)}
                standby
                maxHeight="45vh"
                onKeyDown={onPlayerKey}
                controls={<PlayerControls player={player} id={`agreement-rate-${video.video_uuid}`} />}
              />
              <DisagreementList items={items} current={current} onOpen={open} onStep={step} />
            </div>
            <AgreementTimeline
              data={{
                duration,
                report,
                referenceRanges: trackRanges.get(reference) ?? rangesOf(reference),
                candidateRanges: trackRanges.get(candidate) ?? rangesOf(candidate),
                selected,
              }}
              playhead={player.clock}
              onSeek={(time) => void player.seekTime(time)}
            />
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}

/** The bouts of the tracks among the scorings, for the timeline (the server compared the same lists). */
function useTrackRanges(ref: VideoRef, scorings: Scoring[]) {
  const uuids = scorings.flatMap((s) => (s.kind === 'track' && s.trackUuid ? [s.trackUuid] : []));
  const first = useQuery({ ...annotationQueries.ranges(ref, uuids[0] ?? ''), enabled: uuids[0] !== undefined });
  const second = useQuery({ ...annotationQueries.ranges(ref, uuids[1] ?? ''), enabled: uuids[1] !== undefined });
  return useMemo(() => {
    const byUuid = new Map<string, [number, number][]>();
    for (const answer of [first.data, second.data])
      if (answer) byUuid.set(answer.annotation_config_uuid, answer.ranges);
    return {
      get: (scoring: Scoring) =>
        scoring.kind === 'track' && scoring.trackUuid ? (byUuid.get(scoring.trackUuid) ?? null) : null,
    };
  }, [first.data, second.data]);
}
