import { useQuery } from '@tanstack/react-query';
import { Activity, Film, ListChecks, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '@/components/layout/empty-state';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { NativeSelect } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { type AnalysisRun, analysisQueries } from '@/features/analysis/api';
import { runCountsLabel } from '@/features/analysis/event-counts';
import { KIND_LABELS } from '@/features/analysis/labels';
import { movementDetectorPath } from '@/features/movement-detector/links';
import { useActiveProject } from '@/features/projects/hooks/active-project-context';
import { ScoringGate } from '@/features/scorers/components/scoring-gate';
import { subjectQueries } from '@/features/subjects/api';
import { videoQueries } from '@/features/videos/api';
import { formatDuration } from '@/lib/format';
import { patchSearchParams } from '@/lib/search-params';
import { useDefaultRun } from '../hooks/use-default-run';
import { readQuickScoreSearch } from '../links';
import { KeysPausedNotice } from './keys-paused-notice';
import { ReviewWorkspace } from './review-workspace';

const LIST_SIZE = 500;
const RUN_LIST_SIZE = 100;

const runDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const runOption = (run: AnalysisRun) =>
  `${runDate.format(new Date(run.created_at))} · ${KIND_LABELS[run.kind]} · ${runCountsLabel(run)}`;

/**
 * Quick Score: pick subject → video → run (kept in the URL, the Movement Detector's names; when nothing is named, the
 * run last reviewed here or the project's newest with events — see useDefaultRun), then review its events.
 */
export function QuickScorePage({ projectUuid }: { projectUuid: string }) {
  const [params, setParams] = useSearchParams();
  const target = readQuickScoreSearch(params);
  const { project } = useActiveProject();
  const canEdit = project ? project.role !== 'viewer' && project.status !== 'locked' : false;

  const subjects = useQuery(subjectQueries.list(projectUuid, { page_size: LIST_SIZE, ordering: 'name' }));
  const videos = useQuery({
    ...videoQueries.list(projectUuid, target.subject ?? '', { page_size: LIST_SIZE }),
    enabled: target.subject !== null,
  });
  const runs = useQuery({
    ...analysisQueries.list(projectUuid, { video: target.video ?? '', status: 'succeeded', page_size: RUN_LIST_SIZE }),
    enabled: target.video !== null,
  });

  const subjectList = subjects.data?.results ?? [];
  const subject = subjectList.find((s) => s.subject_uuid === target.subject) ?? null;
  const videoList = videos.data?.results ?? [];
  const video = videoList.find((v) => v.video_uuid === target.video) ?? null;
  const runList = runs.data?.results ?? [];
  const run = runList.find((r) => r.analysis_uuid === target.run) ?? null;

  const navigate = (patch: Record<string, string | null>, replace = false) =>
    setParams((prev) => patchSearchParams(prev, patch), { replace });

  // Nothing named, or a video without a run: the run to open (never one with 0 events while one has events).
  const defaultRun = useDefaultRun({ projectUuid, target, videoRuns: runs.data?.results, navigate });

  const detector = (extra: Parameters<typeof movementDetectorPath>[1] = {}) => movementDetectorPath(projectUuid, extra);

  let body: ReactNode;
  if (subjects.isLoading || (target.subject === null && defaultRun.loading)) {
    body = <Skeleton className="h-96" />;
  } else if (subjectList.length === 0) {
    body = (
      <EmptyState
        icon={<Users aria-hidden="true" />}
        title="No subjects yet"
        text="Quick Score reviews the events found in a subject’s videos. Add a subject and a video, run the Movement Detector, then come back."
        action={
          <Button asChild>
            <Link to={`/projects/${projectUuid}/subjects`}>Go to Subjects</Link>
          </Button>
        }
      />
    );
  } else if (!subject) {
    body = (
      <EmptyState
        icon={<ListChecks aria-hidden="true" />}
        title={target.subject ? 'This subject is not in the project' : 'No analysis to review yet'}
        text="Choose a subject, a video and one of its finished runs above, or find events with the Movement Detector."
        action={
          <Button asChild variant="outline">
            <Link to={detector()}>
              <Activity aria-hidden="true" />
              Open the Movement Detector
            </Link>
          </Button>
        }
      />
    );
  } else if (videos.isLoading) {
    body = <Skeleton className="h-96" />;
  } else if (!video) {
    body = (
      <EmptyState
        icon={<Film aria-hidden="true" />}
        title={videoList.length === 0 ? `No videos for ${subject.name}` : 'Choose a video'}
        text={
          videoList.length === 0
            ? 'Upload a recording on the subject’s page.'
            : 'Pick one of the subject’s videos above.'
        }
      />
    );
  } else if (runs.isLoading) {
    body = <Skeleton className="h-96" />;
  } else if (runList.length === 0) {
    body = (
      <EmptyState
        icon={<Activity aria-hidden="true" />}
        title={`No finished analysis of ${video.name}`}
        text="Run the Movement Detector on this video; its events can be reviewed here as soon as it has finished."
        action={
          <Button asChild>
            <Link to={detector({ subject: subject.subject_uuid, video: video.video_uuid })}>
              Open the Movement Detector
            </Link>
          </Button>
        }
      />
    );
  } else if (!run) {
    body = <EmptyState title="This run is not a finished run of the video" text="Choose one of its runs above." />;
  } else {
    body = (
      <ScoringGate key={run.analysis_uuid} run={run} canEdit={canEdit}>
        {(scoring) => (
          <ReviewWorkspace
            key={scoring}
            projectUuid={projectUuid}
            video={video}
            run={run}
            canEdit={canEdit}
            scoring={scoring}
          />
        )}
      </ScoringGate>
    );
  }

  return (
    <PageContainer className="max-w-[96rem]">
      <PageHeader
        title="Quick Score"
        description="Confirm detected events clip by clip, by keyboard: every action is saved at once."
      />
      <div className="grid grid-cols-1 gap-6">
        {subjectList.length > 0 ? (
          <Card className="py-4">
            <CardContent className="flex flex-col gap-4 sm:flex-row sm:flex-wrap sm:items-end">
              <Picker
                id="qs-subject"
                label="Subject"
                value={subject?.subject_uuid ?? ''}
                placeholder="Choose a subject"
                onChange={(uuid) => navigate({ subject: uuid, video: null, run: null })}
                options={subjectList.map((s) => ({
                  value: s.subject_uuid,
                  text: `${s.name}${s.group ? ` (${s.group})` : ''}`,
                }))}
              />
              <Picker
                id="qs-video"
                label="Video"
                value={video?.video_uuid ?? ''}
                placeholder={subject && videoList.length === 0 && !videos.isLoading ? 'No videos' : 'Choose a video'}
                disabled={!subject || videoList.length === 0}
                onChange={(uuid) => navigate({ video: uuid, run: null })}
                options={videoList.map((v) => ({
                  value: v.video_uuid,
                  text: `${v.name} (${formatDuration(v.duration_s)})`,
                }))}
              />
              <Picker
                id="qs-run"
                label="Run"
                value={run?.analysis_uuid ?? ''}
                placeholder={video && runList.length === 0 && !runs.isLoading ? 'No finished runs' : 'Choose a run'}
                disabled={!video || runList.length === 0}
                onChange={(uuid) => navigate({ run: uuid })}
                options={runList.map((r) => ({ value: r.analysis_uuid, text: runOption(r) }))}
                wide
              />
            </CardContent>
          </Card>
        ) : null}
        {body}
      </div>
      {run ? <KeysPausedNotice /> : null}
    </PageContainer>
  );
}

function Picker({
  id,
  label,
  value,
  placeholder,
  options,
  onChange,
  disabled,
  wide,
}: {
  id: string;
  label: string;
  value: string;
  placeholder: string;
  options: { value: string; text: string }[];
  onChange: (value: string) => void;
  disabled?: boolean;
  wide?: boolean;
}) {
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="font-medium text-sm">
        {label}
      </label>
      <NativeSelect
        id={id}
        value={value}
        disabled={disabled}
        onChange={(event) => {
          onChange(event.target.value);
          // Back to the page's keys: arrows in a focused select would change the selection.
          event.target.blur();
        }}
        className={wide ? 'min-w-72' : 'min-w-48'}
      >
        <option value="" disabled>
          {placeholder}
        </option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.text}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
