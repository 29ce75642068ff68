import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { type MD_PARAMS, readMovementDetectorSearch } from '@/features/movement-detector/links';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { useToolContext } from '@/features/tool-context/use-tool-context';
import type { Video } from '@/features/videos/api';
import { patchSearchParams } from '@/lib/search-params';
import { VideoPicker } from './video-picker';

/** What a Video Tools page gives the workspace of the chosen video. */
export interface VideoToolWorkspaceProps {
  projectUuid: string;
  video: Video;
  /** The run named in the URL. */
  runUuid: string | null;
  /** The URL asks for the run's parameters only. */
  edit: boolean;
  readOnly: boolean;
  onOpenRun: (uuid: string, options?: { edit?: boolean; replace?: boolean }) => void;
}

/**
 * A page of the Video Tools that works on one video's runs (the Movement Detector, the Location Tracker): the header,
 * the subject and video picker kept in the URL (`?subject=…&video=…&run=…&edit=1`, one set of keys for both tools),
 * the last subject, video and run remembered for the sidebar, and the tool's workspace for the chosen video.
 */
export function VideoToolPage({
  projectUuid,
  tool,
  title,
  description,
  idPrefix,
  purpose,
  icon,
  workspace,
}: {
  projectUuid: string;
  tool: 'movement-detector' | 'location-tracker' | 'pose';
  title: string;
  description: string;
  /** Prefix of the picker's element ids (unique on the page). */
  idPrefix: string;
  /** What the picker says when the project has no subject or video yet. */
  purpose: string;
  icon: ReactNode;
  workspace: (props: VideoToolWorkspaceProps) => ReactNode;
}) {
  const [params, setParams] = useSearchParams();
  const target = readMovementDetectorSearch(params);
  // Previews and runs are analyses: members of an active project.
  const readOnly = !useProjectPermissions().canProcess;

  /** Sets the given keys (null removes) and drops those that depend on a changed one. */
  const navigate = (patch: Partial<Record<keyof typeof MD_PARAMS, string | null>>, replace = false) =>
    setParams((prev) => patchSearchParams(prev, patch), { replace });
  const onOpenRun = (uuid: string, options?: { edit?: boolean; replace?: boolean }) =>
    navigate({ run: uuid, edit: options?.edit ? '1' : null }, options?.replace);
  // From the sidebar (nothing named): back to the subject, video and run last open here in this project.
  useToolContext({ tool, projectUuid, target, onRestore: (context) => navigate({ ...context, edit: null }, true) });

  return (
    <PageContainer className="max-w-7xl">
      <PageHeader title={title} description={description} />
      <VideoPicker
        projectUuid={projectUuid}
        idPrefix={idPrefix}
        subjectUuid={target.subject}
        videoUuid={target.video}
        onSubject={(uuid) => navigate({ subject: uuid, video: null, run: null, edit: null })}
        onVideo={(uuid) => navigate({ video: uuid, run: null, edit: null })}
        purpose={purpose}
        icon={icon}
      >
        {(video) => workspace({ projectUuid, video, runUuid: target.run, edit: target.edit, readOnly, onOpenRun })}
      </VideoPicker>
    </PageContainer>
  );
}
