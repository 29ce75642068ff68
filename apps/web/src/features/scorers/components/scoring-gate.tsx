import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EyeOff, Users } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { type AnalysisRun, runRef } from '@/features/analysis/api';
import { useSession } from '@/features/auth/hooks/use-session';
import { errorMessage } from '@/lib/errors';
import {
  consensusChoice,
  initialMode,
  othersWhoScored,
  type ScoringMode,
  scorerApi,
  scorerKeys,
  scorerQueries,
} from '../api';

/**
 * Decides which events Quick Score reviews (ADR 014): a member who opens a run others have scored is asked whether to
 * score it blind or work on the consensus; a blind scorer sees only their own decisions unless they switch to the
 * consensus. Viewers always see the consensus.
 */
export function ScoringGate({
  run,
  canEdit,
  children,
}: {
  run: AnalysisRun;
  canEdit: boolean;
  children: (mode: ScoringMode) => ReactNode;
}) {
  const { user } = useSession();
  const meId = user?.id ?? 0;
  const ref = useMemo(() => runRef(run), [run]);
  const queryClient = useQueryClient();
  const scorers = useQuery({ ...scorerQueries.list(ref, run.analysis_uuid), enabled: canEdit });
  const [chosen, setChosen] = useState<ScoringMode | null>(null);
  const start = useMutation({
    mutationFn: () => scorerApi.start(ref, run.analysis_uuid),
    onSuccess: (answer) => {
      queryClient.setQueryData(scorerKeys.list(run.analysis_uuid), answer);
      setChosen('mine');
    },
  });

  if (!canEdit) return children('consensus');
  if (scorers.isLoading) return <Skeleton className="h-96" />;
  // Without the list (a failed read) the consensus is what the page has always shown.
  const data = scorers.data;
  const mode = chosen ?? (data ? initialMode(data, meId, consensusChoice.read(meId, run.analysis_uuid)) : 'consensus');

  if (mode === 'ask' && data) {
    const others = othersWhoScored(data, meId);
    return (
      <Card data-testid="scorer-choice" className="mx-auto w-full max-w-2xl">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Users aria-hidden="true" className="size-5" />
            Others have scored this run
          </CardTitle>
          <CardDescription>
            {others.join(' · ')}. Score it blind, on your own, for an inter-rater comparison — you will see the events
            as detected and only your own decisions — or work on their consensus.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3 sm:flex-row">
          <Button onClick={() => start.mutate()} disabled={start.isPending}>
            <EyeOff aria-hidden="true" />
            Score blind, on my own
          </Button>
          <Button
            variant="outline"
            onClick={() => {
              consensusChoice.remember(meId, run.analysis_uuid);
              setChosen('consensus');
            }}
          >
            Work on the consensus
          </Button>
          {start.isError ? (
            <p role="alert" className="text-destructive text-sm">
              {errorMessage(start.error)}
            </p>
          ) : null}
        </CardContent>
      </Card>
    );
  }

  const current: ScoringMode = mode === 'mine' ? 'mine' : 'consensus';
  return (
    <div className="grid gap-3">
      {data?.mine ? (
        <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="scoring-mode">
          {current === 'mine' ? (
            <span>
              <strong>Your blind scoring</strong>
              <span className="text-muted-foreground"> — the events as detected, with only your decisions.</span>
            </span>
          ) : (
            <span>
              <strong>The consensus</strong>
              <span className="text-muted-foreground"> — the run’s events, which counts and exports read.</span>
            </span>
          )}
          <Button size="sm" variant="outline" onClick={() => setChosen(current === 'mine' ? 'consensus' : 'mine')}>
            {current === 'mine' ? 'Show the consensus' : 'Back to my scoring'}
          </Button>
        </div>
      ) : null}
      {children(current)}
    </div>
  );
}
