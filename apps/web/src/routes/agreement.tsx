import { AgreementPage } from '@/features/agreement/components/agreement-page';
import { useProjectUuid } from './guards';

export function Component() {
  const projectUuid = useProjectUuid();
  return <AgreementPage key={projectUuid} projectUuid={projectUuid} />;
}
