import { deflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { invitations, memberships, projects, users } from '../../db/schema.js';

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A real, decodable RGB PNG of one solid colour. */
function tinyPng(width = 2, height = 2, rgb: [number, number, number] = [200, 30, 30]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function multipart(field: string, filename: string, data: Buffer, contentType = 'image/png') {
  const boundary = `----test${Date.now()}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        `Content-Type: ${contentType}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('users: profile, avatar, pending invitations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const upload = (user: TestUser, field: string, filename: string, data: Buffer, contentType?: string) => {
    const body = multipart(field, filename, data, contentType);
    return t.app.inject({
      method: 'POST',
      url: '/api/users/profile/upload_avatar/',
      payload: body.payload,
      headers: { ...user.headers, ...body.headers },
    });
  };

  describe('/api/users/profile/ and /api/users/profile/{id}/', () => {
    it('POST updates the caller’s names', async () => {
      const user = await createUser(t.ctx, { firstName: 'Marie', lastName: 'Curie' });
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/users/profile/',
        headers: user.headers,
        payload: { first_name: 'Maria', last_name: 'Skłodowska' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id: user.id,
        first_name: 'Maria',
        last_name: 'Skłodowska',
        display_name: 'Maria Skłodowska',
      });
      const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
      expect(row).toMatchObject({ firstName: 'Maria', lastName: 'Skłodowska' });
    });

    it('GET, PUT and PATCH work on the caller’s own id; any other id is 404', async () => {
      const user = await createUser(t.ctx);
      const other = await createUser(t.ctx);
      const own = await t.app.inject({ method: 'GET', url: `/api/users/profile/${user.id}/`, headers: user.headers });
      expect(own.statusCode).toBe(200);
      expect(own.json()).toMatchObject({ id: user.id, email: user.email, email_verified: true });

      for (const id of [other.id, 999999, 'abc']) {
        const response = await t.app.inject({ method: 'GET', url: `/api/users/profile/${id}/`, headers: user.headers });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ errors: 'Not found.' });
      }
      const patchOther = await t.app.inject({
        method: 'PATCH',
        url: `/api/users/profile/${other.id}/`,
        headers: user.headers,
        payload: { first_name: 'Hacked' },
      });
      expect(patchOther.statusCode).toBe(404);
      const [otherRow] = await t.ctx.db.select().from(users).where(eq(users.id, other.id));
      expect(otherRow!.firstName).toBe('Test');

      const patched = await t.app.inject({
        method: 'PATCH',
        url: `/api/users/profile/${user.id}/`,
        headers: user.headers,
        payload: { last_name: 'Hopper' },
      });
      expect(patched.json()).toMatchObject({ first_name: 'Test', last_name: 'Hopper' });
      const put = await t.app.inject({
        method: 'PUT',
        url: `/api/users/profile/${user.id}/`,
        headers: user.headers,
        payload: { first_name: 'Grace', last_name: 'Hopper', email: user.email.toUpperCase() },
      });
      expect(put.statusCode).toBe(200);
      expect(put.json().display_name).toBe('Grace Hopper');

      const emailChange = await t.app.inject({
        method: 'PUT',
        url: `/api/users/profile/${user.id}/`,
        headers: user.headers,
        payload: { email: 'new@lab.test' },
      });
      expect(emailChange.statusCode).toBe(400);
      expect(emailChange.json()).toEqual({ errors: { email: ['The e-mail address cannot be changed.'] } });
    });

    it('needs authentication', async () => {
      const user = await createUser(t.ctx);
      for (const [method, url] of [
        ['GET', `/api/users/profile/${user.id}/`],
        ['POST', '/api/users/profile/'],
        ['GET', '/api/users/profile/pending-invitations/'],
        ['POST', '/api/users/profile/upload_avatar/'],
      ] as const) {
        const response = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
        expect(response.statusCode, `${method} ${url}`).toBe(401);
      }
    });
  });

  describe('POST /api/users/profile/upload_avatar/', () => {
    it('stores the avatar, serves it from avatar_url, and deletes the previous one', async () => {
      const user = await createUser(t.ctx);
      const first = tinyPng(2, 2, [200, 30, 30]);
      const response = await upload(user, 'avatar', 'me.png', first);
      expect(response.statusCode).toBe(200);
      const avatarUrl = response.json().avatar_url as string;
      expect(avatarUrl).toMatch(new RegExp(`^${t.ctx.config.publicUrl}/api/files/`));
      const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
      expect(row!.avatarKey).toMatch(new RegExp(`^users/${user.id}/avatar-[0-9a-f-]+\\.png$`));

      const served = await t.app.inject({ method: 'GET', url: new URL(avatarUrl).pathname });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.rawPayload.equals(first)).toBe(true);

      const me = await t.app.inject({ method: 'GET', url: '/api/auth/user/', headers: user.headers });
      expect(me.json().avatar_url).toBe(avatarUrl);

      const second = await upload(user, 'avatar', 'me2.png', tinyPng(3, 3, [10, 200, 10]));
      expect(second.statusCode).toBe(200);
      const [after] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
      expect(after!.avatarKey).not.toBe(row!.avatarKey);
      expect(await t.ctx.storage.stat(row!.avatarKey!)).toBeNull();
      expect(await t.ctx.storage.stat(after!.avatarKey!)).toEqual({ size: expect.any(Number) });
    });

    it('refuses a non-image (415), a missing file (400), a too-big file (413) and plain JSON (415)', async () => {
      const user = await createUser(t.ctx);
      const text = await upload(user, 'avatar', 'avatar.png', Buffer.from('definitely not a png'), 'image/png');
      expect(text.statusCode).toBe(415);
      expect(text.json()).toEqual({ errors: 'Upload a PNG, JPEG, GIF or WebP image.' });

      const wrongField = await upload(user, 'picture', 'me.png', tinyPng());
      expect(wrongField.statusCode).toBe(400);
      expect(wrongField.json()).toEqual({ errors: { avatar: ['No file was submitted.'] } });

      const huge = Buffer.concat([tinyPng(), Buffer.alloc(6 * 1024 * 1024)]);
      const tooBig = await upload(user, 'avatar', 'huge.png', huge);
      expect(tooBig.statusCode).toBe(413);

      const json = await t.app.inject({
        method: 'POST',
        url: '/api/users/profile/upload_avatar/',
        headers: user.headers,
        payload: { avatar: 'x' },
      });
      expect(json.statusCode).toBe(415);

      const [row] = await t.ctx.db.select().from(users).where(eq(users.id, user.id));
      expect(row!.avatarKey).toBeNull();
    });
  });

  describe('GET /api/users/profile/pending-invitations/', () => {
    it('lists the caller’s pending, unexpired invitations, in any letter case, with project and inviter', async () => {
      const owner = await createUser(t.ctx, { firstName: 'Ada', lastName: 'Admin' });
      const invitee = await createUser(t.ctx, { email: `Invitee-${owner.id}@Lab.test` });
      const stranger = await createUser(t.ctx);
      const day = 24 * 3600 * 1000;
      const [alpha, beta, gamma, joined] = await t.ctx.db
        .insert(projects)
        .values(
          ['Alpha lab', 'Beta 50% study', 'Gamma', 'Joined already'].map((name) => ({
            name,
            ownerId: owner.id,
            metadata: { description: '', institution: '', principal_investigator: '' },
          })),
        )
        .returning();
      await t.ctx.db
        .insert(memberships)
        .values({ projectUuid: joined!.projectUuid, userId: invitee.id, role: 'member' });
      const later = new Date(Date.now() + 7 * day);
      const email = invitee.email.toLowerCase();
      await t.ctx.db.insert(invitations).values([
        {
          projectUuid: alpha!.projectUuid,
          email,
          role: 'member',
          invitedById: owner.id,
          expiresAt: later,
          createdAt: new Date(Date.now() - 2000),
        },
        {
          projectUuid: beta!.projectUuid,
          email: email.toUpperCase(),
          role: 'viewer',
          invitedById: null,
          expiresAt: later,
        },
        // Not listed: expired, accepted, revoked, already a member, someone else's.
        { projectUuid: gamma!.projectUuid, email, role: 'admin', expiresAt: new Date(Date.now() - day) },
        { projectUuid: gamma!.projectUuid, email, role: 'admin', status: 'accepted', expiresAt: later },
        { projectUuid: gamma!.projectUuid, email, role: 'admin', status: 'revoked', expiresAt: later },
        { projectUuid: joined!.projectUuid, email, role: 'viewer', expiresAt: later },
        { projectUuid: gamma!.projectUuid, email: stranger.email, role: 'member', expiresAt: later },
      ]);

      const response = await t.app.inject({
        method: 'GET',
        url: '/api/users/profile/pending-invitations/',
        headers: invitee.headers,
      });
      expect(response.statusCode).toBe(200);
      const page = response.json();
      expect(page).toMatchObject({ count: 2, next: null, previous: null });
      expect(page.results.map((r: { project_name: string }) => r.project_name)).toEqual([
        'Beta 50% study',
        'Alpha lab',
      ]);
      expect(page.results[1]).toEqual({
        invitation_uuid: expect.any(String),
        project_uuid: alpha!.projectUuid,
        project_name: 'Alpha lab',
        email,
        role: 'member',
        status: 'pending',
        invited_by: 'Ada Admin',
        created_at: expect.any(String),
        expires_at: later.toISOString(),
      });
      expect(page.results[0].invited_by).toBeNull();

      const searched = await t.app.inject({
        method: 'GET',
        url: '/api/users/profile/pending-invitations/?search=50%25&ordering=project_name',
        headers: invitee.headers,
      });
      expect(searched.json().results.map((r: { project_name: string }) => r.project_name)).toEqual(['Beta 50% study']);

      const paged = await t.app.inject({
        method: 'GET',
        url: '/api/users/profile/pending-invitations/?page_size=1&ordering=project_name',
        headers: invitee.headers,
      });
      expect(paged.json()).toMatchObject({ count: 2, previous: null, results: [{ project_name: 'Alpha lab' }] });
      expect(paged.json().next).toContain('page=2');

      const badOrdering = await t.app.inject({
        method: 'GET',
        url: '/api/users/profile/pending-invitations/?ordering=email',
        headers: invitee.headers,
      });
      expect(badOrdering.statusCode).toBe(400);
      expect(Object.keys(badOrdering.json().errors)).toEqual(['ordering']);

      const none = await t.app.inject({
        method: 'GET',
        url: '/api/users/profile/pending-invitations/',
        headers: owner.headers,
      });
      expect(none.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
    });
  });
});
