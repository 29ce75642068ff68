import { Crosshair } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { useToolContext } from '@/features/tool-context/use-tool-context';
import { VideoPicker } from '@/features/videos/components/video-picker';
import { patchSearchParams } from '@/lib/search-params';
import { type LT_PARAMS, readLocationTrackerSearch } from '../links';
import { LocationWorkspace } from './location-workspace';

/**
 * The Location Tracker: pick a subject and a video (kept in the URL), draw zones, exclusion regions and a scale on
 * its picture, run, and read where the animal was.
 */
export function LocationTrackerPage({ projectUuid }: { projectUuid: string }) {
  const [params, setParams] = useSearchParams();
  const target = readLocationTrackerSearch(params);
  const readOnly = !useProjectPermissions().canProcess;
  const navigate = (patch: Partial<Record<keyof typeof LT_PARAMS, string | null>>, replace = false) =>
    setParams((prev) => patchSearchParams(prev, patch), { replace });
  const openRun = (uuid: string, options?: { edit?: boolean; replace?: boolean }) =>
    navigate({ run: uuid, edit: options?.edit ? '1' : null }, options?.replace);
  useToolContext({
    tool: 'location-tracker',
    projectUuid,
    target,
    onRestore: (context) => navigate({ ...context, edit: null }, true),
  });

  return (
    <PageContainer className="max-w-7xl">
      <PageHeader
        title="Location Tracker"
        description="Where the animal is, frame by frame: time, entries and latency per zone, distance and speed."
      />
      <VideoPicker
        projectUuid={projectUuid}
        idPrefix="lt"
        subjectUuid={target.subject}
        videoUuid={target.video}
        onSubject={(uuid) => navigate({ subject: uuid, video: null, run: null, edit: null })}
        onVideo={(uuid) => navigate({ video: uuid, run: null, edit: null })}
        purpose="Location tracking runs on a subject’s videos."
        icon={<Crosshair aria-hidden="true" />}
      >
        {(video) => (
          <LocationWorkspace
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
