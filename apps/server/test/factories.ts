import { randomUUID } from 'node:crypto';
import type { AppContext } from '../src/context.js';
import { users } from '../src/db/schema.js';
import { hashPassword } from '../src/lib/passwords.js';

export const DEFAULT_PASSWORD = 'correct horse battery staple';

export interface TestUser {
  id: number;
  email: string;
  password: string;
  /** A valid access token for this user. */
  token: string;
  /** `{ authorization: 'Bearer …' }` for `app.inject` and fetch. */
  headers: { authorization: string };
}

/** A verified user straight in the database, with an access token, for tests that are not about sign-up. */
export async function createUser(
  ctx: AppContext,
  options: { email?: string; password?: string; firstName?: string; lastName?: string; verified?: boolean } = {},
): Promise<TestUser> {
  const email = options.email ?? `user-${randomUUID().slice(0, 8)}@lab.test`;
  const password = options.password ?? DEFAULT_PASSWORD;
  const [row] = await ctx.db
    .insert(users)
    .values({
      email,
      passwordHash: await hashPassword(password),
      firstName: options.firstName ?? 'Test',
      lastName: options.lastName ?? 'User',
      emailVerified: options.verified ?? true,
    })
    .returning();
  const token = await ctx.tokens.signAccess(row!.id);
  return { id: row!.id, email, password, token, headers: { authorization: `Bearer ${token}` } };
}
