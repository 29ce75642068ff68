import { z } from 'zod';
import { roles } from '../../db/schema.js';
import { userSummarySchema } from '../projects/project.schemas.js';

/** The roles a member can be given: a project has exactly one owner, changed only by a transfer. */
export const assignableRoles = ['admin', 'member', 'viewer'] as const;
export type AssignableRole = (typeof assignableRoles)[number];

export const memberListParams = z.object({ project_uuid: z.string() });
export const memberParams = z.object({ project_uuid: z.string(), user_id: z.string() });

export const changeRoleBody = z.object({
  role: z.enum(assignableRoles, {
    error: 'Choose admin, member or viewer. To make someone the owner, transfer ownership to them.',
  }),
});

export const transferOwnershipBody = z.object({
  user_id: z.number({ error: 'Give the id of the admin who becomes the owner.' }).int(),
});

export const memberSchema = z.object({
  user: userSummarySchema.extend({ avatar_url: z.string().nullable() }),
  role: z.enum(roles),
  joined_at: z.string(),
});
export type MemberResponse = z.infer<typeof memberSchema>;

export const MEMBER_ORDERING = ['joined_at', 'email', 'role'] as const;
