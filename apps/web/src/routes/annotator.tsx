import { PenLine } from 'lucide-react';
import { ToolPlaceholder } from '@/features/tools/tool-placeholder';

export function Component() {
  return (
    <ToolPlaceholder
      title="Annotator"
      isNew
      icon={PenLine}
      description="Mark behaviour bouts as time ranges on labelled tracks."
      points={[
        'Labelled tracks with colours and hot keys',
        'Mouse and keyboard marking',
        'Import and export time-range CSVs',
      ]}
    />
  );
}
