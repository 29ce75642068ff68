import { MovementDetectorPage } from '@/features/movement-detector/components/movement-detector-page';
import { useProjectUuid } from './guards';

export function Component() {
  const projectUuid = useProjectUuid();
  return <MovementDetectorPage key={projectUuid} projectUuid={projectUuid} />;
}
