import { Activity } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { useToolContext } from '@/features/tool-context/use-tool-context';
import { VideoPicker } from '@/features/videos/components/video-picker';
import { patchSearchParams } from '@/lib/search-params';
import { type MD_PARAMS, readMovementDetectorSearch } from '../links';
import { DetectorWorkspace } from './detector-workspace';

/**
 * The Movement Detector: pick a subject and a video (kept in the URL), then draw ROIs, preview, run and read the
 * result. Empty states lead to where the missing piece is made.
 */
export function MovementDetectorPage({ projectUuid }: { projectUuid: string }) {
  const [params, setParams] = useSearchParams();
  const target = readMovementDetectorSearch(params);
  // Previews and runs are analyses: members of an active project.
  const readOnly = !useProjectPermissions().canProcess;

  /** Sets the given keys (null removes) and drops those that depend on a changed one. */
  const navigate = (patch: Partial<Record<keyof typeof MD_PARAMS, string | null>>, replace = false) =>
    setParams((prev) => patchSearchParams(prev, patch), { replace });
  const openRun = (uuid: string, options?: { edit?: boolean; replace?: boolean }) =>
    navigate({ run: uuid, edit: options?.edit ? '1' : null }, options?.replace);
  // From the sidebar (nothing named): back to the subject, video and run last open here in this project.
  useToolContext({
    tool: 'movement-detector',
    projectUuid,
    target,
    onRestore: (context) => navigate({ ...context, edit: null }, true),
  });

  return (
    <PageContainer className="max-w-7xl">
      <PageHeader
        title="Movement Detector"
        description="Count changed pixels inside time-based regions of interest, find movement events and freezing."
      />
      <VideoPicker
        projectUuid={projectUuid}
        idPrefix="md"
        subjectUuid={target.subject}
        videoUuid={target.video}
        onSubject={(uuid) => navigate({ subject: uuid, video: null, run: null, edit: null })}
        onVideo={(uuid) => navigate({ video: uuid, run: null, edit: null })}
        purpose="Movement detection runs on a subject’s videos."
        icon={<Activity aria-hidden="true" />}
      >
        {(video) => (
          <DetectorWorkspace
            key={video.video_uuid}
            projectUuid={projectUuid}
            video={video}
            runUuid={target.run}
            edit={target.edit}
            readOnly={readOnly}
            onOpenRun={openRun}
          />
        )}
      </VideoPicker>
    </PageContainer>
  );
}
