import { useQuery } from '@tanstack/react-query';
import { Activity, Film, Loader2, Upload, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '@/components/layout/empty-state';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { NativeSelect } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { useActiveProject } from '@/features/projects/hooks/active-project-context';
import { subjectQueries } from '@/features/subjects/api';
import { type Video, videoQueries } from '@/features/videos/api';
import { VideoStatusBadge } from '@/features/videos/components/video-status-badge';
import { formatDuration, formatFps, formatResolution } from '@/lib/format';
import { patchSearchParams } from '@/lib/search-params';
import { type MD_PARAMS, readMovementDetectorSearch } from '../links';
import { DetectorWorkspace } from './detector-workspace';

const LIST_SIZE = 500;

/**
 * The Movement Detector: pick a subject and a video (kept in the URL), then draw ROIs, preview, run and read the
 * result. Empty states lead to where the missing piece is made.
 */
export function MovementDetectorPage({ projectUuid }: { projectUuid: string }) {
  const [params, setParams] = useSearchParams();
  const target = readMovementDetectorSearch(params);
  const { project } = useActiveProject();
  const readOnly = project?.role === 'viewer' || project?.status === 'locked';

  const subjects = useQuery(subjectQueries.list(projectUuid, { page_size: LIST_SIZE, ordering: 'name' }));
  // The same list (and key) as the subject page, so it polls while a video is processed.
  const videos = useQuery({
    ...videoQueries.list(projectUuid, target.subject ?? '', { page_size: LIST_SIZE }),
    enabled: target.subject !== null,
  });

  const subjectList = subjects.data?.results ?? [];
  const subject = subjectList.find((s) => s.subject_uuid === target.subject) ?? null;
  const videoList = videos.data?.results ?? [];
  const video = videoList.find((v) => v.video_uuid === target.video) ?? null;

  /** Sets the given keys (null removes) and drops those that depend on a changed one. */
  const navigate = (patch: Partial<Record<keyof typeof MD_PARAMS, string | null>>) =>
    setParams((prev) => patchSearchParams(prev, patch));
  const chooseSubject = (uuid: string) => navigate({ subject: uuid, video: null, run: null, edit: null });
  const chooseVideo = (uuid: string) => navigate({ video: uuid, run: null, edit: null });
  const openRun = (uuid: string, options?: { edit?: boolean }) =>
    navigate({ run: uuid, edit: options?.edit ? '1' : null });

  const subjectsPath = `/projects/${projectUuid}/subjects`;

  let body: ReactNode;
  if (subjects.isLoading) {
    body = <Skeleton className="h-64" />;
  } else if (subjects.isError) {
    body = <EmptyState title="The subjects could not be loaded." />;
  } else if (subjectList.length === 0) {
    body = (
      <EmptyState
        icon={<Users aria-hidden="true" />}
        title="No subjects yet"
        text="Movement detection runs on a subject’s videos. Add a subject, upload a video, then come back."
        action={
          <Button asChild>
            <Link to={subjectsPath}>Go to Subjects</Link>
          </Button>
        }
      />
    );
  } else if (!target.subject) {
    body = (
      <EmptyState
        icon={<Activity aria-hidden="true" />}
        title="Choose a subject and a video"
        text="Pick the recording to analyse above."
      />
    );
  } else if (!subject) {
    body = <EmptyState title="This subject is not in the project." text="Choose another subject above." />;
  } else if (videos.isLoading) {
    body = <Skeleton className="h-64" />;
  } else if (videos.isError) {
    body = <EmptyState title="The videos could not be loaded." />;
  } else if (videoList.length === 0) {
    body = (
      <EmptyState
        icon={<Film aria-hidden="true" />}
        title={`No videos for ${subject.name}`}
        text="Upload a recording on the subject’s page; it can be analysed once it is processed."
        action={
          <Button asChild>
            <Link to={`${subjectsPath}/${subject.subject_uuid}`}>
              <Upload aria-hidden="true" />
              Upload a video
            </Link>
          </Button>
        }
      />
    );
  } else if (!target.video) {
    body = (
      <EmptyState
        icon={<Film aria-hidden="true" />}
        title="Choose a video"
        text="Pick one of the subject’s videos above."
      />
    );
  } else if (!video) {
    body = <EmptyState title="This video is not in the subject." text="Choose another video above." />;
  } else if (video.status === 'failed') {
    body = (
      <EmptyState
        icon={<VideoStatusBadge status="failed" />}
        title="This video could not be processed"
        text={video.error || 'Upload it again from the subject’s page.'}
      />
    );
  } else if (video.status !== 'ready') {
    body = (
      <EmptyState
        icon={<Loader2 className="animate-spin" aria-hidden="true" />}
        title="This video is still being processed"
        text="It opens here as soon as it is ready; this page checks every few seconds."
      />
    );
  } else {
    body = (
      <DetectorWorkspace
        key={video.video_uuid}
        projectUuid={projectUuid}
        video={video}
        runUuid={target.run}
        edit={target.edit}
        readOnly={readOnly}
        onOpenRun={openRun}
      />
    );
  }

  return (
    <PageContainer className="max-w-7xl">
      <PageHeader
        title="Movement Detector"
        description="Count changed pixels inside time-based regions of interest, find movement events and freezing."
      />
      <div className="grid grid-cols-1 gap-6">
        {subjectList.length > 0 ? (
          <Card className="py-4">
            <CardContent className="flex flex-col gap-4 sm:flex-row sm:flex-wrap sm:items-end">
              <div className="grid gap-1.5">
                <label htmlFor="md-subject" className="font-medium text-sm">
                  Subject
                </label>
                <NativeSelect
                  id="md-subject"
                  value={subject?.subject_uuid ?? ''}
                  onChange={(event) => chooseSubject(event.target.value)}
                  className="min-w-56"
                >
                  <option value="" disabled>
                    Choose a subject
                  </option>
                  {subjectList.map((s) => (
                    <option key={s.subject_uuid} value={s.subject_uuid}>
                      {s.name}
                      {s.group ? ` (${s.group})` : ''}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <div className="grid gap-1.5">
                <label htmlFor="md-video" className="font-medium text-sm">
                  Video
                </label>
                <NativeSelect
                  id="md-video"
                  value={video?.video_uuid ?? ''}
                  onChange={(event) => chooseVideo(event.target.value)}
                  disabled={!subject || videoList.length === 0}
                  className="min-w-64"
                >
                  <option value="" disabled>
                    {subject && videoList.length === 0 && !videos.isLoading ? 'No videos' : 'Choose a video'}
                  </option>
                  {videoList.map((v) => (
                    <option key={v.video_uuid} value={v.video_uuid}>
                      {v.name}
                      {v.status !== 'ready' ? ` (${v.status})` : ''}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              {video ? <VideoFacts video={video} /> : null}
            </CardContent>
          </Card>
        ) : null}
        {body}
      </div>
    </PageContainer>
  );
}

function VideoFacts({ video }: { video: Video }) {
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground text-sm sm:ml-auto sm:pb-2">
      <VideoStatusBadge status={video.status} />
      <span className="tabular-nums">{formatDuration(video.duration_s)}</span>
      <span className="tabular-nums">{formatFps(video.fps)}</span>
      <span className="tabular-nums">{formatResolution(video.width, video.height)}</span>
    </p>
  );
}
