import { NewProtocolPage } from '@/features/protocols/components/new-protocol-page';
import { useProjectUuid } from './guards';

export function Component() {
  const projectUuid = useProjectUuid();
  return <NewProtocolPage key={projectUuid} projectUuid={projectUuid} />;
}
