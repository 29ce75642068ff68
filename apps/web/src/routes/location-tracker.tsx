import { LocationTrackerPage } from '@/features/location-tracker/components/location-tracker-page';
import { useProjectUuid } from './guards';

export function Component() {
  const projectUuid = useProjectUuid();
  return <LocationTrackerPage key={projectUuid} projectUuid={projectUuid} />;
}
