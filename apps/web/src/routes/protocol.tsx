import { useParams } from 'react-router';
import { ProtocolPage } from '@/features/protocols/components/protocol-page';
import { useProjectUuid } from './guards';

export function Component() {
  const projectUuid = useProjectUuid();
  const { protocolUuid } = useParams();
  return <ProtocolPage key={`${projectUuid}:${protocolUuid}`} projectUuid={projectUuid} protocolUuid={protocolUuid!} />;
}
