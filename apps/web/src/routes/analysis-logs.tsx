import { ClipboardList } from 'lucide-react';
import { ToolPlaceholder } from '@/features/tools/tool-placeholder';

export function Component() {
  return (
    <ToolPlaceholder
      title="Analysis Logs"
      icon={ClipboardList}
      description="Every analysis run of the project, with its parameters, status and results."
      points={[
        'Follow queued and running analyses live',
        'Reopen parameters of past runs',
        'Export results for statistics',
      ]}
    />
  );
}
