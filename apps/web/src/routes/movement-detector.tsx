import { Activity } from 'lucide-react';
import { ToolPlaceholder } from '@/features/tools/tool-placeholder';

export function Component() {
  return (
    <ToolPlaceholder
      title="Movement Detector"
      icon={Activity}
      description="Detect movement inside regions of interest of a video."
      points={[
        'Draw time-based regions of interest',
        'Skip bypass ranges from a CSV',
        'Preview thresholds before a full run',
      ]}
    />
  );
}
