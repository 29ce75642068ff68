import { useAppConfig } from '@/features/config/api';
import type { Project } from '../api';
import { type ProjectPermissions, projectPermissions } from '../permissions';
import { useActiveProject } from './active-project-context';

/** The signed-in user's permissions in `project` (default: the active project). */
export function useProjectPermissions(project?: Project | null): ProjectPermissions {
  const active = useActiveProject().project;
  const config = useAppConfig();
  return projectPermissions(project === undefined ? active : project, {
    billingEnabled: config.billing_enabled,
    supportEmail: config.support_email,
  });
}
