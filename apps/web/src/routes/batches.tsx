import { BatchesPage } from '@/features/batches/components/batches-page';
import { useProjectUuid } from './guards';

export function Component() {
  const projectUuid = useProjectUuid();
  return <BatchesPage key={projectUuid} projectUuid={projectUuid} />;
}
