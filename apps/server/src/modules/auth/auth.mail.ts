import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { users } from '../../db/schema.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import type { UserRow } from '../../lib/authenticate.js';
import { displayName } from '../users/user.serializer.js';
import { findUserByEmail, findUserById } from './auth.users.js';
import { createEmailToken, encodeUid, RESET_TOKEN_SECONDS, VERIFICATION_KEY_SECONDS } from './email-tokens.js';

/**
 * The e-mails anyone can trigger (sign-up, resend verification, password reset) are sent from this job, never
 * from the request: the request queues one job whether or not the address has an account, so neither its answer
 * nor its time tells. The job looks the account up and creates the e-mail's secret itself (a secret never sits in
 * the queue); an address without an account gets nothing.
 */
export const authMailPayload = z.discriminatedUnion('kind', [
  /** A new account's verification link; `newAccount` undoes the sign-up if the e-mail can never be sent. */
  z.object({ kind: z.literal('verification'), userId: z.number().int().positive(), newAccount: z.boolean() }),
  z.object({ kind: z.literal('resend-verification'), email: z.string() }),
  /** Someone signed up with an address that already has an account: its holder is told, nothing changes. */
  z.object({ kind: z.literal('account-exists'), email: z.string() }),
  z.object({ kind: z.literal('password-reset'), email: z.string() }),
]);
export type AuthMail = z.infer<typeof authMailPayload>;

async function sendVerification(ctx: AppContext, user: UserRow): Promise<void> {
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

async function sendAccountExists(ctx: AppContext, user: UserRow): Promise<void> {
  const signIn = `${ctx.config.publicUrl}/auth/login`;
  const reset = `${ctx.config.publicUrl}/auth/reset-password`;
  await ctx.mailer.send({
    to: user.email,
    subject: 'Someone tried to sign up with your e-mail address',
    text: [
      `Hello ${displayName(user)},`,
      '',
      'Someone (hopefully you) tried to create an account with this e-mail address, but you already have one. ' +
        'Nothing was changed.',
      '',
      'If it was you, sign in:',
      '',
      signIn,
      '',
      'Forgot your password, or never confirmed this address? Choose a new password here (that confirms the ' +
        'address too):',
      '',
      reset,
      '',
      'If it was not you, ignore this e-mail: your account stays as it is.',
    ].join('\n'),
    links: [signIn, reset],
  });
}

async function sendPasswordReset(ctx: AppContext, user: UserRow): Promise<void> {
  const token = await createEmailToken(ctx, user.id, 'password_reset', RESET_TOKEN_SECONDS);
  const link = `${ctx.config.publicUrl}/auth/confirm-password-reset/${encodeUid(user.id)}/${token}`;
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
}

/** Sends one auth e-mail; a failure throws, so the job is retried. */
export async function sendAuthMail(ctx: AppContext, mail: AuthMail, isFinalAttempt: boolean): Promise<void> {
  switch (mail.kind) {
    case 'verification': {
      const user = await findUserById(ctx, mail.userId);
      if (!user || user.emailVerified) return;
      try {
        await sendVerification(ctx, user);
      } catch (error) {
        // Without the e-mail the account could never be verified: undo it so the address can sign up again.
        if (isFinalAttempt && mail.newAccount) {
          await ctx.db.delete(users).where(and(eq(users.id, user.id), eq(users.emailVerified, false)));
          ctx.logger.error({ err: error, userId: user.id }, 'verification e-mail could not be sent; sign-up undone');
        }
        throw error;
      }
      return;
    }
    case 'resend-verification': {
      const user = await findUserByEmail(ctx, mail.email);
      if (user && !user.emailVerified) await sendVerification(ctx, user);
      return;
    }
    case 'account-exists': {
      const user = await findUserByEmail(ctx, mail.email);
      if (user) await sendAccountExists(ctx, user);
      return;
    }
    case 'password-reset': {
      const user = await findUserByEmail(ctx, mail.email);
      if (user) await sendPasswordReset(ctx, user);
      return;
    }
  }
}

export const authMailJob: JobDefinition<AuthMail, AppContext> = {
  name: 'auth.send-mail',
  payload: authMailPayload,
  // 15 s, 30 s, 1 min, 2 min, 4 min: an SMTP server that is down for a few minutes loses nothing.
  retryLimit: 5,
  retryDelaySeconds: 15,
  expireInSeconds: 120,
  concurrency: () => 2,
  async handle(ctx, payload, job) {
    await sendAuthMail(ctx, payload, job.isFinalAttempt);
  },
};
