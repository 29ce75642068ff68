import { Scale } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { agreementPath } from '@/features/agreement/links';
import type { Video } from '@/features/videos/api';

/** Opens the Agreement view with this run's reviewed events as the candidate scoring. */
export function AgreementLink({
  projectUuid,
  video,
  analysisUuid,
}: {
  projectUuid: string;
  video: Video;
  analysisUuid: string;
}) {
  return (
    <Button variant="outline" size="sm" className="mt-4 w-full" asChild>
      <Link
        to={agreementPath(projectUuid, {
          subject: video.subject_uuid,
          video: video.video_uuid,
          candidate: { kind: 'run_reviewed', analysisUuid },
        })}
      >
        <Scale aria-hidden="true" />
        Agreement with another scoring
      </Link>
    </Button>
  );
}
