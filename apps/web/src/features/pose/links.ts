/**
 * Links into the Pose page: the Movement Detector's query keys (`?subject=…&video=…&run=…`), so the Video Tools share
 * one reader of them.
 */
import { type MovementDetectorTarget, movementDetectorSearch } from '@/features/movement-detector/links';

export function posePath(projectUuid: string, target: MovementDetectorTarget = {}): string {
  return `/projects/${projectUuid}/pose${movementDetectorSearch(target)}`;
}
