import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { users } from '../../db/schema.js';
import type { UserRow } from '../../lib/authenticate.js';

/** The account with this e-mail address, in any letter case. */
export async function findUserByEmail(ctx: AppContext, email: string): Promise<UserRow | undefined> {
  const [row] = await ctx.db.select().from(users).where(sql`lower(${users.email}) = lower(${email.trim()})`).limit(1);
  return row;
}

export async function findUserById(ctx: AppContext, id: number): Promise<UserRow | undefined> {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}
