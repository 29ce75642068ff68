import { ProtocolsPage } from '@/features/protocols/components/protocols-page';
import { useProjectUuid } from './guards';

export function Component() {
  const projectUuid = useProjectUuid();
  return <ProtocolsPage key={projectUuid} projectUuid={projectUuid} />;
}
