import { NewBatchPage } from '@/features/batches/components/new-batch-page';
import { useProjectUuid } from './guards';

export function Component() {
  const projectUuid = useProjectUuid();
  return <NewBatchPage key={projectUuid} projectUuid={projectUuid} />;
}
