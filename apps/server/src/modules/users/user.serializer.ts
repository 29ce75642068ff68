import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { UserRow } from '../../lib/authenticate.js';
import { fileUrl } from '../files/file-urls.js';

/** The one public shape of a user: the signed-in user, a member of a project, an inviter. */
export const userSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  /** Full name, else the e-mail address. */
  display_name: z.string(),
  /** The spec's name for display_name; same value. */
  get_display_name: z.string(),
  avatar_url: z.string().nullable(),
  email_verified: z.boolean(),
  date_joined: z.string(),
});
export type UserResponse = z.infer<typeof userSchema>;

/** Full name, else the e-mail address (the spec's get_display_name). */
export function displayName(row: Pick<UserRow, 'email' | 'firstName' | 'lastName'>): string {
  const full = `${row.firstName} ${row.lastName}`.trim();
  return full || row.email;
}

export async function serializeUser(ctx: AppContext, row: UserRow): Promise<UserResponse> {
  const name = displayName(row);
  return {
    id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    display_name: name,
    get_display_name: name,
    // Only ever the signed-in user's own profile: the URL is made for them.
    avatar_url: await fileUrl(ctx, row, row.avatarKey),
    email_verified: row.emailVerified,
    date_joined: row.dateJoined.toISOString(),
  };
}
