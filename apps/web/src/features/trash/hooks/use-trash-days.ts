import { useAppConfig } from '@/features/config/api';

/** How long the server keeps deleted objects (TRASH_DAYS), from GET /api/config/. */
export function useTrashDays(): number {
  return useAppConfig().trash_days;
}
