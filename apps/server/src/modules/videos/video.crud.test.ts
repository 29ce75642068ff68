import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import {
  createProjectWithSubject,
  createSubjectRow,
  type ProjectWithSubject,
  uploadVideo,
} from '../../../test/factories-videos.js';
import { type VideoFixtures, videoFixtures } from '../../../test/fixtures/videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { memberships, pendingFileDeletions, videos } from '../../db/schema.js';
import { videoStoragePrefix } from '../../lib/storage-keys.js';

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

// Small enough that the 307 kB AVI is over it, big enough for the 163 kB MP4.
const MAX_UPLOAD_BYTES = 200_000;

describe('videos: list, detail, update, delete, stream', () => {
  let t: TestApp;
  let owner: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let fixtures: VideoFixtures;
  let project: ProjectWithSubject;
  let mp4: Buffer;

  /** Uploads the MP4 fixture; without workers the video stays `processing`, which these tests do not mind. */
  async function upload(name?: string) {
    const response = await uploadVideo(t.app, owner, project.videosUrl, fixtures.h264Mp4, {
      fields: name ? { name } : {},
    });
    expect(response.statusCode).toBe(201);
    return response.json() as { video_uuid: string; stream_url: string; name: string; created_at: string };
  }

  const filesDir = () => path.join(t.dataDir, 'files');
  /** Empties the project's trash (deleted videos keep their files until then). */
  const purgeTrash = async () => {
    const url = `/api/projects/${project.projectUuid}/trash/`;
    expect((await t.app.inject({ method: 'DELETE', url, headers: owner.headers })).statusCode).toBe(200);
  };
  const videoDir = (videoUuid: string) =>
    path.join(filesDir(), videoStoragePrefix({ projectUuid: project.projectUuid, videoUuid }));

  beforeAll(async () => {
    fixtures = videoFixtures();
    mp4 = readFileSync(fixtures.h264Mp4);
    t = await createTestApp({ config: { maxUploadBytes: MAX_UPLOAD_BYTES } });
    owner = await createUser(t.ctx);
    viewer = await createUser(t.ctx);
    outsider = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
  });
  afterAll(() => t.close());

  it('refuses a file over MAX_UPLOAD_BYTES with 413 and keeps nothing', async () => {
    const response = await uploadVideo(t.app, owner, project.videosUrl, fixtures.mjpegAvi);
    expect(response.statusCode).toBe(413);
    expect(response.json().errors).toMatch(/larger than the upload limit of 195\.3 KiB/);
    expect(await t.ctx.db.select().from(videos)).toEqual([]);
    expect(filesUnder(path.join(t.dataDir, 'tmp', 'uploads'))).toEqual([]);
  });

  it('reads the text fields whether they come before or after the file', async () => {
    const response = await uploadVideo(t.app, owner, project.videosUrl, fixtures.h264Mp4, {
      fields: { name: 'Fields last', recorded_at: '2026-02-03T04:05:06Z' },
      fieldsAfterFile: true,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ name: 'Fields last', recorded_at: '2026-02-03T04:05:06.000Z' });
    await t.app.inject({
      method: 'DELETE',
      url: `${project.videosUrl}${response.json().video_uuid}/`,
      headers: owner.headers,
    });
  });

  it('lists videos with pagination, search and ordering, for viewers too', async () => {
    const a = await upload('Alpha run');
    const b = await upload('Beta run');
    const c = await upload('Gamma test');

    const all = await t.app.inject({ method: 'GET', url: project.videosUrl, headers: viewer.headers });
    expect(all.statusCode).toBe(200);
    expect(all.json().count).toBe(3);
    // Newest first by default.
    expect(all.json().results.map((v: { video_uuid: string }) => v.video_uuid)).toEqual([
      c.video_uuid,
      b.video_uuid,
      a.video_uuid,
    ]);

    const page = await t.app.inject({
      method: 'GET',
      url: `${project.videosUrl}?ordering=name&page_size=2&page=1`,
      headers: owner.headers,
    });
    expect(page.json()).toMatchObject({ count: 3, previous: null });
    expect(page.json().results.map((v: { name: string }) => v.name)).toEqual(['Alpha run', 'Beta run']);
    expect(page.json().next).toContain('page=2');

    const search = await t.app.inject({
      method: 'GET',
      url: `${project.videosUrl}?search=RUN`,
      headers: owner.headers,
    });
    expect(
      search
        .json()
        .results.map((v: { name: string }) => v.name)
        .sort(),
    ).toEqual(['Alpha run', 'Beta run']);

    const badOrdering = await t.app.inject({
      method: 'GET',
      url: `${project.videosUrl}?ordering=colour`,
      headers: owner.headers,
    });
    expect(badOrdering.statusCode).toBe(400);
    expect(badOrdering.json().errors.ordering[0]).toMatch(/Unknown ordering/);

    const detail = await t.app.inject({
      method: 'GET',
      url: `${project.videosUrl}${a.video_uuid}/`,
      headers: viewer.headers,
    });
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ video_uuid: a.video_uuid, name: 'Alpha run', status: 'processing' });
    expect(detail.json().stream_url).toMatch(
      new RegExp(
        `/api/projects/${project.projectUuid}/subjects/${project.subjectUuid}/videos/${a.video_uuid}/stream/\\?token=`,
      ),
    );

    expect((await t.app.inject({ method: 'GET', url: project.videosUrl, headers: outsider.headers })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: 'GET', url: project.videosUrl })).statusCode).toBe(401);
    const missing = `${project.videosUrl}00000000-0000-4000-8000-000000000000/`;
    expect((await t.app.inject({ method: 'GET', url: missing, headers: owner.headers })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `${project.videosUrl}nope/`, headers: owner.headers })).statusCode,
    ).toBe(404);
    // A video is only found under its own subject.
    const otherSubject = await createSubjectRow(t.ctx, project.projectUuid);
    const elsewhere = `/api/projects/${project.projectUuid}/subjects/${otherSubject}/videos/${a.video_uuid}/`;
    expect((await t.app.inject({ method: 'GET', url: elsewhere, headers: owner.headers })).statusCode).toBe(404);
  });

  it('updates name and recorded_at with PATCH and PUT; viewers get 403', async () => {
    const video = await upload('Before');
    const url = `${project.videosUrl}${video.video_uuid}/`;
    const patched = await t.app.inject({
      method: 'PATCH',
      url,
      headers: owner.headers,
      payload: { recorded_at: '2026-01-02' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ name: 'Before', recorded_at: '2026-01-02T00:00:00.000Z' });

    const put = await t.app.inject({ method: 'PUT', url, headers: owner.headers, payload: { name: 'After' } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ name: 'After', recorded_at: '2026-01-02T00:00:00.000Z' });

    const blank = await t.app.inject({ method: 'PUT', url, headers: owner.headers, payload: { name: ' ' } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors.name).toEqual(['This field may not be blank.']);
    const noName = await t.app.inject({ method: 'PUT', url, headers: owner.headers, payload: {} });
    expect(noName.json().errors.name).toEqual(['This field is required.']);
    const badDate = await t.app.inject({
      method: 'PATCH',
      url,
      headers: owner.headers,
      payload: { recorded_at: 'soon' },
    });
    expect(badDate.statusCode).toBe(400);

    const forbidden = await t.app.inject({ method: 'PATCH', url, headers: viewer.headers, payload: { name: 'x' } });
    expect(forbidden.statusCode).toBe(403);
    const [row] = await t.ctx.db.select().from(videos).where(eq(videos.videoUuid, video.video_uuid));
    expect(row!.name).toBe('After');
  });

  it('moves a ready video to another subject of the project; its files stay where they are', async () => {
    const video = await upload('Mover');
    const url = `${project.videosUrl}${video.video_uuid}/`;
    const target = await createSubjectRow(t.ctx, project.projectUuid);

    const busy = await t.app.inject({
      method: 'PATCH',
      url,
      headers: owner.headers,
      payload: { subject_uuid: target },
    });
    expect(busy.statusCode).toBe(409);

    await t.ctx.db.update(videos).set({ status: 'ready' }).where(eq(videos.videoUuid, video.video_uuid));
    const unknown = await t.app.inject({
      method: 'PATCH',
      url,
      headers: owner.headers,
      payload: { subject_uuid: '00000000-0000-4000-8000-000000000000' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors.subject_uuid).toBeDefined();

    const moved = await t.app.inject({
      method: 'PATCH',
      url,
      headers: owner.headers,
      payload: { subject_uuid: target },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().subject_uuid).toBe(target);
    // Keys name the project and the video, not the subject: nothing on disk changes.
    expect(filesUnder(videoDir(video.video_uuid))).toEqual(['original.mp4']);
    expect(readFileSync(path.join(videoDir(video.video_uuid), 'original.mp4'))).toEqual(mp4);
    const newUrl = `/api/projects/${project.projectUuid}/subjects/${target}/videos/${video.video_uuid}/`;
    expect((await t.app.inject({ method: 'GET', url: newUrl, headers: owner.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url, headers: owner.headers })).statusCode).toBe(404);
  });

  it('deletes a video into the trash, and its files with the trash; viewers get 403', async () => {
    const video = await upload('Doomed');
    const url = `${project.videosUrl}${video.video_uuid}/`;
    expect(filesUnder(videoDir(video.video_uuid))).toEqual(['original.mp4']);
    expect((await t.app.inject({ method: 'DELETE', url, headers: viewer.headers })).statusCode).toBe(403);

    const deleted = await t.app.inject({ method: 'DELETE', url, headers: owner.headers });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect(await t.ctx.db.select().from(videos).where(eq(videos.videoUuid, video.video_uuid))).toEqual([]);
    expect(filesUnder(videoDir(video.video_uuid))).toEqual(['original.mp4']);
    await purgeTrash();
    expect(existsSync(videoDir(video.video_uuid))).toBe(false);
    expect(await t.ctx.db.select().from(pendingFileDeletions)).toEqual([]);
    expect((await t.app.inject({ method: 'DELETE', url, headers: owner.headers })).statusCode).toBe(404);
  });

  it('batch_destroy deletes all listed videos or none', async () => {
    const one = await upload('Batch one');
    const two = await upload('Batch two');
    const url = `${project.videosUrl}batch_destroy/`;
    const unknown = '00000000-0000-4000-8000-000000000000';

    const partial = await t.app.inject({
      method: 'POST',
      url,
      headers: owner.headers,
      payload: { video_uuids: [one.video_uuid, unknown] },
    });
    expect(partial.statusCode).toBe(400);
    expect(partial.json().errors.video_uuids[0]).toContain(unknown);
    expect(filesUnder(videoDir(one.video_uuid))).toEqual(['original.mp4']);
    expect(await t.ctx.db.select().from(videos).where(eq(videos.videoUuid, one.video_uuid))).toHaveLength(1);

    const malformed = await t.app.inject({
      method: 'POST',
      url,
      headers: owner.headers,
      payload: { video_uuids: ['x'] },
    });
    expect(malformed.statusCode).toBe(400);
    const empty = await t.app.inject({ method: 'POST', url, headers: owner.headers, payload: { video_uuids: [] } });
    expect(empty.statusCode).toBe(400);
    const byViewer = await t.app.inject({
      method: 'POST',
      url,
      headers: viewer.headers,
      payload: { video_uuids: [one.video_uuid] },
    });
    expect(byViewer.statusCode).toBe(403);

    const done = await t.app.inject({
      method: 'POST',
      url,
      headers: owner.headers,
      payload: { video_uuids: [one.video_uuid, two.video_uuid] },
    });
    expect(done.statusCode).toBe(204);
    await purgeTrash();
    expect(existsSync(videoDir(one.video_uuid))).toBe(false);
    expect(existsSync(videoDir(two.video_uuid))).toBe(false);
    const left = await t.ctx.db.select({ id: videos.videoUuid }).from(videos);
    expect(left.map((r) => r.id)).not.toContain(one.video_uuid);
    expect(left.map((r) => r.id)).not.toContain(two.video_uuid);
  });

  describe('stream/', () => {
    let video: { video_uuid: string; stream_url: string };
    let streamPath: string;
    let tokenQuery: string;

    beforeAll(async () => {
      video = await upload('Streamed');
      const url = new URL(video.stream_url);
      streamPath = url.pathname;
      tokenQuery = url.search;
    });

    it('serves the whole file (200) with the bearer header, and HEAD without a body', async () => {
      const full = await t.app.inject({ method: 'GET', url: streamPath, headers: owner.headers });
      expect(full.statusCode).toBe(200);
      expect(full.headers['accept-ranges']).toBe('bytes');
      expect(full.headers['content-type']).toBe('video/mp4');
      expect(Number(full.headers['content-length'])).toBe(mp4.length);
      expect(full.rawPayload).toEqual(mp4);

      const head = await t.app.inject({ method: 'HEAD', url: streamPath, headers: owner.headers });
      expect(head.statusCode).toBe(200);
      expect(Number(head.headers['content-length'])).toBe(mp4.length);
      expect(head.headers['accept-ranges']).toBe('bytes');
      expect(head.rawPayload.length).toBe(0);
    });

    it('answers Range requests with 206 and the exact bytes, via the signed token', async () => {
      const url = streamPath + tokenQuery;
      const middle = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=100-1099' } });
      expect(middle.statusCode).toBe(206);
      expect(middle.headers['content-range']).toBe(`bytes 100-1099/${mp4.length}`);
      expect(Number(middle.headers['content-length'])).toBe(1000);
      expect(middle.rawPayload).toEqual(mp4.subarray(100, 1100));

      const open = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${mp4.length - 10}-` } });
      expect(open.statusCode).toBe(206);
      expect(open.rawPayload).toEqual(mp4.subarray(mp4.length - 10));

      const suffix = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=-5' } });
      expect(suffix.statusCode).toBe(206);
      expect(suffix.headers['content-range']).toBe(`bytes ${mp4.length - 5}-${mp4.length - 1}/${mp4.length}`);

      const headRange = await t.app.inject({ method: 'HEAD', url, headers: { range: 'bytes=0-9' } });
      expect(headRange.statusCode).toBe(206);
      expect(headRange.headers['content-length']).toBe('10');

      const beyond = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${mp4.length}-` } });
      expect(beyond.statusCode).toBe(416);
      expect(beyond.headers['content-range']).toBe(`bytes */${mp4.length}`);
      expect(beyond.json().errors).toMatch(/outside the file/);
    });

    it('refuses a missing, wrong or other-video token with 401', async () => {
      expect((await t.app.inject({ method: 'GET', url: streamPath })).statusCode).toBe(401);
      const wrong = await t.app.inject({ method: 'GET', url: `${streamPath}?token=not-a-token` });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().errors).toMatch(/expired/);
      const otherVideo = await t.ctx.tokens.signStream(owner.id, '00000000-0000-4000-8000-000000000000');
      expect((await t.app.inject({ method: 'GET', url: `${streamPath}?token=${otherVideo}` })).statusCode).toBe(401);
      // An access token is not a stream token.
      expect((await t.app.inject({ method: 'GET', url: `${streamPath}?token=${owner.token}` })).statusCode).toBe(401);
      const expired = await t.ctx.tokens.signStream(owner.id, video.video_uuid, -10);
      expect((await t.app.inject({ method: 'GET', url: `${streamPath}?token=${expired}` })).statusCode).toBe(401);
    });

    it('answers 404 to non-members, also with a token issued before they left', async () => {
      expect((await t.app.inject({ method: 'GET', url: streamPath, headers: outsider.headers })).statusCode).toBe(404);
      const leaver = await createUser(t.ctx);
      await addMember(t.ctx, project.projectUuid, leaver.id, 'viewer');
      const token = await t.ctx.tokens.signStream(leaver.id, video.video_uuid);
      const before = await t.app.inject({
        method: 'GET',
        url: `${streamPath}?token=${token}`,
        headers: { range: 'bytes=0-0' },
      });
      expect(before.statusCode).toBe(206);
      await t.ctx.db.delete(memberships).where(eq(memberships.userId, leaver.id));
      expect((await t.app.inject({ method: 'GET', url: `${streamPath}?token=${token}` })).statusCode).toBe(404);
    });
  });
});
