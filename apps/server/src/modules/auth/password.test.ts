import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, DEFAULT_PASSWORD, type TestUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { emailTokens, rateLimits, users } from '../../db/schema.js';
import { AuthLimits } from './auth.limits.js';
import { authMailSettled, lastMailTo, linkIn, mailsTo, waitForMailTo } from './outbox.test-support.js';

const NEW_PASSWORD = 'a brand new passphrase';

/** Access tokens carry whole seconds: wait for the next one so "issued before the change" is unambiguous. */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1010 - (Date.now() % 1000)));

describe('auth: password reset, password change, rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Behind a trusted proxy, so each test can speak from its own client address.
    t = await createTestApp({ config: { trustProxy: true }, workers: true });
  });
  afterAll(() => t.close());

  /** A distinct client address per test, so the per-address limits of one test never touch another. */
  const address = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.7`;
  const post = (url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers: { 'x-forwarded-for': address(), ...headers } });
  const login = (email: string, password: string) => post('/api/auth/login/', { email, password });
  const me = (access: string) =>
    t.app.inject({ method: 'GET', url: '/api/auth/user/', headers: { authorization: `Bearer ${access}` } });

  async function resetLink(user: TestUser) {
    const sent = mailsTo(t.dataDir, user.email).length;
    const response = await post('/api/auth/password/reset/', { email: user.email.toUpperCase() });
    expect(response.statusCode).toBe(200);
    const link = linkIn(
      (await waitForMailTo(t.dataDir, user.email, sent + 1)).text,
      `${t.ctx.config.publicUrl}/auth/confirm-password-reset/`,
    );
    const [uid, token] = link.split('/').slice(-2) as [string, string];
    return { uid, token };
  }

  describe('POST /api/auth/password/reset/ and reset/confirm/', () => {
    it('resets through the e-mailed link; old sessions end; the link works once', async () => {
      const user = await createUser(t.ctx);
      const session = (await login(user.email, DEFAULT_PASSWORD)).json() as { access: string; refresh: string };
      await nextSecond();

      const { uid, token } = await resetLink(user);
      const mail = lastMailTo(t.dataDir, user.email);
      expect(mail.subject).toBe('Reset your password');
      expect(uid).toBe(Buffer.from(String(user.id)).toString('base64url'));

      const confirmed = await post('/api/auth/password/reset/confirm/', {
        uid,
        token,
        new_password1: NEW_PASSWORD,
        new_password2: NEW_PASSWORD,
      });
      expect(confirmed.statusCode).toBe(200);
      expect(confirmed.json()).toEqual({ detail: 'Password has been reset with the new password.' });

      expect((await login(user.email, DEFAULT_PASSWORD)).statusCode).toBe(400);
      expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
      expect((await me(session.access)).statusCode).toBe(401);
      expect((await post('/api/auth/token/refresh/', { refresh: session.refresh })).statusCode).toBe(401);

      const again = await post('/api/auth/password/reset/confirm/', {
        uid,
        token,
        new_password1: 'yet another passphrase',
        new_password2: 'yet another passphrase',
      });
      expect(again.statusCode).toBe(400);
      expect(again.json().errors).toMatch(/already been used/);
      expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('answers the same for an unknown address and sends nothing', async () => {
      const user = await createUser(t.ctx);
      const known = await post('/api/auth/password/reset/', { email: user.email });
      const ghost = `ghost-${randomUUID().slice(0, 8)}@lab.test`;
      const unknown = await post('/api/auth/password/reset/', { email: ghost });
      expect(unknown.statusCode).toBe(200);
      expect(unknown.body).toBe(known.body);
      expect(unknown.headers['content-length']).toBe(known.headers['content-length']);
      expect((await waitForMailTo(t.dataDir, user.email)).subject).toBe('Reset your password');
      await authMailSettled(t.ctx.jobs);
      expect(mailsTo(t.dataDir, ghost)).toHaveLength(0);
      expect(mailsTo(t.dataDir, user.email)).toHaveLength(1);
      const invalid = await post('/api/auth/password/reset/', { email: 'nope' });
      expect(invalid.json()).toEqual({ errors: { email: ['Enter a valid e-mail address.'] } });
    });

    it('refuses an expired token, a token for another uid, a weak password, and keeps the token usable after a mistake', async () => {
      const user = await createUser(t.ctx);
      const other = await createUser(t.ctx);
      const { uid, token } = await resetLink(user);

      const wrongUid = await post('/api/auth/password/reset/confirm/', {
        uid: Buffer.from(String(other.id)).toString('base64url'),
        token,
        new_password1: NEW_PASSWORD,
        new_password2: NEW_PASSWORD,
      });
      expect(wrongUid.statusCode).toBe(400);
      expect(wrongUid.json().errors).toMatch(/not valid/);

      const weak = await post('/api/auth/password/reset/confirm/', {
        uid,
        token,
        new_password1: 'short',
        new_password2: 'shorter',
      });
      expect(weak.statusCode).toBe(400);
      expect(weak.json()).toEqual({
        errors: {
          new_password1: ['This password is too short. It must contain at least 8 characters.'],
          new_password2: ["The two password fields didn't match."],
        },
      });

      const garbage = await post('/api/auth/password/reset/confirm/', {
        uid,
        token: 'garbage',
        new_password1: NEW_PASSWORD,
        new_password2: NEW_PASSWORD,
      });
      expect(garbage.statusCode).toBe(400);

      await t.ctx.db
        .update(emailTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(emailTokens.userId, user.id));
      const expired = await post('/api/auth/password/reset/confirm/', {
        uid,
        token,
        new_password1: NEW_PASSWORD,
        new_password2: NEW_PASSWORD,
      });
      expect(expired.statusCode).toBe(400);
      expect(expired.json().errors).toMatch(/expired/);
      expect((await login(user.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
    });

    it('a reset link expires after a day and counts as proof of the address', async () => {
      const user = await createUser(t.ctx, { verified: false });
      const { uid, token } = await resetLink(user);
      const [row] = await t.ctx.db.select().from(emailTokens).where(eq(emailTokens.userId, user.id));
      const lifetime = row!.expiresAt.getTime() - row!.createdAt.getTime();
      expect(Math.abs(lifetime - 24 * 3600 * 1000)).toBeLessThan(60_000);
      const confirmed = await post('/api/auth/password/reset/confirm/', {
        uid,
        token,
        new_password1: NEW_PASSWORD,
        new_password2: NEW_PASSWORD,
      });
      expect(confirmed.statusCode).toBe(200);
      const [after] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
      expect(after!.emailVerified).toBe(true);
      expect(after!.passwordChangedAt).toBeInstanceOf(Date);
    });
  });

  describe('POST /api/auth/password/change/', () => {
    it('needs the old password and a strong new one, reported per field', async () => {
      const user = await createUser(t.ctx);
      const unauthenticated = await post('/api/auth/password/change/', {
        old_password: DEFAULT_PASSWORD,
        new_password1: NEW_PASSWORD,
        new_password2: NEW_PASSWORD,
      });
      expect(unauthenticated.statusCode).toBe(401);

      const wrongOld = await post(
        '/api/auth/password/change/',
        { old_password: 'not it at all', new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD },
        user.headers,
      );
      expect(wrongOld.statusCode).toBe(400);
      expect(wrongOld.json()).toEqual({
        errors: { old_password: ['Your old password was entered incorrectly. Please enter it again.'] },
      });

      const weak = await post(
        '/api/auth/password/change/',
        { old_password: DEFAULT_PASSWORD, new_password1: user.email, new_password2: user.email },
        user.headers,
      );
      expect(weak.json()).toEqual({
        errors: { new_password1: ['This password is too similar to the e-mail address.'] },
      });
      expect((await login(user.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
    });

    it('ends every other session and returns a fresh pair that keeps this client signed in', async () => {
      const user = await createUser(t.ctx);
      const other = (await login(user.email, DEFAULT_PASSWORD)).json() as { access: string; refresh: string };
      await nextSecond();

      const changed = await post(
        '/api/auth/password/change/',
        { old_password: DEFAULT_PASSWORD, new_password1: NEW_PASSWORD, new_password2: NEW_PASSWORD },
        user.headers,
      );
      expect(changed.statusCode).toBe(200);
      const fresh = changed.json() as { detail: string; access: string; refresh: string };
      expect(fresh.detail).toBe('New password has been saved.');

      expect((await me(user.token)).statusCode).toBe(401);
      expect((await me(other.access)).statusCode).toBe(401);
      expect((await post('/api/auth/token/verify/', { token: other.access })).statusCode).toBe(401);
      expect((await post('/api/auth/token/refresh/', { refresh: other.refresh })).statusCode).toBe(401);
      expect((await me(fresh.access)).statusCode).toBe(200);
      expect((await post('/api/auth/token/refresh/', { refresh: fresh.refresh })).statusCode).toBe(200);
      expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
    });
  });

  describe('rate limits', () => {
    const loginFrom = (from: string, email: string, password: string, cookie?: string) =>
      post('/api/auth/login/', { email, password }, { 'x-forwarded-for': from, ...(cookie ? { cookie } : {}) });
    const slowKey = (email: string) =>
      new AuthLimits(t.ctx.db, t.ctx.config.jwtSecret).limiter.storedKey('login:slow', email.toLowerCase());
    /** Moves the account's last attempt back, as if its wait had passed (waits of a minute, tested in milliseconds). */
    const waitPassed = async (email: string) => {
      await t.ctx.db
        .update(rateLimits)
        .set({ windowStart: sql`${rateLimits.windowStart} - interval '5 minutes'` })
        .where(eq(rateLimits.key, slowKey(email)));
    };
    /** Dates the account's last attempt now, so that a slow machine cannot let a short wait run out before the check. */
    const justTried = async (email: string) => {
      await t.ctx.db
        .update(rateLimits)
        .set({ windowStart: sql`now()` })
        .where(eq(rateLimits.key, slowKey(email)));
    };
    /** An attacker guessing from ever new addresses, waiting out each turn until the wait is the longest (a minute). */
    const attack = async (email: string) => {
      const answers: number[] = [];
      for (let i = 0; i < 5; i++) answers.push((await login(email, `guess ${i}`)).statusCode);
      for (let i = 0; i < 7; i++) {
        await justTried(email);
        answers.push((await login(email, 'too soon')).statusCode);
        await waitPassed(email);
        answers.push((await login(email, `guess after waiting ${i}`)).statusCode);
      }
      return answers;
    };

    it('log-in: failures slow the account down progressively (429 + Retry-After), never a hard block', async () => {
      const user = await createUser(t.ctx);
      // Five free failures, from anywhere.
      for (let i = 0; i < 5; i++) expect((await login(user.email, `wrong guess ${i}`)).statusCode).toBe(400);
      await justTried(user.email);
      const first = await login(user.email, 'wrong again');
      expect(first.statusCode).toBe(429);
      expect(first.json()).toEqual({ errors: 'Too many failed log-ins for this account. Try again in 1 second.' });
      expect(first.headers['retry-after']).toBe('1');
      // A refused attempt checks no password and counts nothing; after the real wait the next one is heard.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await login(user.email, 'wrong after waiting')).statusCode).toBe(400);
      await justTried(user.email);
      const waits: number[] = [Number((await login(user.email, 'too soon')).headers['retry-after'])];
      for (let i = 0; i < 6; i++) {
        await waitPassed(user.email);
        expect((await login(user.email, `wrong ${i}`)).statusCode).toBe(400);
        await justTried(user.email);
        const refused = await login(user.email, 'too soon');
        expect(refused.statusCode).toBe(429);
        expect(refused.json().errors).toMatch(
          /^Too many failed log-ins for this account\. Try again in \d+ seconds\.$/,
        );
        waits.push(Number(refused.headers['retry-after']));
      }
      // Each failure doubles the wait, up to a minute.
      expect(waits).toEqual([2, 4, 8, 16, 32, 60, 60]);
      // The right password after the wait works, and forgets the failures.
      expect((await login(user.email.toUpperCase(), DEFAULT_PASSWORD)).statusCode).toBe(429);
      await waitPassed(user.email);
      expect((await login(user.email.toUpperCase(), DEFAULT_PASSWORD)).statusCode).toBe(200);
      for (let i = 0; i < 5; i++) expect((await login(user.email, 'wrong guess')).statusCode).toBe(400);
      // Other accounts are unaffected.
      const other = await createUser(t.ctx);
      expect((await login(other.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
    }, 240_000);

    it('log-in: an attacker’s failures elsewhere do not keep the real user out of a browser they signed in from', async () => {
      const user = await createUser(t.ctx);
      const home = address();
      const signedIn = await loginFrom(home, user.email, DEFAULT_PASSWORD);
      expect(signedIn.statusCode).toBe(200);
      const setCookie = String(signedIn.headers['set-cookie']);
      expect(setCookie).toMatch(
        /^known_client=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}; Path=\/api\/auth\/login\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/,
      );
      // It carries no user id: not as a token of its own (a random value may hold the id's digits by chance).
      expect(setCookie).not.toMatch(new RegExp(`(^|[^A-Za-z0-9_-])${user.id}([^A-Za-z0-9_-]|$)`));
      expect(setCookie).not.toContain(user.email);
      const cookie = setCookie.split(';')[0]!;

      // The attacker, from many addresses: five free guesses, then one per wait, and now waiting a minute.
      expect(await attack(user.email)).toEqual([400, 400, 400, 400, 400, ...Array(7).fill([429, 400]).flat()]);
      expect(Number((await login(user.email, 'too soon')).headers['retry-after'])).toBeGreaterThan(30);

      // Without the cookie even the right password waits (from the same address too); with it, the user is in.
      expect((await loginFrom(home, user.email, DEFAULT_PASSWORD)).statusCode).toBe(429);
      const known = await loginFrom(home, user.email, DEFAULT_PASSWORD, cookie);
      expect(known.statusCode).toBe(200);
      // …from another address as well (a laptop moves), and a typo there is a plain 400, not a wait.
      expect((await loginFrom(address(), user.email, 'a typo', cookie)).statusCode).toBe(400);
      expect((await loginFrom(address(), user.email, DEFAULT_PASSWORD, cookie)).statusCode).toBe(200);
      // The real user's success does not give the attacker fresh free tries.
      expect((await login(user.email, 'guess again')).statusCode).toBe(429);

      // The cookie is worth nothing for another account, nor once forged.
      const other = await createUser(t.ctx);
      await attack(other.email);
      expect((await loginFrom(home, other.email, DEFAULT_PASSWORD, cookie)).statusCode).toBe(429);
      const forged = `${cookie.slice(0, cookie.indexOf('.') + 1)}${'A'.repeat(22)}`;
      expect((await loginFrom(home, user.email, DEFAULT_PASSWORD, forged)).statusCode).toBe(429);

      // A stolen cookie buys a few guesses only: past its allowance the browser counts as unknown.
      for (let i = 0; i < 10; i++) {
        expect((await loginFrom(address(), user.email, `stolen ${i}`, cookie)).statusCode).toBe(400);
      }
      expect((await loginFrom(address(), user.email, 'stolen again', cookie)).statusCode).toBe(429);
    }, 240_000);

    it('log-in: one client address spraying many accounts is stopped at 100 attempts', async () => {
      const sprayer = address();
      for (let i = 0; i < 100; i++) {
        const response = await loginFrom(sprayer, `spray-${i}-${randomUUID().slice(0, 6)}@lab.test`, 'Winter2024!');
        expect(response.statusCode).toBe(400);
      }
      const blocked = await loginFrom(sprayer, `spray-last@lab.test`, 'Winter2024!');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().errors).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
      // The addresses' count is not the account's: a real user elsewhere signs in.
      const user = await createUser(t.ctx);
      expect((await login(user.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
    }, 240_000);

    it('password reset: per account and per client address', async () => {
      const email = `limited-${randomUUID().slice(0, 8)}@lab.test`;
      for (let i = 0; i < 10; i++) expect((await post('/api/auth/password/reset/', { email })).statusCode).toBe(200);
      expect((await post('/api/auth/password/reset/', { email })).statusCode).toBe(429);

      const headers = { 'x-forwarded-for': '192.0.2.55' };
      for (let i = 0; i < 100; i++) {
        const response = await post('/api/auth/password/reset/', { email: `spray-${i}@lab.test` }, headers);
        expect(response.statusCode).toBe(200);
      }
      const blocked = await post('/api/auth/password/reset/', { email: 'spray-last@lab.test' }, headers);
      expect(blocked.statusCode).toBe(429);
      expect((await post('/api/auth/password/reset/', { email: 'spray-last@lab.test' })).statusCode).toBe(200);
    }, 240_000);

    it('limits are configurable per instance, and windows expire', async () => {
      const limits = new AuthLimits(t.ctx.db, t.ctx.config.jwtSecret, {
        perAccount: 2,
        perAddress: 3,
        windowMs: 300,
        slowDown: { freeFailures: 1, firstDelayMs: 200, maxDelayMs: 400, forgetMs: 1_000 },
      });
      const account = `a-${randomUUID()}@lab.test`;
      await limits.claimAccountAttempt(account);
      await expect(limits.claimAccountAttempt(account.toUpperCase())).rejects.toThrow(/Try again in 1 second/);
      await new Promise((resolve) => setTimeout(resolve, 250));
      await limits.claimAccountAttempt(account);
      await expect(limits.claimAccountAttempt(account)).rejects.toThrow(/Too many failed log-ins/);
      await limits.loginFromAddress('4.4.4.4');
      await limits.loginFromAddress('4.4.4.4');
      await limits.loginFromAddress('4.4.4.4');
      await expect(limits.loginFromAddress('4.4.4.4')).rejects.toThrow(/Too many attempts/);
      await limits.mail(account, '5.5.5.5');
      await limits.mail(account, '6.6.6.6');
      await expect(limits.mail(account, '7.7.7.7')).rejects.toThrow(/Too many attempts/);
      await new Promise((resolve) => setTimeout(resolve, 450));
      await limits.loginFromAddress('4.4.4.4');
      await limits.claimAccountAttempt(account);
    });
  });
});
