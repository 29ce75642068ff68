import { PenLine } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { Skeleton } from '@/components/ui/skeleton';
import { useSession } from '@/features/auth/hooks/use-session';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { useToolContext } from '@/features/tool-context/use-tool-context';
import { VideoPicker } from '@/features/videos/components/video-picker';
import { patchSearchParams } from '@/lib/search-params';
import { readAnnotatorSearch } from '../links';
import { AnnotatorWorkspace } from './annotator-workspace';

/** The Annotator: pick a subject and a video (kept in the URL), then mark behaviour bouts on its tracks. */
export function AnnotatorPage({ projectUuid }: { projectUuid: string }) {
  const [params, setParams] = useSearchParams();
  const target = readAnnotatorSearch(params);
  const { user } = useSession();
  // Tracks and bouts are the project's content: members of a project that is not locked.
  const readOnly = !useProjectPermissions().canEditContent;
  // From the sidebar (nothing named): back to the subject and video last open here in this project.
  useToolContext({
    tool: 'annotator',
    projectUuid,
    target: { ...target, run: null },
    onRestore: ({ subject, video }) =>
      setParams((prev) => patchSearchParams(prev, { subject, video }), { replace: true }),
  });

  return (
    <PageContainer className="max-w-7xl">
      <PageHeader
        title="Annotator"
        description="Mark behaviour bouts on labelled tracks, by keys and mouse, frame by frame. Every change is saved at once."
      />
      <VideoPicker
        projectUuid={projectUuid}
        idPrefix="annotator"
        subjectUuid={target.subject}
        videoUuid={target.video}
        onSubject={(uuid) => setParams((prev) => patchSearchParams(prev, { subject: uuid, video: null }))}
        onVideo={(uuid) => setParams((prev) => patchSearchParams(prev, { video: uuid }))}
        purpose="Bouts are marked on a subject’s videos."
        icon={<PenLine aria-hidden="true" />}
      >
        {(video) =>
          user ? (
            <AnnotatorWorkspace
              key={video.video_uuid}
              projectUuid={projectUuid}
              video={video}
              userId={user.id}
              readOnly={readOnly}
            />
          ) : (
            <Skeleton className="h-64" />
          )
        }
      </VideoPicker>
    </PageContainer>
  );
}
