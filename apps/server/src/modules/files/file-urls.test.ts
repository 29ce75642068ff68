import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, DEFAULT_PASSWORD, type TestUser, TINY_PNG } from '../../../test/factories.js';
import { createProjectWithSubject, type ProjectWithSubject } from '../../../test/factories-videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { analyses, users, videos } from '../../db/schema.js';
import { analysisKeys, userAvatarKey, videoKeys } from '../../lib/storage-keys.js';
import { DOWNLOAD_URL_SECONDS, IMAGE_URL_SECONDS, IMAGE_URL_WINDOW_SECONDS } from './file-urls.js';

const SERIES_CSV = 'frame,time_s,value\n0,0,1.5\n1,0.04,2.5\n';
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 0xff, 0xd9]);

interface Claims {
  sub: string;
  iat: number;
  iat_ms: number;
  exp: number;
}

/** The claims of a token (the last path segment of a file URL, or a stream URL's `token`). */
function claimsOf(urlOrToken: string): Claims {
  const token = urlOrToken.includes('?token=')
    ? decodeURIComponent(urlOrToken.split('?token=')[1]!)
    : urlOrToken.split('/').pop()!;
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Claims;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until early in a second, so that what happens next (a few ms) stays in that second. */
async function earlyInASecond() {
  while (Date.now() % 1000 > 700) await sleep(20);
}

/**
 * `/api/files/{token}` (thumbnails, logos, avatars, series CSVs), stream URLs and tus uploads, over real HTTP:
 * a URL is checked on every request against its user's membership and password, and lives minutes (downloads) or
 * at most a day (images).
 */
describe('file, stream and upload URLs do not outlive membership or a password change', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ listen: true });
  });
  afterAll(() => t.close());

  /** A URL the API handed out (made on PUBLIC_URL), fetched on the test server. */
  const open = (url: string, init?: RequestInit) => fetch(url.replace(t.ctx.config.publicUrl, t.url), init);

  function call(user: TestUser, method: string, path: string, body?: object) {
    return fetch(`${t.url}${path}`, {
      method,
      headers: { ...user.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  }

  interface Lab {
    owner: TestUser;
    member: TestUser;
    project: ProjectWithSubject;
    videoUrl: string;
    thumbnailKey: string;
    csvKey: string;
  }

  /** A project with an owner and a member, one ready video with a thumbnail, and a finished run with its CSV. */
  async function lab(): Promise<Lab> {
    const owner = await createUser(t.ctx);
    const member = await createUser(t.ctx);
    const project = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, member.id, 'member');
    const [video] = await t.ctx.db
      .insert(videos)
      .values({
        projectUuid: project.projectUuid,
        subjectUuid: project.subjectUuid,
        name: 'Cage 1',
        originalFilename: 'cage1.mp4',
        status: 'ready',
      })
      .returning();
    const keys = videoKeys(video!, '.mp4');
    await t.ctx.storage.write(keys.original, Buffer.alloc(4096, 9));
    await t.ctx.storage.write(keys.thumbnail, JPEG);
    await t.ctx.db
      .update(videos)
      .set({ originalKey: keys.original, sizeBytes: 4096, thumbnailKey: keys.thumbnail })
      .where(eq(videos.videoUuid, video!.videoUuid));
    const [run] = await t.ctx.db
      .insert(analyses)
      .values({
        projectUuid: project.projectUuid,
        subjectUuid: project.subjectUuid,
        videoUuid: video!.videoUuid,
        kind: 'movement_detection',
        parameters: {},
        status: 'succeeded',
        softwareVersion: 'test',
        createdById: owner.id,
      })
      .returning();
    const csvKey = analysisKeys(run!).seriesCsv;
    await t.ctx.storage.write(csvKey, Buffer.from(SERIES_CSV));
    await t.ctx.db.update(analyses).set({ seriesCsvKey: csvKey }).where(eq(analyses.analysisUuid, run!.analysisUuid));
    return {
      owner,
      member,
      project,
      videoUrl: `${project.videosUrl}${video!.videoUuid}/`,
      thumbnailKey: keys.thumbnail,
      csvKey,
    };
  }

  async function urlsOf(l: Lab, user: TestUser) {
    const video = await call(user, 'GET', l.videoUrl);
    expect(video.status).toBe(200);
    const { thumbnail_url, stream_url } = (await video.json()) as { thumbnail_url: string; stream_url: string };
    const series = await call(user, 'GET', `${l.videoUrl}analysis/retrieve-timeseries-url/`);
    expect(series.status).toBe(200);
    const csv = (await series.json()) as { url: string; expires_at: string };
    return { thumbnail: thumbnail_url, stream: stream_url, csv: csv.url, csvExpiresAt: csv.expires_at };
  }

  async function changePassword(user: TestUser): Promise<TestUser> {
    const answer = await call(user, 'POST', '/api/auth/password/change/', {
      old_password: user.password,
      new_password1: `${DEFAULT_PASSWORD} again`,
      new_password2: `${DEFAULT_PASSWORD} again`,
    });
    expect(answer.status).toBe(200);
    const { access } = (await answer.json()) as { access: string };
    return {
      ...user,
      password: `${DEFAULT_PASSWORD} again`,
      token: access,
      headers: { authorization: `Bearer ${access}` },
    };
  }

  it("answers 404 to a removed member's thumbnail and series-CSV URLs at once; the others' keep working", async () => {
    const l = await lab();
    const mine = await urlsOf(l, l.member);
    const owners = await urlsOf(l, l.owner);
    for (const urls of [mine, owners]) {
      const thumbnail = await open(urls.thumbnail);
      expect(thumbnail.status).toBe(200);
      expect(thumbnail.headers.get('content-type')).toBe('image/jpeg');
      expect(Buffer.from(await thumbnail.arrayBuffer()).equals(JPEG)).toBe(true);
      const csv = await open(urls.csv);
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-disposition')).toContain('attachment');
      expect(await csv.text()).toBe(SERIES_CSV);
    }

    const removed = await call(l.owner, 'DELETE', `/api/projects/${l.project.projectUuid}/members/${l.member.id}/`);
    expect(removed.status).toBe(204);

    for (const url of [mine.thumbnail, mine.csv]) {
      const refused = await open(url);
      expect(refused.status, url).toBe(404);
      expect(await refused.json()).toEqual({ errors: 'Not found.' });
    }
    expect((await open(owners.thumbnail)).status).toBe(200);
    expect((await open(owners.csv)).status).toBe(200);
  });

  it("serves a URL to its own user only: another user's token for the key, or a token naming only the key, is a 404", async () => {
    const l = await lab();
    const outsider = await createUser(t.ctx);
    const now = Date.now();
    const times = { issuedAtMs: now, expiresAt: Math.floor(now / 1000) + 600 };
    const outsiders = await t.ctx.tokens.signFile(outsider.id, l.thumbnailKey, times);
    expect((await fetch(`${t.url}/api/files/${outsiders}`)).status).toBe(404);
    const members = await t.ctx.tokens.signFile(l.member.id, l.thumbnailKey, times);
    expect((await fetch(`${t.url}/api/files/${members}`)).status).toBe(200);
    // The shape file tokens had before they named a user: signed with the right secret, but no user.
    const keyOnly = await new SignJWT({ typ: 'file', res: l.thumbnailKey })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('file')
      .setExpirationTime(Math.floor(now / 1000) + 600)
      .sign(new TextEncoder().encode(t.ctx.config.jwtSecret));
    expect((await fetch(`${t.url}/api/files/${keyOnly}`)).status).toBe(404);
    // Keys no builder makes are refused before storage is read.
    for (const key of ['projects/../users/1/avatar-x.png', 'other/thing.png', `users/${l.member.id}/notes.txt`]) {
      const token = await t.ctx.tokens.signFile(l.member.id, key, times);
      expect((await fetch(`${t.url}/api/files/${token}`)).status, key).toBe(404);
    }
  });

  it('shows an avatar to its owner and to users sharing a project with them, and to nobody else', async () => {
    const l = await lab();
    const key = userAvatarKey(l.owner.id, 'face.png');
    await t.ctx.storage.write(key, TINY_PNG);
    await t.ctx.db.update(users).set({ avatarKey: key }).where(eq(users.id, l.owner.id));

    const me = (await (await call(l.owner, 'GET', '/api/auth/user/')).json()) as { avatar_url: string };
    expect((await open(me.avatar_url)).status).toBe(200);
    const team = await call(l.member, 'GET', `/api/projects/${l.project.projectUuid}/members/`);
    const members = ((await team.json()) as { results: { user: { id: number; avatar_url: string | null } }[] }).results;
    const ownersAvatar = members.find((m) => m.user.id === l.owner.id)!.user.avatar_url!;
    const served = await open(ownersAvatar);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');

    const outsider = await createUser(t.ctx);
    const now = Date.now();
    const token = await t.ctx.tokens.signFile(outsider.id, key, {
      issuedAtMs: now,
      expiresAt: Math.floor(now / 1000) + 600,
    });
    expect((await fetch(`${t.url}/api/files/${token}`)).status).toBe(404);

    await call(l.owner, 'DELETE', `/api/projects/${l.project.projectUuid}/members/${l.member.id}/`);
    expect((await open(ownersAvatar)).status).toBe(404);
    expect((await open(me.avatar_url)).status).toBe(200);
  });

  it('gives images at most 24 hours (the same URL through a 12-hour window) and downloads 5 minutes; an expired URL is refused', async () => {
    const l = await lab();
    const first = await urlsOf(l, l.member);
    const second = await urlsOf(l, l.member);
    const now = Date.now() / 1000;

    const image = claimsOf(first.thumbnail);
    expect(image.exp - now).toBeLessThanOrEqual(IMAGE_URL_SECONDS);
    expect(image.exp - now).toBeGreaterThan(IMAGE_URL_SECONDS - IMAGE_URL_WINDOW_SECONDS - 60);
    expect(image.exp - image.iat).toBeLessThanOrEqual(IMAGE_URL_SECONDS);
    expect(image.sub).toBe(String(l.member.id));
    // The browser's cache keeps working: the same user gets the same URL for the same image.
    expect(second.thumbnail).toBe(first.thumbnail);
    expect((await open(first.thumbnail)).headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);

    const download = claimsOf(first.csv);
    expect(download.exp - now).toBeLessThanOrEqual(DOWNLOAD_URL_SECONDS);
    expect(DOWNLOAD_URL_SECONDS).toBeLessThanOrEqual(5 * 60);
    expect(new Date(first.csvExpiresAt).getTime() / 1000).toBe(download.exp);

    const past = Date.now() - 25 * 60 * 60 * 1000;
    const expiredImage = await t.ctx.tokens.signFile(l.member.id, l.thumbnailKey, {
      issuedAtMs: past,
      expiresAt: Math.floor(past / 1000) + IMAGE_URL_SECONDS,
    });
    expect((await fetch(`${t.url}/api/files/${expiredImage}`)).status).toBe(404);
    const expiredDownload = await t.ctx.tokens.signFile(l.member.id, l.csvKey, {
      issuedAtMs: Date.now() - 10 * 60 * 1000,
      expiresAt: Math.floor(Date.now() / 1000) - 5 * 60,
    });
    expect((await fetch(`${t.url}/api/files/${expiredDownload}`)).status).toBe(404);
  });

  it('ends file and stream URLs made before a password change; the ones made right after it work', async () => {
    const l = await lab();
    const before = await urlsOf(l, l.member);
    expect((await open(before.stream, { headers: { range: 'bytes=0-9' } })).status).toBe(206);
    await sleep(5);
    const member = await changePassword(l.member);

    expect((await open(before.stream, { headers: { range: 'bytes=0-9' } })).status).toBe(401);
    expect((await open(before.stream, { method: 'HEAD' })).status).toBe(401);
    expect((await open(before.thumbnail)).status).toBe(404);
    expect((await open(before.csv)).status).toBe(404);

    // Fresh links, made at once with the token the change handed back.
    const after = await urlsOf(l, member);
    expect(after.thumbnail).not.toBe(before.thumbnail);
    expect((await open(after.stream, { headers: { range: 'bytes=0-9' } })).status).toBe(206);
    expect((await open(after.thumbnail)).status).toBe(200);
    expect((await open(after.csv)).status).toBe(200);
    expect((await call(member, 'GET', '/api/auth/user/')).status).toBe(200);
  });

  it('compares issue times in milliseconds: a link made earlier in the same second as the change is refused', async () => {
    const l = await lab();
    const issuedAt = (url: string) => claimsOf(url).iat_ms;
    let urls: Awaited<ReturnType<typeof urlsOf>>;
    // Each link needs a later millisecond in its own second (a busy machine may spread the links over seconds).
    do {
      await earlyInASecond();
      urls = await urlsOf(l, l.member);
    } while ([urls.stream, urls.csv].some((url) => issuedAt(url) % 1000 === 999));
    expect(claimsOf(urls.stream).iat).toBe(Math.floor(issuedAt(urls.stream) / 1000));
    const changeAt = (ms: number) =>
      t.ctx.db
        .update(users)
        .set({ passwordChangedAt: new Date(ms) })
        .where(eq(users.id, l.member.id));

    for (const [url, refused, expected] of [
      [urls.stream, 401, 206],
      [urls.csv, 404, 200],
    ] as const) {
      const issued = issuedAt(url);
      // A change of password at the link's very millisecond leaves it valid (no off-by-one against fresh links) …
      await changeAt(issued);
      expect((await open(url, { headers: { range: 'bytes=0-9' } })).status).toBe(expected);
      // … one millisecond later, in the same second, ends it.
      expect(Math.floor((issued + 1) / 1000)).toBe(Math.floor(issued / 1000));
      await changeAt(issued + 1);
      expect((await open(url, { headers: { range: 'bytes=0-9' } })).status).toBe(refused);
    }
    expect(claimsOf(l.member.token).iat_ms).toBeLessThan(issuedAt(urls.csv) + 1);
    expect((await call(l.member, 'GET', '/api/auth/user/')).status).toBe(401);
  });

  describe('tus uploads', () => {
    const b64 = (value: string) => Buffer.from(value).toString('base64');

    async function startUpload(l: Lab, user: TestUser): Promise<string> {
      const created = await fetch(`${t.url}/api/uploads/`, {
        method: 'POST',
        headers: {
          ...user.headers,
          'tus-resumable': '1.0.0',
          'upload-length': '1000',
          'upload-metadata': `project_uuid ${b64(l.project.projectUuid)},subject_uuid ${b64(l.project.subjectUuid)},filename ${b64('cage.mp4')}`,
        },
      });
      expect(created.status).toBe(201);
      return created.headers.get('location')!.replace(/^https?:\/\/[^/]+/, t.url);
    }

    const head = (user: TestUser, location: string) =>
      fetch(location, { method: 'HEAD', headers: { ...user.headers, 'tus-resumable': '1.0.0' } });
    const patch = (user: TestUser, location: string) =>
      fetch(location, {
        method: 'PATCH',
        headers: {
          ...user.headers,
          'tus-resumable': '1.0.0',
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        },
        body: Buffer.alloc(100, 1),
      });

    it('refuses HEAD and PATCH with a token issued before a password change, and accepts the new one', async () => {
      const l = await lab();
      const location = await startUpload(l, l.member);
      expect((await head(l.member, location)).status).toBe(200);
      await sleep(5);
      const member = await changePassword(l.member);
      expect((await head(l.member, location)).status).toBe(401);
      expect((await patch(l.member, location)).status).toBe(401);
      const resumed = await head(member, location);
      expect(resumed.status).toBe(200);
      expect(resumed.headers.get('upload-offset')).toBe('0');
      const more = await patch(member, location);
      expect(more.status).toBe(204);
      expect(more.headers.get('upload-offset')).toBe('100');
    });

    it('refuses a token issued earlier in the same second as the change', async () => {
      const l = await lab();
      await earlyInASecond();
      const token = await t.ctx.tokens.signAccess(l.member.id);
      const early: TestUser = { ...l.member, token, headers: { authorization: `Bearer ${token}` } };
      const location = await startUpload(l, early);
      const issued = claimsOf(token).iat_ms;
      await t.ctx.db
        .update(users)
        .set({ passwordChangedAt: new Date(issued + 1) })
        .where(eq(users.id, l.member.id));
      expect((await head(early, location)).status).toBe(401);
      expect((await patch(early, location)).status).toBe(401);
      const fresh = await t.ctx.tokens.signAccess(l.member.id);
      expect((await head({ ...early, headers: { authorization: `Bearer ${fresh}` } }, location)).status).toBe(200);
    });
  });
});
