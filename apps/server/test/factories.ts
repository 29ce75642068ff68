import { randomUUID } from 'node:crypto';
import type { AppContext } from '../src/context.js';
import { memberships, users } from '../src/db/schema.js';
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

/** Gives `userId` a role in a project directly (invitations are tested on their own). */
export async function addMember(
  ctx: AppContext,
  projectUuid: string,
  userId: number,
  role: 'owner' | 'admin' | 'member' | 'viewer',
): Promise<void> {
  await ctx.db.insert(memberships).values({ projectUuid, userId, role });
}

/** A tiny valid PNG (1×1), for logo and avatar uploads. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A multipart body with one file part, for `app.inject`. */
export function multipartFile(
  field: string,
  filename: string,
  content: Buffer,
  contentType = 'application/octet-stream',
) {
  const boundary = `----test${randomUUID().replace(/-/g, '')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
