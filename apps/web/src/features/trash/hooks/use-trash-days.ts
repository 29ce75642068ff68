import { useAppConfig } from '@/features/config/api';
import { DEFAULT_TRASH_DAYS } from '../api';

/** How long the server keeps deleted objects (TRASH_DAYS), from GET /api/config/ (its default when not said). */
export function useTrashDays(): number {
  const days = (useAppConfig() as { trash_days?: unknown }).trash_days;
  return typeof days === 'number' && days >= 0 ? days : DEFAULT_TRASH_DAYS;
}
