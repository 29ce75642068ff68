import { QuickScorePage } from '@/features/quick-score/components/quick-score-page';
import { useProjectUuid } from './guards';

export function Component() {
  const projectUuid = useProjectUuid();
  return <QuickScorePage key={projectUuid} projectUuid={projectUuid} />;
}
