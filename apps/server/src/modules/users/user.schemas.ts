import { z } from 'zod';
import { roles } from '../../db/schema.js';

export const pendingInvitationSchema = z.object({
  invitation_uuid: z.uuid(),
  project_uuid: z.uuid(),
  project_name: z.string(),
  email: z.string(),
  role: z.enum(roles),
  status: z.literal('pending'),
  /** Display name of who invited, null when that account was deleted. */
  invited_by: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
});

export const profileIdParamsSchema = z.object({ id: z.string().max(20) });
