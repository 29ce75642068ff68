import { Activity, ListChecks, PenLine } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { annotatorPath } from '@/features/annotator/links';
import { movementDetectorPath } from '@/features/movement-detector/links';
import { quickScorePath } from '@/features/quick-score/links';

/**
 * A video's way into each tool, opened already on that video: Detect movement, Quick Score (the video's newest run
 * with events) and Annotate. Icons with their names as labels and tooltips, so the row stays narrow.
 */
export function VideoToolActions({
  projectUuid,
  subjectUuid,
  videoUuid,
  videoName,
}: {
  projectUuid: string;
  subjectUuid: string;
  videoUuid: string;
  videoName: string;
}) {
  const target = { subject: subjectUuid, video: videoUuid };
  return (
    <div className="flex items-center gap-0.5" data-testid="video-tool-actions">
      <ToolLink
        to={movementDetectorPath(projectUuid, target)}
        label="Detect movement"
        videoName={videoName}
        icon={<Activity aria-hidden="true" />}
      />
      <ToolLink
        to={quickScorePath(projectUuid, target)}
        label="Quick Score"
        videoName={videoName}
        icon={<ListChecks aria-hidden="true" />}
      />
      <ToolLink
        to={annotatorPath(projectUuid, target)}
        label="Annotate"
        videoName={videoName}
        icon={<PenLine aria-hidden="true" />}
      />
    </div>
  );
}

function ToolLink({ to, label, videoName, icon }: { to: string; label: string; videoName: string; icon: ReactNode }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button asChild variant="ghost" size="icon-sm">
          <Link to={to} aria-label={`${label}: ${videoName}`}>
            {icon}
          </Link>
        </Button>
      </TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  );
}
