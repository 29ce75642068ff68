import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, DEFAULT_PASSWORD, type TestUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { emailTokens, users } from '../../db/schema.js';
import { AuthLimits } from './auth.limits.js';
import { lastMailTo, linkIn, mailsTo } from './outbox.test-support.js';

const NEW_PASSWORD = 'a brand new passphrase';

/** Access tokens carry whole seconds: wait for the next one so "issued before the change" is unambiguous. */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1010 - (Date.now() % 1000)));

describe('auth: password reset, password change, rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Behind a trusted proxy, so each test can speak from its own client address.
    t = await createTestApp({ config: { trustProxy: true } });
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
    const response = await post('/api/auth/password/reset/', { email: user.email.toUpperCase() });
    expect(response.statusCode).toBe(200);
    const link = linkIn(
      lastMailTo(t.dataDir, user.email).text,
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
      expect(unknown.json()).toEqual(known.json());
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
    it('log-in: the 11th attempt on one account within the window is 429, from any address', async () => {
      const user = await createUser(t.ctx);
      for (let i = 0; i < 10; i++) {
        expect((await login(user.email, `wrong guess ${i}`)).statusCode).toBe(400);
      }
      const blocked = await login(user.email.toUpperCase(), DEFAULT_PASSWORD);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().errors).toMatch(/Too many attempts/);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
      // Other accounts are unaffected.
      const other = await createUser(t.ctx);
      expect((await login(other.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
    });

    it('log-in: a successful log-in clears the account count', async () => {
      const user = await createUser(t.ctx);
      for (let i = 0; i < 9; i++) await login(user.email, 'wrong guess');
      expect((await login(user.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
      for (let i = 0; i < 9; i++) expect((await login(user.email, 'wrong guess')).statusCode).toBe(400);
    });

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
    });

    it('limits are configurable per instance, and windows expire', async () => {
      const limits = new AuthLimits(t.ctx.db, t.ctx.config.jwtSecret, { perAccount: 2, perAddress: 3, windowMs: 300 });
      const account = `a-${randomUUID()}@lab.test`;
      await limits.login.hit(account, '1.1.1.1');
      await limits.login.hit(account.toUpperCase(), '2.2.2.2');
      await expect(limits.login.hit(account, '3.3.3.3')).rejects.toThrow(/Too many attempts/);
      await limits.login.hit('b@lab.test', '4.4.4.4');
      await limits.login.hit('c@lab.test', '4.4.4.4');
      await limits.login.hit('d@lab.test', '4.4.4.4');
      await expect(limits.login.hit('e@lab.test', '4.4.4.4')).rejects.toThrow(/Too many attempts/);
      // The mail limiter counts separately.
      await limits.mail.hit(account, '5.5.5.5');
      await new Promise((resolve) => setTimeout(resolve, 350));
      await limits.login.hit(account, '4.4.4.4');
    });
  });
});
