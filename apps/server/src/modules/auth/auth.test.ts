import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser, DEFAULT_PASSWORD } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import type { Mailer } from '../../adapters/mail/mailer.js';
import { emailTokens, refreshTokens, users } from '../../db/schema.js';
import { sendAuthMail } from './auth.mail.js';
import { authMailSettled, linkIn, mailsTo, waitForMailTo } from './outbox.test-support.js';

const PASSWORD = 'tawny owl 42';

describe('auth: registration, verification, log-in, tokens, current user', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Behind a trusted proxy, so requests can speak from their own client addresses; the job workers send the e-mails.
    t = await createTestApp({ config: { trustProxy: true, registrationsPerAddress: 3 }, workers: true });
  });
  afterAll(() => t.close());

  /** A distinct client address per request, so the per-address limits stay out of the way unless a test names one. */
  const octet = () => Math.floor(Math.random() * 250);
  const address = () => `10.${octet()}.${octet()}.${octet()}`;
  const post = (url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers: { 'x-forwarded-for': address(), ...headers } });
  const uniqueEmail = (name = 'user') => `${name}-${randomUUID().slice(0, 8)}@lab.test`;
  /** The key of the `count`-th verification e-mail to `email` (waits for the job to send it). */
  const verificationKey = async (email: string, count = 1) =>
    linkIn((await waitForMailTo(t.dataDir, email, count)).text, `${t.ctx.config.publicUrl}/auth/confirm-verification/`)
      .split('/')
      .at(-1)!;

  async function registerAndVerify(email = uniqueEmail()) {
    const registered = await post('/api/auth/register/', { email, password1: PASSWORD, password2: PASSWORD });
    expect(registered.statusCode).toBe(201);
    const key = await verificationKey(email);
    expect((await post('/api/auth/register/verify-email/', { key })).statusCode).toBe(200);
    const login = await post('/api/auth/login/', { email, password: PASSWORD });
    expect(login.statusCode).toBe(200);
    return login.json() as { access: string; refresh: string; user: { id: number; email: string } };
  }

  describe('POST /api/auth/register/ → e-mail → verify → log in', () => {
    it('walks the whole sign-up journey through the outbox', async () => {
      const email = uniqueEmail('Ada.Lovelace');
      const registered = await post('/api/auth/register/', {
        email,
        password1: PASSWORD,
        password2: PASSWORD,
        first_name: 'Ada',
        last_name: 'Lovelace',
      });
      expect(registered.statusCode).toBe(201);
      expect(registered.json()).toEqual({ detail: 'Check your e-mail to finish signing up.' });

      const mail = await waitForMailTo(t.dataDir, email);
      expect(mail.subject).toBe('Confirm your e-mail address');
      expect(mail.text).toContain('Hello Ada Lovelace,');
      const link = linkIn(mail.text, 'http');
      expect(link).toMatch(new RegExp(`^${t.ctx.config.publicUrl}/auth/confirm-verification/[A-Za-z0-9_-]{40,}$`));
      const key = link.split('/').at(-1)!;
      // Only the key's SHA-256 is stored.
      const stored = await t.ctx.db.select().from(emailTokens);
      expect(stored.some((row) => row.tokenHash === key)).toBe(false);
      expect(stored.some((row) => row.tokenHash.length === 64)).toBe(true);

      const refused = await post('/api/auth/login/', { email, password: PASSWORD });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors).toMatch(/not verified/);
      expect(refused.json().errors).toMatch(/request a new verification e-mail/);

      const verified = await post('/api/auth/register/verify-email/', { key });
      expect(verified.statusCode).toBe(200);
      expect(verified.json()).toEqual({ detail: 'ok' });

      const login = await post('/api/auth/login/', { email: email.toUpperCase(), password: PASSWORD });
      expect(login.statusCode).toBe(200);
      const body = login.json();
      expect(body.access).toEqual(expect.any(String));
      expect(body.refresh).toEqual(expect.any(String));
      expect(body.user).toMatchObject({
        email,
        first_name: 'Ada',
        last_name: 'Lovelace',
        display_name: 'Ada Lovelace',
        get_display_name: 'Ada Lovelace',
        avatar_url: null,
        email_verified: true,
      });
      expect(new Date(body.user.date_joined).getTime()).toBeGreaterThan(Date.now() - 60_000);

      const me = await t.app.inject({
        method: 'GET',
        url: '/api/auth/user/',
        headers: { authorization: `Bearer ${body.access}` },
      });
      expect(me.statusCode).toBe(200);
      expect(me.json().id).toBe(body.user.id);
    });

    it('reports every field problem at once in the {errors:{field:[...]}} shape', async () => {
      const response = await post('/api/auth/register/', {
        email: 'not-an-email',
        password1: '123',
        password2: '1234',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ errors: { email: ['Enter a valid e-mail address.'] } });

      const weak = await post('/api/auth/register/', {
        email: 'weak@lab.test',
        password1: '1234567',
        password2: '7654321',
      });
      expect(weak.statusCode).toBe(400);
      expect(weak.json()).toEqual({
        errors: {
          password1: [
            'This password is too short. It must contain at least 8 characters.',
            'This password is entirely numeric.',
          ],
          password2: ["The two password fields didn't match."],
        },
      });

      const missing = await post('/api/auth/register/', { email: 'a@lab.test' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errors).toEqual({
        password1: ['This field is required.'],
        password2: ['This field is required.'],
      });
    });

    it('refuses passwords that are the e-mail address, all digits or common', async () => {
      const email = uniqueEmail('grace');
      const same = await post('/api/auth/register/', { email, password1: email, password2: email });
      expect(same.json().errors.password1).toEqual(['This password is too similar to the e-mail address.']);
      const digits = await post('/api/auth/register/', { email, password1: '1234567890', password2: '1234567890' });
      expect(digits.json().errors.password1).toEqual(['This password is entirely numeric.']);
      const common = await post('/api/auth/register/', { email, password1: 'Password', password2: 'Password' });
      expect(common.json().errors.password1).toEqual(['This password is too common.']);
      const [row] = await t.ctx.db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
      expect(row).toBeUndefined();
    });

    it('answers an address that has an account exactly as a new one; its holder is told, nothing changes', async () => {
      const holder = await createUser(t.ctx, { firstName: 'Marie', lastName: 'Curie' });
      const [before] = await t.ctx.db.select().from(users).where(eq(users.id, holder.id));
      const unverified = uniqueEmail('pending');
      await post('/api/auth/register/', { email: unverified, password1: PASSWORD, password2: PASSWORD });
      await waitForMailTo(t.dataDir, unverified);

      const fresh = await post('/api/auth/register/', {
        email: uniqueEmail('fresh'),
        password1: PASSWORD,
        password2: PASSWORD,
      });
      const taken = await post('/api/auth/register/', {
        email: holder.email.toUpperCase(),
        password1: 'an intruder passphrase',
        password2: 'an intruder passphrase',
        first_name: 'Mallory',
      });
      const takenUnverified = await post('/api/auth/register/', {
        email: unverified,
        password1: 'an intruder passphrase',
        password2: 'an intruder passphrase',
      });
      for (const response of [taken, takenUnverified]) {
        expect(response.statusCode).toBe(fresh.statusCode);
        expect(response.statusCode).toBe(201);
        expect(response.body).toBe(fresh.body);
        expect(response.headers['content-type']).toBe(fresh.headers['content-type']);
        expect(response.headers['content-length']).toBe(fresh.headers['content-length']);
      }

      // The holder gets "someone tried to sign up" with the sign-in and reset-password links, no verification link.
      const mail = await waitForMailTo(t.dataDir, holder.email);
      expect(mail.subject).toBe('Someone tried to sign up with your e-mail address');
      expect(mail.text).toContain('Hello Marie Curie,');
      expect(mail.text).toContain('Nothing was changed.');
      expect(linkIn(mail.text, 'http')).toBe(`${t.ctx.config.publicUrl}/auth/login`);
      expect(mail.text).toContain(`${t.ctx.config.publicUrl}/auth/reset-password\n`);
      expect(mail.text).not.toContain('/auth/confirm-verification/');
      // The unverified holder too: a new verification link would let whoever signed up first in with their password.
      const second = await waitForMailTo(t.dataDir, unverified, 2);
      expect(second.subject).toBe('Someone tried to sign up with your e-mail address');
      expect(second.text).not.toContain('/auth/confirm-verification/');

      // Nothing about the existing accounts changed; no second account.
      const [after] = await t.ctx.db.select().from(users).where(eq(users.id, holder.id));
      expect(after).toEqual(before);
      const rows = await t.ctx.db
        .select()
        .from(users)
        .where(sql`lower(${users.email}) in (${holder.email}, ${unverified})`);
      expect(rows).toHaveLength(2);
      expect((await post('/api/auth/login/', { email: holder.email, password: DEFAULT_PASSWORD })).statusCode).toBe(
        200,
      );
      const intruder = await post('/api/auth/login/', { email: holder.email, password: 'an intruder passphrase' });
      expect(intruder.statusCode).toBe(400);
      await authMailSettled(t.ctx.jobs);
      expect(mailsTo(t.dataDir, holder.email)).toHaveLength(1);
    });

    it('answers before any e-mail is sent: the mail goes from a job, so timing tells nothing', async () => {
      const holder = await createUser(t.ctx);
      const outbox = t.ctx.mailer;
      const sending: string[] = [];
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      // A mailer that blocks until the test releases it: an answer that waited for it would never come.
      const blocking: Mailer = {
        kind: 'outbox',
        async send(message) {
          sending.push(message.to);
          await released;
          await outbox.send(message);
        },
        close: async () => {},
      };
      t.ctx.mailer = blocking;
      const fresh = uniqueEmail('blocked');
      try {
        const answers = await Promise.race([
          Promise.all([
            post('/api/auth/register/', { email: fresh, password1: PASSWORD, password2: PASSWORD }),
            post('/api/auth/register/', { email: holder.email, password1: PASSWORD, password2: PASSWORD }),
            post('/api/auth/password/reset/', { email: holder.email }),
            post('/api/auth/password/reset/', { email: uniqueEmail('nobody') }),
          ]),
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error('the answers waited for the mailer')), 30_000),
          ),
        ]);
        expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 200, 200]);
        expect(answers[1]!.body).toBe(answers[0]!.body);
        expect(answers[3]!.body).toBe(answers[2]!.body);
        // The job's mailer is running (held), and no e-mail is out yet: every answer came first.
        await vi.waitFor(() => expect(sending.length).toBeGreaterThan(0), { timeout: 10_000 });
        expect([fresh, holder.email]).toEqual(expect.arrayContaining(sending));
        expect(mailsTo(t.dataDir, fresh)).toHaveLength(0);
        expect(mailsTo(t.dataDir, holder.email)).toHaveLength(0);
      } finally {
        release();
        t.ctx.mailer = outbox;
      }
      expect((await waitForMailTo(t.dataDir, fresh)).subject).toBe('Confirm your e-mail address');
      await waitForMailTo(t.dataDir, holder.email, 2);
      expect(
        mailsTo(t.dataDir, holder.email)
          .map((m) => m.subject)
          .sort(),
      ).toEqual(['Reset your password', 'Someone tried to sign up with your e-mail address']);
    });

    it('limits sign-ups per client address with a clear 429', async () => {
      const headers = { 'x-forwarded-for': '203.0.113.9' };
      for (let i = 0; i < 3; i++) {
        const email = uniqueEmail('class');
        const response = await post(
          '/api/auth/register/',
          { email, password1: PASSWORD, password2: PASSWORD },
          headers,
        );
        expect(response.statusCode).toBe(201);
      }
      const email = uniqueEmail('one-too-many');
      const limited = await post('/api/auth/register/', { email, password1: PASSWORD, password2: PASSWORD }, headers);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ errors: 'Too many sign-ups from your network. Try again in 15 minutes.' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800);
      const [row] = await t.ctx.db.select().from(users).where(eq(users.email, email));
      expect(row).toBeUndefined();
      // Another address is not affected.
      expect((await post('/api/auth/register/', { email, password1: PASSWORD, password2: PASSWORD })).statusCode).toBe(
        201,
      );
    });
  });

  describe('verification keys', () => {
    it('are single-use, and account-confirm-email accepts them too', async () => {
      const email = uniqueEmail();
      await post('/api/auth/register/', { email, password1: PASSWORD, password2: PASSWORD });
      const key = await verificationKey(email);
      expect((await post('/api/auth/account-confirm-email/', { key })).json()).toEqual({ detail: 'ok' });
      for (const url of ['/api/auth/account-confirm-email/', '/api/auth/register/verify-email/']) {
        const reused = await post(url, { key });
        expect(reused.statusCode).toBe(400);
        expect(reused.json().errors).toMatch(/already been used/);
      }
    });

    it('expire, and an unknown or missing key is a clear 400', async () => {
      const email = uniqueEmail();
      await post('/api/auth/register/', { email, password1: PASSWORD, password2: PASSWORD });
      const key = await verificationKey(email);
      await t.ctx.db
        .update(emailTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(emailTokens.kind, 'email_verification'));
      const expired = await post('/api/auth/register/verify-email/', { key });
      expect(expired.statusCode).toBe(400);
      expect(expired.json().errors).toMatch(/expired/);

      const unknown = await post('/api/auth/register/verify-email/', { key: 'nope' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().errors).toMatch(/not valid/);

      const missing = await post('/api/auth/register/verify-email/', {});
      expect(missing.json()).toEqual({ errors: { key: ['This field is required.'] } });
    });

    it('can be re-sent to an unverified account; the answer never reveals whether one exists', async () => {
      const email = uniqueEmail();
      await post('/api/auth/register/', { email, password1: PASSWORD, password2: PASSWORD });
      const firstKey = await verificationKey(email);

      const resent = await post('/api/auth/register/resend-email/', { email });
      expect(resent.statusCode).toBe(200);
      const secondKey = await verificationKey(email, 2);
      expect(secondKey).not.toBe(firstKey);

      const nobody = uniqueEmail('nobody');
      const unknown = await post('/api/auth/register/resend-email/', { email: nobody });
      expect(unknown.statusCode).toBe(200);
      expect(unknown.json()).toEqual(resent.json());
      await authMailSettled(t.ctx.jobs);
      expect(mailsTo(t.dataDir, nobody)).toHaveLength(0);

      // Verifying with the new key retires the old one.
      expect((await post('/api/auth/register/verify-email/', { key: secondKey })).statusCode).toBe(200);
      expect((await post('/api/auth/register/verify-email/', { key: firstKey })).statusCode).toBe(400);
      // A verified account gets no more verification e-mails.
      expect((await post('/api/auth/register/resend-email/', { email })).statusCode).toBe(200);
      await authMailSettled(t.ctx.jobs);
      expect(mailsTo(t.dataDir, email)).toHaveLength(2);

      const invalid = await post('/api/auth/register/resend-email/', { email: 'nope' });
      expect(invalid.json()).toEqual({ errors: { email: ['Enter a valid e-mail address.'] } });
    });
  });

  describe('POST /api/auth/login/', () => {
    it('refuses a wrong password and an unknown account with the same message', async () => {
      const user = await createUser(t.ctx);
      const wrong = await post('/api/auth/login/', { email: user.email, password: 'not the password' });
      const unknown = await post('/api/auth/login/', { email: uniqueEmail('ghost'), password: 'whatever it is' });
      expect(wrong.statusCode).toBe(400);
      expect(unknown.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ errors: 'Unable to log in with the e-mail address and password provided.' });
      expect(unknown.json()).toEqual(wrong.json());
      const missing = await post('/api/auth/login/', { email: user.email });
      expect(missing.json()).toEqual({ errors: { password: ['This field is required.'] } });
    });

    it('records the refresh token it hands out', async () => {
      const user = await createUser(t.ctx);
      const login = await post('/api/auth/login/', { email: user.email, password: DEFAULT_PASSWORD });
      expect(login.statusCode).toBe(200);
      const claims = await t.ctx.tokens.verify(login.json().refresh, 'refresh');
      const [row] = await t.ctx.db.select().from(refreshTokens).where(eq(refreshTokens.jti, claims!.jti!));
      expect(row).toMatchObject({ userId: user.id, revokedAt: null });
      expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
    });
  });

  describe('tokens', () => {
    it('rotates refresh tokens; reusing an old one ends every session of the user', async () => {
      const { refresh: first } = await registerAndVerify();
      const rotated = await post('/api/auth/token/refresh/', { refresh: first });
      expect(rotated.statusCode).toBe(200);
      const second = rotated.json() as { access: string; refresh: string };
      expect(second.refresh).not.toBe(first);
      const me = await t.app.inject({
        method: 'GET',
        url: '/api/auth/user/',
        headers: { authorization: `Bearer ${second.access}` },
      });
      expect(me.statusCode).toBe(200);

      // Within the grace period (two tabs racing) the old token is refused, nothing else happens.
      const raced = await post('/api/auth/token/refresh/', { refresh: first });
      expect(raced.statusCode).toBe(401);
      expect(raced.json()).toEqual({ errors: 'Token is invalid or expired' });
      const third = (await post('/api/auth/token/refresh/', { refresh: second.refresh })).json() as {
        refresh: string;
      };
      expect(third.refresh).toEqual(expect.any(String));

      // Later reuse means the token was copied: the newest token, never used, ends as well.
      const firstJti = (await t.ctx.tokens.verify(first, 'refresh'))!.jti!;
      await t.ctx.db
        .update(refreshTokens)
        .set({ revokedAt: new Date(Date.now() - 60_000) })
        .where(eq(refreshTokens.jti, firstJti));
      const reused = await post('/api/auth/token/refresh/', { refresh: first });
      expect(reused.statusCode).toBe(401);
      expect((await post('/api/auth/token/refresh/', { refresh: third.refresh })).statusCode).toBe(401);
    });

    it('refuses garbage and access tokens as refresh tokens, and ignores the bearer header', async () => {
      const user = await createUser(t.ctx);
      expect((await post('/api/auth/token/refresh/', { refresh: 'garbage' })).statusCode).toBe(401);
      expect((await post('/api/auth/token/refresh/', { refresh: user.token })).statusCode).toBe(401);
      expect((await post('/api/auth/token/refresh/', {})).json()).toEqual({
        errors: { refresh: ['This field is required.'] },
      });
      // A refresh token signed with our key but never recorded (e.g. forged with a leaked secret elsewhere).
      const unrecorded = await t.ctx.tokens.signRefresh(user.id, randomUUID());
      expect((await post('/api/auth/token/refresh/', { refresh: unrecorded })).statusCode).toBe(401);

      const login = await post('/api/auth/login/', { email: user.email, password: DEFAULT_PASSWORD });
      const withBadBearer = await post(
        '/api/auth/token/refresh/',
        { refresh: login.json().refresh, access: 'stale' },
        { authorization: 'Bearer expired-or-garbage' },
      );
      expect(withBadBearer.statusCode).toBe(200);
    });

    it('token/verify answers 200 {} for a valid access token and 401 otherwise', async () => {
      const user = await createUser(t.ctx);
      const ok = await post('/api/auth/token/verify/', { token: user.token });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({});
      const login = await post('/api/auth/login/', { email: user.email, password: DEFAULT_PASSWORD });
      const refreshAsAccess = await post('/api/auth/token/verify/', { token: login.json().refresh });
      expect(refreshAsAccess.statusCode).toBe(401);
      expect(refreshAsAccess.json()).toEqual({ errors: 'Token is invalid or expired' });
      expect((await post('/api/auth/token/verify/', { token: 'x.y.z' })).statusCode).toBe(401);
      const other = await t.ctx.tokens.signAccess(987654);
      expect((await post('/api/auth/token/verify/', { token: other })).statusCode).toBe(401);
    });
  });

  describe('logout', () => {
    it('POST with a refresh token revokes it', async () => {
      const { refresh } = await registerAndVerify();
      const out = await post('/api/auth/logout/', { refresh });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ detail: 'Successfully logged out.' });
      expect((await post('/api/auth/token/refresh/', { refresh })).statusCode).toBe(401);
    });

    it('GET, POST without a body and POST with a bad token all answer 200', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/logout/' })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout/' })).statusCode).toBe(200);
      const emptyJson = await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout/',
        headers: { 'content-type': 'application/json' },
      });
      expect(emptyJson.statusCode).toBe(200);
      const badJson = await t.app.inject({
        method: 'POST',
        url: '/api/auth/logout/',
        headers: { 'content-type': 'application/json' },
        payload: '{"refresh":',
      });
      expect(badJson.statusCode).toBe(400);
      expect((await post('/api/auth/logout/', {})).statusCode).toBe(200);
      expect((await post('/api/auth/logout/', { refresh: 'garbage' })).statusCode).toBe(200);
    });
  });

  describe('GET, PUT, PATCH /api/auth/user/', () => {
    it('needs a valid access token', async () => {
      const none = await t.app.inject({ method: 'GET', url: '/api/auth/user/' });
      expect(none.statusCode).toBe(401);
      expect(none.json()).toEqual({ errors: 'Authentication credentials were not provided.' });
      const bad = await t.app.inject({
        method: 'PATCH',
        url: '/api/auth/user/',
        headers: { authorization: 'Bearer x' },
        payload: { first_name: 'X' },
      });
      expect(bad.json()).toEqual({ errors: 'Given token not valid for any token type' });
      expect(bad.statusCode).toBe(401);
    });

    it('updates names; the display name follows, falling back to the e-mail', async () => {
      const user = await createUser(t.ctx, { firstName: 'Rosalind', lastName: 'Franklin' });
      const got = await t.app.inject({ method: 'GET', url: '/api/auth/user/', headers: user.headers });
      expect(got.json()).toMatchObject({ id: user.id, email: user.email, display_name: 'Rosalind Franklin' });

      const patched = await t.app.inject({
        method: 'PATCH',
        url: '/api/auth/user/',
        headers: user.headers,
        payload: { first_name: '  Rosa ' },
      });
      expect(patched.statusCode).toBe(200);
      expect(patched.json()).toMatchObject({
        first_name: 'Rosa',
        last_name: 'Franklin',
        display_name: 'Rosa Franklin',
      });

      const put = await t.app.inject({
        method: 'PUT',
        url: '/api/auth/user/',
        headers: user.headers,
        payload: { ...(got.json() as object), first_name: '', last_name: '' },
      });
      expect(put.statusCode).toBe(200);
      expect(put.json()).toMatchObject({ first_name: '', last_name: '', display_name: user.email });
      expect(put.json().get_display_name).toBe(user.email);
    });

    it('refuses to change the e-mail address', async () => {
      const user = await createUser(t.ctx);
      const response = await t.app.inject({
        method: 'PATCH',
        url: '/api/auth/user/',
        headers: user.headers,
        payload: { email: 'someone-else@lab.test', first_name: 'X' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ errors: { email: ['The e-mail address cannot be changed.'] } });
      const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
      expect(row).toMatchObject({ email: user.email, firstName: 'Test' });

      const tooLong = await t.app.inject({
        method: 'PATCH',
        url: '/api/auth/user/',
        headers: user.headers,
        payload: { last_name: 'x'.repeat(151) },
      });
      expect(tooLong.json()).toEqual({ errors: { last_name: ['Ensure this field has no more than 150 characters.'] } });
    });
  });
});

describe('auth with SMTP_URL: the verification e-mail goes over SMTP', () => {
  const received: { to: string[]; raw: string }[] = [];
  let server: SMTPServer;
  let t: TestApp;

  beforeAll(async () => {
    server = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString() });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    t = await createTestApp({
      env: { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Lab <lab@lab.test>' },
      workers: true,
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('chooses the SMTP mailer and delivers the link', async () => {
    expect(t.ctx.mailer.kind).toBe('smtp');
    const health = await t.app.inject({ method: 'GET', url: '/api/health/' });
    expect(health.json().mail).toBe('smtp');
    const email = 'smtp-user@lab.test';
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register/',
      payload: { email, password1: PASSWORD, password2: PASSWORD },
    });
    expect(response.statusCode).toBe(201);
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 15_000 });
    expect(received[0]!.to).toEqual([email]);
    const body = received[0]!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(body).toContain(`${t.ctx.config.publicUrl}/auth/confirm-verification/`);
    expect(mailsTo(t.dataDir, email)).toHaveLength(0);
  });

  it('undoes the sign-up when the verification e-mail can never be sent', async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const email = 'unlucky@lab.test';
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register/',
      payload: { email, password1: PASSWORD, password2: PASSWORD },
    });
    // The answer does not wait for the e-mail; the job retries it.
    expect(response.statusCode).toBe(201);
    const [user] = await t.ctx.db.select().from(users).where(eq(users.email, email));
    expect(user).toBeDefined();
    const mail = { kind: 'verification', userId: user!.id, newAccount: true } as const;
    // An attempt that is not the last keeps the account for the retry.
    await expect(sendAuthMail(t.ctx, mail, false)).rejects.toThrow();
    expect(await t.ctx.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
    // The last attempt undoes the sign-up, so the address can sign up again.
    await expect(sendAuthMail(t.ctx, mail, true)).rejects.toThrow();
    expect(await t.ctx.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });
});
