import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { emailTokens } from '../../db/schema.js';
import { badRequest } from '../../lib/errors.js';

/** Single-use e-mail secrets (verification keys, reset tokens): only their SHA-256 is stored. */

export const VERIFICATION_KEY_SECONDS = 3 * 24 * 60 * 60;
export const RESET_TOKEN_SECONDS = 24 * 60 * 60;

type EmailTokenKind = (typeof emailTokens.$inferSelect)['kind'];

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export async function createEmailToken(ctx: AppContext, userId: number, kind: EmailTokenKind, seconds: number) {
  const secret = randomBytes(32).toString('base64url');
  await ctx.db
    .insert(emailTokens)
    .values({ tokenHash: sha256(secret), kind, userId, expiresAt: new Date(Date.now() + seconds * 1000) });
  return secret;
}

export interface TokenMessages {
  invalid: string;
  used: string;
  expired: string;
}

/** Checks a secret without using it up; throws 400 with a message saying what is wrong with it. */
export async function findUsableEmailToken(
  ctx: AppContext,
  secret: string,
  kind: EmailTokenKind,
  messages: TokenMessages,
) {
  const [row] = await ctx.db
    .select()
    .from(emailTokens)
    .where(and(eq(emailTokens.tokenHash, sha256(secret)), eq(emailTokens.kind, kind)))
    .limit(1);
  if (!row) throw badRequest(messages.invalid);
  if (row.usedAt) throw badRequest(messages.used);
  if (row.expiresAt.getTime() <= Date.now()) throw badRequest(messages.expired);
  return row;
}

/** Marks the secret used; only one of two concurrent requests wins. */
export async function claimEmailToken(ctx: AppContext, tokenHash: string, messages: TokenMessages): Promise<void> {
  const [claimed] = await ctx.db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(emailTokens.tokenHash, tokenHash), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, new Date())))
    .returning({ tokenHash: emailTokens.tokenHash });
  if (!claimed) throw badRequest(messages.used);
}

/** Retires every other outstanding secret of that kind (e.g. older reset links once the password is reset). */
export async function retireEmailTokens(ctx: AppContext, userId: number, kind: EmailTokenKind): Promise<void> {
  await ctx.db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.kind, kind), isNull(emailTokens.usedAt)));
}

/** The `uidb64` of the reset link: the user id, base64url-encoded (as Django does). */
export const encodeUid = (id: number) => Buffer.from(String(id)).toString('base64url');
export const decodeUid = (uid: string) => {
  const decoded = Buffer.from(uid, 'base64url').toString('utf8');
  return /^\d{1,9}$/.test(decoded) ? Number(decoded) : undefined;
};
