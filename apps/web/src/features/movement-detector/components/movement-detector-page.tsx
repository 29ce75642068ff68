import { Activity } from 'lucide-react';
import { VideoToolPage } from '@/features/videos/components/video-tool-page';
import { DetectorWorkspace } from './detector-workspace';

/**
 * The Movement Detector: pick a subject and a video (kept in the URL), then draw ROIs, preview, run and read the
 * result. Empty states lead to where the missing piece is made.
 */
export function MovementDetectorPage({ projectUuid }: { projectUuid: string }) {
  return (
    <VideoToolPage
      projectUuid={projectUuid}
      tool="movement-detector"
      title="Movement Detector"
      description="Count changed pixels inside time-based regions of interest, find movement events and freezing."
      idPrefix="md"
      purpose="Movement detection runs on a subject’s videos."
      icon={<Activity aria-hidden="true" />}
      workspace={(props) => <DetectorWorkspace key={props.video.video_uuid} {...props} />}
    />
  );
}
