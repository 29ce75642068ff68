import { SubjectsTable } from '@/features/subjects/components/subjects-table';
import { useProjectUuid } from './guards';

export function Component() {
  const projectUuid = useProjectUuid();
  return <SubjectsTable key={projectUuid} projectUuid={projectUuid} />;
}
