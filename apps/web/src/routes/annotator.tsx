import { AnnotatorPage } from '@/features/annotator/components/annotator-page';
import { useProjectUuid } from './guards';

export function Component() {
  const projectUuid = useProjectUuid();
  return <AnnotatorPage key={projectUuid} projectUuid={projectUuid} />;
}
