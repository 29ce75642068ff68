import { Bone } from 'lucide-react';
import { VideoToolPage } from '@/features/videos/components/video-tool-page';
import { PoseWorkspace } from './pose-workspace';

/**
 * The Pose page (a Video Tools page): pick a subject and a video (kept in the URL), see its DeepLabCut or SLEAP
 * keypoints on the player, derive speed, distances and angles, and detect events on them for Quick Score.
 */
export function PosePage({ projectUuid }: { projectUuid: string }) {
  return (
    <VideoToolPage
      projectUuid={projectUuid}
      tool="pose"
      title="Pose"
      description="Keypoints from DeepLabCut or SLEAP on the video: speed, distances and angles over time, and events on them for Quick Score."
      idPrefix="pose"
      purpose="Pose analyses work on a subject’s videos."
      icon={<Bone aria-hidden="true" />}
      workspace={(props) => <PoseWorkspace key={props.video.video_uuid} {...props} />}
    />
  );
}
