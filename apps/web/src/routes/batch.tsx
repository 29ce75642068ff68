import { useParams } from 'react-router';
import { BatchPage } from '@/features/batches/components/batch-page';
import { useProjectUuid } from './guards';

export function Component() {
  const projectUuid = useProjectUuid();
  const { batchUuid } = useParams();
  return <BatchPage key={`${projectUuid}:${batchUuid}`} projectUuid={projectUuid} batchUuid={batchUuid!} />;
}
