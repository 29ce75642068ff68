import { ProjectPage } from '@/features/projects/components/project-page';
import { useProjectUuid } from './guards';

export function Component() {
  const projectUuid = useProjectUuid();
  return <ProjectPage key={projectUuid} projectUuid={projectUuid} />;
}
