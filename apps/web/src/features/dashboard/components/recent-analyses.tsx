import { useQuery } from '@tanstack/react-query';
import { ArrowRight, ClipboardList, ListChecks } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { analysisQueries } from '@/features/analysis/api';
import { EventCountsInline } from '@/features/analysis/components/event-counts';
import { RunStatus } from '@/features/analysis/components/run-status';
import { KIND_LABELS } from '@/features/analysis/labels';
import { quickScorePath } from '@/features/quick-score/links';
import { formatDate } from '@/lib/format';
import { EmptyNote } from './empty-note';

const SHOWN = 5;

/** The project's latest runs, newest first: what ran on which video, its events, and Quick Score for finished ones. */
export function RecentAnalyses({ projectUuid }: { projectUuid: string }) {
  const { data, isLoading, isError } = useQuery(analysisQueries.list(projectUuid, { page_size: SHOWN }));
  const runs = data?.results ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent analyses</CardTitle>
        <CardDescription>Movement detection and scoring runs of this project.</CardDescription>
        <CardAction>
          <Button asChild variant="ghost" size="sm">
            <Link to={`/projects/${projectUuid}/analysis-logs`}>
              Analysis Logs <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <div className="grid grid-cols-1 gap-3">
            <Skeleton className="h-12" />
            <Skeleton className="h-12" />
          </div>
        ) : isError || runs.length === 0 ? (
          <EmptyNote
            icon={ClipboardList}
            title="No analyses yet"
            text="Runs of the Movement Detector will be listed here with their status and results."
          />
        ) : (
          <ul className="divide-y" aria-label="Recent analyses">
            {runs.map((run) => (
              <li key={run.analysis_uuid} className="flex items-center gap-3 py-2.5" data-testid="recent-analysis">
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium text-sm">
                    {run.video_name} <span className="font-normal text-muted-foreground">· {run.subject_name}</span>
                  </p>
                  <p className="truncate text-muted-foreground text-xs">
                    {KIND_LABELS[run.kind]} · {formatDate(run.created_at)}
                    {run.event_counts ? (
                      <>
                        {' · '}
                        <span data-testid="recent-analysis-events">
                          <EventCountsInline counts={run.event_counts} />
                        </span>
                      </>
                    ) : null}
                  </p>
                </div>
                {run.status === 'succeeded' ? (
                  <Button asChild variant="outline" size="sm">
                    <Link
                      to={quickScorePath(projectUuid, {
                        subject: run.subject_uuid,
                        video: run.video_uuid,
                        run: run.analysis_uuid,
                      })}
                      aria-label={`Quick Score: ${KIND_LABELS[run.kind]} of ${run.video_name}`}
                    >
                      <ListChecks aria-hidden="true" />
                      Quick Score
                    </Link>
                  </Button>
                ) : (
                  <RunStatus run={run} />
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
