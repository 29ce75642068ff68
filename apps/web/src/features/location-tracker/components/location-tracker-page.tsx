import { Crosshair } from 'lucide-react';
import { VideoToolPage } from '@/features/videos/components/video-tool-page';
import { LocationWorkspace } from './location-workspace';

/**
 * The Location Tracker: pick a subject and a video (kept in the URL), draw zones, exclusion regions and a scale on
 * its picture, run, and read where the animal was.
 */
export function LocationTrackerPage({ projectUuid }: { projectUuid: string }) {
  return (
    <VideoToolPage
      projectUuid={projectUuid}
      tool="location-tracker"
      title="Location Tracker"
      description="Where the animal is, frame by frame: time, entries and latency per zone, distance and speed."
      idPrefix="lt"
      purpose="Location tracking runs on a subject’s videos."
      icon={<Crosshair aria-hidden="true" />}
      workspace={(props) => <LocationWorkspace key={props.video.video_uuid} {...props} />}
    />
  );
}
