import { useQuery } from '@tanstack/react-query';
import { Film, Loader2, Upload, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { NativeSelect } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { subjectQueries } from '@/features/subjects/api';
import { formatDuration, formatFps, formatResolution } from '@/lib/format';
import { type Video, videoQueries } from '../api';
import { VideoStatusBadge } from './video-status-badge';

const LIST_SIZE = 500;

/**
 * The video tools' first step: pick a subject and one of its videos (the page keeps both in its URL), then the tool
 * for that video (`children`) once it is processed. Every empty state says what is missing and leads to where it is
 * made.
 */
export function VideoPicker({
  projectUuid,
  idPrefix,
  subjectUuid,
  videoUuid,
  onSubject,
  onVideo,
  purpose,
  icon,
  children,
}: {
  projectUuid: string;
  /** Prefix of the selects' ids (unique per page). */
  idPrefix: string;
  subjectUuid: string | null;
  videoUuid: string | null;
  onSubject: (uuid: string) => void;
  onVideo: (uuid: string) => void;
  /** What the tool does with a subject's videos, for the empty states (e.g. "Movement detection runs on…"). */
  purpose: string;
  icon: ReactNode;
  children: (video: Video) => ReactNode;
}) {
  const subjects = useQuery(subjectQueries.list(projectUuid, { page_size: LIST_SIZE, ordering: 'name' }));
  // The same list (and key) as the subject page, so it polls while a video is processed.
  const videos = useQuery({
    ...videoQueries.list(projectUuid, subjectUuid ?? '', { page_size: LIST_SIZE }),
    enabled: subjectUuid !== null,
  });
  const subjectList = subjects.data?.results ?? [];
  const subject = subjectList.find((s) => s.subject_uuid === subjectUuid) ?? null;
  const videoList = videos.data?.results ?? [];
  const video = videoList.find((v) => v.video_uuid === videoUuid) ?? null;
  const subjectsPath = `/projects/${projectUuid}/subjects`;

  let body: ReactNode;
  if (subjects.isLoading) {
    body = <Skeleton className="h-64" />;
  } else if (subjects.isError) {
    body = <PickerMessage title="The subjects could not be loaded." />;
  } else if (subjectList.length === 0) {
    body = (
      <PickerMessage
        icon={<Users aria-hidden="true" />}
        title="No subjects yet"
        text={`${purpose} Add a subject, upload a video, then come back.`}
        action={
          <Button asChild>
            <Link to={subjectsPath}>Go to Subjects</Link>
          </Button>
        }
      />
    );
  } else if (!subjectUuid) {
    body = <PickerMessage icon={icon} title="Choose a subject and a video" text="Pick the recording above." />;
  } else if (!subject) {
    body = <PickerMessage title="This subject is not in the project." text="Choose another subject above." />;
  } else if (videos.isLoading) {
    body = <Skeleton className="h-64" />;
  } else if (videos.isError) {
    body = <PickerMessage title="The videos could not be loaded." />;
  } else if (videoList.length === 0) {
    body = (
      <PickerMessage
        icon={<Film aria-hidden="true" />}
        title={`No videos for ${subject.name}`}
        text="Upload a recording on the subject’s page; it opens here once it is processed."
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
  } else if (!videoUuid) {
    body = (
      <PickerMessage
        icon={<Film aria-hidden="true" />}
        title="Choose a video"
        text="Pick one of the subject’s videos above."
      />
    );
  } else if (!video) {
    body = <PickerMessage title="This video is not in the subject." text="Choose another video above." />;
  } else if (video.status === 'failed') {
    body = (
      <PickerMessage
        icon={<VideoStatusBadge status="failed" />}
        title="This video could not be processed"
        text={video.error || 'Upload it again from the subject’s page.'}
      />
    );
  } else if (video.status !== 'ready') {
    body = (
      <PickerMessage
        icon={<Loader2 className="animate-spin" aria-hidden="true" />}
        title="This video is still being processed"
        text="It opens here as soon as it is ready; this page checks every few seconds."
      />
    );
  } else {
    body = children(video);
  }

  return (
    <div className="grid grid-cols-1 gap-6">
      {subjectList.length > 0 ? (
        <Card className="py-4">
          <CardContent className="flex flex-col gap-4 sm:flex-row sm:flex-wrap sm:items-end">
            <div className="grid gap-1.5">
              <label htmlFor={`${idPrefix}-subject`} className="font-medium text-sm">
                Subject
              </label>
              <NativeSelect
                id={`${idPrefix}-subject`}
                value={subject?.subject_uuid ?? ''}
                onChange={(event) => onSubject(event.target.value)}
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
              <label htmlFor={`${idPrefix}-video`} className="font-medium text-sm">
                Video
              </label>
              <NativeSelect
                id={`${idPrefix}-video`}
                value={video?.video_uuid ?? ''}
                onChange={(event) => onVideo(event.target.value)}
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

export function PickerMessage({
  icon,
  title,
  text,
  action,
}: {
  icon?: ReactNode;
  title: string;
  text?: string;
  action?: ReactNode;
}) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-2 py-10 text-center" data-testid="picker-empty">
        {icon ? <div className="text-muted-foreground [&_svg]:size-7">{icon}</div> : null}
        <p className="font-medium">{title}</p>
        {text ? <p className="max-w-md text-muted-foreground text-sm">{text}</p> : null}
        {action ? <div className="pt-2">{action}</div> : null}
      </CardContent>
    </Card>
  );
}
