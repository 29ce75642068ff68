import { TrashPage } from '@/features/trash/components/trash-page';
import { useProjectUuid } from './guards';

export function Component() {
  const projectUuid = useProjectUuid();
  return <TrashPage key={projectUuid} projectUuid={projectUuid} />;
}
