import { AnalysisLogsPage } from '@/features/analysis-logs/components/analysis-logs-page';
import { useProjectUuid } from './guards';

export function Component() {
  const projectUuid = useProjectUuid();
  return <AnalysisLogsPage key={projectUuid} projectUuid={projectUuid} />;
}
