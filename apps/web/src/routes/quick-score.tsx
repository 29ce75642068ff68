import { Gauge } from 'lucide-react';
import { ToolPlaceholder } from '@/features/tools/tool-placeholder';

export function Component() {
  return (
    <ToolPlaceholder
      title="Quick Score"
      icon={Gauge}
      description="Review detected events one by one and confirm them by hand."
      points={[
        'Short clips around each event',
        'Keyboard-first: confirm, discard, flag, label',
        'Every action saved at once',
      ]}
    />
  );
}
