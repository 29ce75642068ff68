import { z } from 'zod';
import { invitationStatuses } from '../../db/schema.js';

/** The roles an invitation can grant: a project has exactly one owner, its creator. */
export const invitableRoles = ['admin', 'member', 'viewer'] as const;

export const invitationListParams = z.object({ project_uuid: z.string() });
export const invitationParams = z.object({ project_uuid: z.string(), invitation_uuid: z.string() });

export const createInvitationBody = z.object({
  email: z.string({ error: 'This field is required.' }).trim().toLowerCase().email('Enter a valid e-mail address.'),
  role: z.enum(invitableRoles, { error: 'Choose admin, member or viewer.' }).default('member'),
});

export const updateInvitationBody = z.object({
  role: z.enum(invitableRoles, { error: 'Choose admin, member or viewer.' }),
});

export const patchInvitationBody = z.object({
  role: z.enum(invitableRoles, { error: 'Choose admin, member or viewer.' }).optional(),
  status: z.literal('revoked', { error: 'An invitation can only be revoked.' }).optional(),
});

export const invitationSchema = z.object({
  invitation_uuid: z.string().uuid(),
  project_uuid: z.string().uuid(),
  email: z.string(),
  role: z.enum(invitableRoles),
  status: z.enum(invitationStatuses),
  invited_by: z.object({ id: z.number().int(), email: z.string(), display_name: z.string() }).nullable(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type InvitationResponse = z.infer<typeof invitationSchema>;

export const acceptedSchema = z.object({
  project_uuid: z.string().uuid(),
  role: z.enum(invitableRoles),
});

export const INVITATION_ORDERING = ['created_at', 'email', 'status', 'expires_at'] as const;

/**
 * What a signed-out visitor holding an invitation link may learn: the project's name, who invited them and the
 * address invited (to fill in the sign-up or sign-in form). Nothing else, and only for a pending, unexpired link.
 */
export const invitationLandingSchema = z.object({
  project_name: z.string(),
  invited_by: z.string().nullable().meta({ description: 'Display name of the inviter' }),
  email: z.string(),
});
