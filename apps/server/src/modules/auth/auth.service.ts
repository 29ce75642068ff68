import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { refreshTokens, users } from '../../db/schema.js';
import { isUuid, tokenStillValid } from '../../lib/access.js';
import type { UserRow } from '../../lib/authenticate.js';
import { badRequest, unauthorized } from '../../lib/errors.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { REFRESH_TOKEN_SECONDS } from '../../lib/tokens.js';
import type { AuthLimits } from './auth.limits.js';
import { authMailJob } from './auth.mail.js';
import { findUserByEmail, findUserById } from './auth.users.js';
import {
  claimEmailToken,
  decodeUid,
  findUsableEmailToken,
  retireEmailTokens,
  type TokenMessages,
} from './email-tokens.js';
import { isKnownClientOf, type KnownClient, rememberClient } from './known-client.js';
import { passwordProblems } from './password-rules.js';

export interface TokenPair {
  access: string;
  refresh: string;
}

const INVALID_TOKEN = 'Token is invalid or expired';
const INVALID_CREDENTIALS = 'Unable to log in with the e-mail address and password provided.';
const NOT_VERIFIED =
  'This e-mail address is not verified yet. Open the link in the verification e-mail we sent you, ' +
  'or request a new verification e-mail.';

/** A hash to verify against when the account does not exist, so both cases take the same time. */
let dummyHash: Promise<string> | undefined;
const timingDummy = () => {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
};

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

export interface LoginInput {
  email: string;
  password: string;
  /** The client address (as Fastify's trustProxy resolves it). */
  address: string;
  /** The known-client cookie the browser sent, if any. */
  client: KnownClient | undefined;
}

/**
 * Checks the password under the limits: every attempt counts against the client address; an attempt from a client
 * that has signed in to this account before skips the account's slow-down (within its own allowance), any other waits
 * its turn (429 with Retry-After). Answers the new known-client cookie value with the tokens.
 */
export async function login(ctx: AppContext, limits: AuthLimits, input: LoginInput) {
  await limits.loginFromAddress(input.address);
  const user = await findUserByEmail(ctx, input.email);
  const secret = ctx.config.jwtSecret;
  const known =
    !!user &&
    !!input.client &&
    isKnownClientOf(secret, input.client, user) &&
    (await limits.knownClientAttempt(input.client.id, input.email));
  if (!known) await limits.claimAccountAttempt(input.email);
  const passwordOk = await verifyPassword(user?.passwordHash ?? (await timingDummy()), input.password);
  if (!user || !passwordOk) throw badRequest(INVALID_CREDENTIALS);
  // Only after the password matched, so that this message does not reveal which addresses have accounts.
  if (!user.emailVerified) throw badRequest(NOT_VERIFIED);
  await limits.loginSucceeded(input.email, known ? input.client?.id : undefined);
  return {
    user,
    tokens: await issueTokenPair(ctx, user.id),
    knownClient: rememberClient(secret, input.client, user),
  };
}

// ---- registration and e-mail verification ----

const verificationMessages: TokenMessages = {
  invalid: 'This verification link is not valid. Check that you opened the whole link, or request a new one.',
  used: 'This verification link has already been used. Log in, or request a new verification e-mail.',
  expired: 'This verification link has expired. Request a new verification e-mail.',
};

export interface RegisterInput {
  email: string;
  password1: string;
  password2: string;
  first_name?: string | undefined;
  last_name?: string | undefined;
}

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

/**
 * Signs up. A new address gets an account and a verification e-mail; an address that already has an account gets
 * nothing changed and its holder an e-mail saying so. Both answer the same, after the same work (a password hash, one
 * insert attempt, one queued job): the e-mails go out from a job, so nothing here tells whether the address is taken.
 */
export async function register(ctx: AppContext, limits: AuthLimits, input: RegisterInput, address: string) {
  const errors = newPasswordErrors(input.password1, input.password2, input.email, {
    first: 'password1',
    second: 'password2',
  });
  if (Object.keys(errors).length > 0) throw badRequest(errors);
  await limits.registration(input.email, address);
  const passwordHash = await hashPassword(input.password1);
  // The unique index on lower(email) decides, so two concurrent sign-ups of one address create one account.
  const [created] = await ctx.db
    .insert(users)
    .values({ email: input.email, passwordHash, firstName: input.first_name ?? '', lastName: input.last_name ?? '' })
    .onConflictDoNothing()
    .returning({ id: users.id });
  await ctx.jobs.send(
    authMailJob,
    created
      ? { kind: 'verification', userId: created.id, newAccount: true }
      : { kind: 'account-exists', email: input.email },
  );
}

/** Queues a new verification link; the job sends it only if the account exists and is unverified. */
export async function resendVerification(ctx: AppContext, limits: AuthLimits, email: string, address: string) {
  await limits.mail(email, address);
  await ctx.jobs.send(authMailJob, { kind: 'resend-verification', email });
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

/** Queues a reset link; the job sends it only if the account exists. The caller answers the same either way. */
export async function requestPasswordReset(ctx: AppContext, limits: AuthLimits, email: string, address: string) {
  await limits.mail(email, address);
  await ctx.jobs.send(authMailJob, { kind: 'password-reset', email });
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
