import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/errors.js';
import { emailTokens, refreshTokens, users } from '../../db/schema.js';
import { isUuid, tokenStillValid } from '../../lib/access.js';
import type { UserRow } from '../../lib/authenticate.js';
import { badRequest, fieldError, HttpError, unauthorized } from '../../lib/errors.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { REFRESH_TOKEN_SECONDS } from '../../lib/tokens.js';
import { displayName } from '../users/user.serializer.js';
import { passwordProblems } from './password-rules.js';

export const VERIFICATION_KEY_SECONDS = 3 * 24 * 60 * 60;
export const RESET_TOKEN_SECONDS = 24 * 60 * 60;

type EmailTokenKind = (typeof emailTokens.$inferSelect)['kind'];

export interface TokenPair {
  access: string;
  refresh: string;
}

const INVALID_TOKEN = 'Token is invalid or expired';
const INVALID_CREDENTIALS = 'Unable to log in with the e-mail address and password provided.';
const NOT_VERIFIED =
  'This e-mail address is not verified yet. Open the link in the verification e-mail we sent you, ' +
  'or request a new verification e-mail.';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** A hash to verify against when the account does not exist, so both cases take the same time. */
let dummyHash: Promise<string> | undefined;
const timingDummy = () => {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
};

export async function findUserByEmail(ctx: AppContext, email: string): Promise<UserRow | undefined> {
  const [row] = await ctx.db.select().from(users).where(sql`lower(${users.email}) = lower(${email.trim()})`).limit(1);
  return row;
}

async function findUserById(ctx: AppContext, id: number): Promise<UserRow | undefined> {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

// ---- JWT pairs and refresh-token rotation ----

/**
 * Refresh-token rows: a row whose `revokedAt` is set was used once (rotated) and must not be used again; a
 * token without a row was never issued, has logged out, or was ended by a password change. Deleting rather
 * than marking on logout keeps a stale client's later attempt a plain 401 instead of a reuse alarm.
 */
export async function issueTokenPair(ctx: AppContext, userId: number): Promise<TokenPair> {
  const jti = randomUUID();
  const now = Date.now();
  // Expired rows are useless; dropping the user's own keeps the table from growing without a sweeper.
  await ctx.db
    .delete(refreshTokens)
    .where(and(eq(refreshTokens.userId, userId), lt(refreshTokens.expiresAt, new Date(now))));
  await ctx.db.insert(refreshTokens).values({ jti, userId, expiresAt: new Date(now + REFRESH_TOKEN_SECONDS * 1000) });
  const [access, refresh] = await Promise.all([ctx.tokens.signAccess(userId), ctx.tokens.signRefresh(userId, jti)]);
  return { access, refresh };
}

async function revokeAllRefreshTokens(ctx: AppContext, userId: number): Promise<void> {
  await ctx.db.delete(refreshTokens).where(eq(refreshTokens.userId, userId));
}

/**
 * Two requests of one client (two tabs) may race to refresh with the same token; the loser gets a 401 but
 * does not end every session. Later reuse means the token leaked.
 */
export const REUSE_GRACE_MS = 10_000;

/**
 * Exchanges a refresh token for a new pair and marks it used. Presenting a used refresh token again (after
 * the grace period) means it was copied: every session of that user ends.
 */
export async function rotateRefreshToken(ctx: AppContext, refresh: string): Promise<TokenPair> {
  const claims = await ctx.tokens.verify(refresh, 'refresh');
  if (!claims?.jti || !isUuid(claims.jti)) throw unauthorized(INVALID_TOKEN);
  const [row] = await ctx.db.select().from(refreshTokens).where(eq(refreshTokens.jti, claims.jti)).limit(1);
  if (!row || String(row.userId) !== claims.sub) throw unauthorized(INVALID_TOKEN);
  const [claimed] = await ctx.db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.jti, row.jti), isNull(refreshTokens.revokedAt)))
    .returning({ jti: refreshTokens.jti });
  if (!claimed) {
    const usedAt = row.revokedAt?.getTime() ?? Date.now();
    if (Date.now() - usedAt > REUSE_GRACE_MS) {
      await revokeAllRefreshTokens(ctx, row.userId);
      ctx.logger.warn({ userId: row.userId }, 'a used refresh token was presented again; all sessions ended');
    }
    throw unauthorized(INVALID_TOKEN);
  }
  return issueTokenPair(ctx, row.userId);
}

/** Logout: forgets the refresh token if it is one of ours; anything else is ignored (logging out never fails). */
export async function revokeRefreshToken(ctx: AppContext, refresh: string): Promise<void> {
  const claims = await ctx.tokens.verify(refresh, 'refresh');
  if (!claims?.jti || !isUuid(claims.jti)) return;
  await ctx.db.delete(refreshTokens).where(eq(refreshTokens.jti, claims.jti));
}

/** The same test `app.authenticate` applies: a valid access token of an existing user, newer than the password. */
export async function verifyAccessToken(ctx: AppContext, token: string): Promise<void> {
  const claims = await ctx.tokens.verify(token, 'access');
  const user = claims ? await findUserById(ctx, Number(claims.sub)) : undefined;
  if (!claims || !user) throw unauthorized(INVALID_TOKEN);
  if (!tokenStillValid(user, claims)) throw unauthorized(INVALID_TOKEN);
}

// ---- log-in ----

export async function login(ctx: AppContext, email: string, password: string) {
  const user = await findUserByEmail(ctx, email);
  const passwordOk = await verifyPassword(user?.passwordHash ?? (await timingDummy()), password);
  if (!user || !passwordOk) throw badRequest(INVALID_CREDENTIALS);
  // Only after the password matched, so that this message does not reveal which addresses have accounts.
  if (!user.emailVerified) throw badRequest(NOT_VERIFIED);
  return { user, tokens: await issueTokenPair(ctx, user.id) };
}

// ---- single-use e-mail secrets (verification keys, reset tokens) ----

async function createEmailToken(ctx: AppContext, userId: number, kind: EmailTokenKind, seconds: number) {
  const secret = randomBytes(32).toString('base64url');
  await ctx.db
    .insert(emailTokens)
    .values({ tokenHash: sha256(secret), kind, userId, expiresAt: new Date(Date.now() + seconds * 1000) });
  return secret;
}

interface TokenMessages {
  invalid: string;
  used: string;
  expired: string;
}

/** Checks a secret without using it up; throws 400 with a message saying what is wrong with it. */
async function findUsableEmailToken(ctx: AppContext, secret: string, kind: EmailTokenKind, messages: TokenMessages) {
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
async function claimEmailToken(ctx: AppContext, tokenHash: string, messages: TokenMessages): Promise<void> {
  const [claimed] = await ctx.db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(emailTokens.tokenHash, tokenHash), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, new Date())))
    .returning({ tokenHash: emailTokens.tokenHash });
  if (!claimed) throw badRequest(messages.used);
}

/** Retires every other outstanding secret of that kind (e.g. older reset links once the password is reset). */
async function retireEmailTokens(ctx: AppContext, userId: number, kind: EmailTokenKind): Promise<void> {
  await ctx.db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.kind, kind), isNull(emailTokens.usedAt)));
}

// ---- registration and e-mail verification ----

const verificationMessages: TokenMessages = {
  invalid: 'This verification link is not valid. Check that you opened the whole link, or request a new one.',
  used: 'This verification link has already been used. Log in, or request a new verification e-mail.',
  expired: 'This verification link has expired. Request a new verification e-mail.',
};

async function sendVerificationEmail(ctx: AppContext, user: UserRow): Promise<void> {
  const key = await createEmailToken(ctx, user.id, 'email_verification', VERIFICATION_KEY_SECONDS);
  const link = `${ctx.config.publicUrl}/auth/confirm-verification/${key}`;
  await ctx.mailer.send({
    to: user.email,
    subject: 'Confirm your e-mail address',
    text: [
      `Hello ${displayName(user)},`,
      '',
      'Confirm your e-mail address to finish creating your account:',
      '',
      link,
      '',
      'The link works once and expires in 3 days. If you did not create an account, ignore this e-mail.',
    ].join('\n'),
    links: [link],
  });
}

export interface RegisterInput {
  email: string;
  password1: string;
  password2: string;
  first_name?: string | undefined;
  last_name?: string | undefined;
}

const EMAIL_TAKEN = 'A user is already registered with this e-mail address.';

/** Every problem at once, as field errors, so a form can show them all. */
function newPasswordErrors(
  password1: string,
  password2: string,
  email: string,
  fields: { first: string; second: string },
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const problems = passwordProblems(password1, email);
  if (problems.length > 0) errors[fields.first] = problems;
  if (password1 !== password2) errors[fields.second] = ["The two password fields didn't match."];
  return errors;
}

export async function register(ctx: AppContext, input: RegisterInput): Promise<void> {
  const errors = newPasswordErrors(input.password1, input.password2, input.email, {
    first: 'password1',
    second: 'password2',
  });
  if (await findUserByEmail(ctx, input.email)) errors.email = [EMAIL_TAKEN];
  if (Object.keys(errors).length > 0) throw badRequest(errors);

  let user: UserRow | undefined;
  try {
    [user] = await ctx.db
      .insert(users)
      .values({
        email: input.email,
        passwordHash: await hashPassword(input.password1),
        firstName: input.first_name ?? '',
        lastName: input.last_name ?? '',
      })
      .returning();
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('email', EMAIL_TAKEN);
    throw error;
  }
  if (!user) throw new Error('insert returned no row');
  try {
    await sendVerificationEmail(ctx, user);
  } catch (error) {
    // Without the e-mail the account could never be verified: undo it so the address can register again.
    ctx.logger.error({ err: error, userId: user.id }, 'verification e-mail could not be sent; registration undone');
    await ctx.db.delete(users).where(eq(users.id, user.id));
    throw new HttpError(503, 'The verification e-mail could not be sent. Please try again in a few minutes.');
  }
}

/** Sends a new verification link when the account exists and is unverified; silent otherwise. */
export async function resendVerification(ctx: AppContext, email: string): Promise<void> {
  const user = await findUserByEmail(ctx, email);
  if (!user || user.emailVerified) return;
  try {
    await sendVerificationEmail(ctx, user);
  } catch (error) {
    ctx.logger.error({ err: error, userId: user.id }, 'verification e-mail could not be re-sent');
  }
}

export async function verifyEmail(ctx: AppContext, key: string): Promise<void> {
  const token = await findUsableEmailToken(ctx, key, 'email_verification', verificationMessages);
  await claimEmailToken(ctx, token.tokenHash, verificationMessages);
  await ctx.db.update(users).set({ emailVerified: true }).where(eq(users.id, token.userId));
  await retireEmailTokens(ctx, token.userId, 'email_verification');
}

// ---- password reset and change ----

const resetMessages: TokenMessages = {
  invalid: 'This password reset link is not valid. Check that you opened the whole link, or request a new one.',
  used: 'This password reset link has already been used. Request a new one if you still need it.',
  expired: 'This password reset link has expired. Request a new one.',
};

/** The `uidb64` of the reset link: the user id, base64url-encoded (as Django does). */
export const encodeUid = (id: number) => Buffer.from(String(id)).toString('base64url');
const decodeUid = (uid: string) => {
  const decoded = Buffer.from(uid, 'base64url').toString('utf8');
  return /^\d{1,9}$/.test(decoded) ? Number(decoded) : undefined;
};

/** E-mails a reset link when the account exists; the caller answers the same either way. */
export async function requestPasswordReset(ctx: AppContext, email: string): Promise<void> {
  const user = await findUserByEmail(ctx, email);
  if (!user) return;
  const token = await createEmailToken(ctx, user.id, 'password_reset', RESET_TOKEN_SECONDS);
  const link = `${ctx.config.publicUrl}/auth/confirm-password-reset/${encodeUid(user.id)}/${token}`;
  try {
    await ctx.mailer.send({
      to: user.email,
      subject: 'Reset your password',
      text: [
        `Hello ${displayName(user)},`,
        '',
        'Someone (hopefully you) asked to reset the password of your account. Choose a new one here:',
        '',
        link,
        '',
        'The link works once and expires in 24 hours. If you did not ask for this, ignore this e-mail: ' +
          'your password stays as it is.',
      ].join('\n'),
      links: [link],
    });
  } catch (error) {
    ctx.logger.error({ err: error, userId: user.id }, 'password reset e-mail could not be sent');
  }
}

async function setPassword(ctx: AppContext, userId: number, password: string, extra: { emailVerified?: true } = {}) {
  await ctx.db
    .update(users)
    .set({ passwordHash: await hashPassword(password), passwordChangedAt: new Date(), ...extra })
    .where(eq(users.id, userId));
  await revokeAllRefreshTokens(ctx, userId);
}

export interface ResetConfirmInput {
  uid: string;
  token: string;
  new_password1: string;
  new_password2: string;
}

export async function confirmPasswordReset(ctx: AppContext, input: ResetConfirmInput): Promise<void> {
  const userId = decodeUid(input.uid);
  const token = await findUsableEmailToken(ctx, input.token, 'password_reset', resetMessages);
  if (userId === undefined || token.userId !== userId) throw badRequest(resetMessages.invalid);
  const user = await findUserById(ctx, userId);
  if (!user) throw badRequest(resetMessages.invalid);
  const errors = newPasswordErrors(input.new_password1, input.new_password2, user.email, {
    first: 'new_password1',
    second: 'new_password2',
  });
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  await claimEmailToken(ctx, token.tokenHash, resetMessages);
  // Opening a link sent to the address proves the address is theirs, so it counts as verified.
  await setPassword(ctx, userId, input.new_password1, { emailVerified: true });
  await retireEmailTokens(ctx, userId, 'password_reset');
}

export interface PasswordChangeInput {
  old_password: string;
  new_password1: string;
  new_password2: string;
}

/** Every existing session ends; the caller gets a fresh pair so it stays signed in. */
export async function changePassword(ctx: AppContext, user: UserRow, input: PasswordChangeInput): Promise<TokenPair> {
  const errors = newPasswordErrors(input.new_password1, input.new_password2, user.email, {
    first: 'new_password1',
    second: 'new_password2',
  });
  if (!(await verifyPassword(user.passwordHash, input.old_password))) {
    errors.old_password = ['Your old password was entered incorrectly. Please enter it again.'];
  }
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  await setPassword(ctx, user.id, input.new_password1);
  return issueTokenPair(ctx, user.id);
}
