import { PosePage } from '@/features/pose/components/pose-page';
import { useProjectUuid } from './guards';

export function Component() {
  const projectUuid = useProjectUuid();
  return <PosePage key={projectUuid} projectUuid={projectUuid} />;
}
