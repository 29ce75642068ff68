import { useParams } from 'react-router';
import { SubjectPage } from '@/features/subjects/components/subject-page';
import { useProjectUuid } from './guards';

export function Component() {
  const projectUuid = useProjectUuid();
  const { subjectUuid } = useParams();
  return <SubjectPage key={subjectUuid} projectUuid={projectUuid} subjectUuid={subjectUuid!} />;
}
