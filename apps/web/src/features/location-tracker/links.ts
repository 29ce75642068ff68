/**
 * Links into the Location Tracker: the Movement Detector's query keys (`?subject=…&video=…&run=…`, `edit=1` with
 * `run` loads that run's settings only), so one reader serves both.
 */
import { type MovementDetectorTarget, movementDetectorSearch } from '@/features/movement-detector/links';

export {
  MD_PARAMS as LT_PARAMS,
  readMovementDetectorSearch as readLocationTrackerSearch,
} from '@/features/movement-detector/links';

export function locationTrackerPath(projectUuid: string, target: MovementDetectorTarget = {}): string {
  return `/projects/${projectUuid}/location-tracker${movementDetectorSearch(target)}`;
}
