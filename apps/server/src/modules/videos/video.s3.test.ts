import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import {
  createProjectWithSubject,
  type ProjectWithSubject,
  uploadVideo,
  waitForVideo,
} from '../../../test/factories-videos.js';
import { AVI_FIXTURE, type VideoFixtures, videoFixtures } from '../../../test/fixtures/videos.js';
import { startTestS3, type TestS3 } from '../../../test/s3-server.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { videoStoragePrefix } from '../../lib/storage-keys.js';

/** The same video pipeline with S3_* set: files in a bucket of a local S3-compatible server (s3rver). */
describe('videos on S3 storage', () => {
  let s3: TestS3;
  let t: TestApp;
  let owner: TestUser;
  let fixtures: VideoFixtures;
  let project: ProjectWithSubject;

  beforeAll(async () => {
    fixtures = videoFixtures();
    s3 = await startTestS3();
    t = await createTestApp({
      workers: true,
      env: s3.env,
    });
    owner = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
  });
  afterAll(async () => {
    await t.close();
    await s3?.close();
  });

  it('uploads, processes, streams and deletes an AVI with every file in the bucket', async () => {
    expect(t.ctx.storage.kind).toBe('s3');
    const response = await uploadVideo(t.app, owner, project.videosUrl, fixtures.mjpegAvi);
    expect(response.statusCode).toBe(201);
    const videoUuid: string = response.json().video_uuid;
    const prefix = videoStoragePrefix({ projectUuid: project.projectUuid, videoUuid });
    expect(await t.ctx.storage.stat(`${prefix}original.avi`)).toEqual({ size: readFileSync(fixtures.mjpegAvi).length });

    const ready = await waitForVideo(t.app, owner, `${project.videosUrl}${videoUuid}/`);
    expect(ready).toMatchObject({ status: 'ready', playback: 'copy', frame_count: AVI_FIXTURE.frames });
    const copy = await t.ctx.storage.stat(`${prefix}playback.mp4`);
    expect(copy?.size).toBeGreaterThan(1000);

    // Thumbnails are served by the app, which checks membership on every request and streams from the bucket:
    // no presigned bucket URL is ever handed out.
    expect(ready.thumbnail_url).toMatch(new RegExp(`^${t.ctx.config.publicUrl}/api/files/`));
    expect(ready.thumbnail_url).not.toContain('X-Amz-');
    const thumbnail = await t.app.inject({ method: 'GET', url: new URL(ready.thumbnail_url).pathname });
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers.location).toBeUndefined();
    expect(thumbnail.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));

    const stream = new URL(ready.stream_url);
    const ranged = await t.app.inject({
      method: 'GET',
      url: stream.pathname + stream.search,
      headers: { range: 'bytes=4-11' },
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes 4-11/${copy!.size}`);
    // An MP4 starts with its ftyp box: bytes 4-7 are "ftyp".
    expect(ranged.rawPayload.subarray(0, 4).toString('latin1')).toBe('ftyp');
    expect(ranged.rawPayload.length).toBe(8);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `${project.videosUrl}${videoUuid}/`,
      headers: owner.headers,
    });
    expect(deleted.statusCode).toBe(204);
    expect(await t.ctx.storage.stat(`${prefix}original.avi`)).not.toBeNull();
    const emptied = await t.app.inject({
      method: 'DELETE',
      url: `/api/projects/${project.projectUuid}/trash/`,
      headers: owner.headers,
    });
    expect(emptied.statusCode).toBe(200);
    for (const name of ['original.avi', 'playback.mp4', 'thumbnail.jpg']) {
      expect(await t.ctx.storage.stat(prefix + name)).toBeNull();
    }
  });

  it("refuses a removed member's thumbnail URL at once; a member's still works", async () => {
    const response = await uploadVideo(t.app, owner, project.videosUrl, fixtures.mjpegAvi);
    expect(response.statusCode).toBe(201);
    const videoUrl = `${project.videosUrl}${response.json().video_uuid}/`;
    await waitForVideo(t.app, owner, videoUrl);
    const viewer = await createUser(t.ctx);
    const leaver = await createUser(t.ctx);
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    await addMember(t.ctx, project.projectUuid, leaver.id, 'member');
    const thumbnailOf = async (user: TestUser) => {
      const video = await t.app.inject({ method: 'GET', url: videoUrl, headers: user.headers });
      return new URL(video.json().thumbnail_url as string).pathname;
    };
    const viewers = await thumbnailOf(viewer);
    const leavers = await thumbnailOf(leaver);
    for (const url of [viewers, leavers]) expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/projects/${project.projectUuid}/members/${leaver.id}/`,
      headers: owner.headers,
    });
    expect(removed.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: leavers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: viewers })).statusCode).toBe(200);

    // Deleted and purged, so the bucket is empty again for the next test.
    expect((await t.app.inject({ method: 'DELETE', url: videoUrl, headers: owner.headers })).statusCode).toBe(204);
    const trash = `/api/projects/${project.projectUuid}/trash/`;
    expect((await t.app.inject({ method: 'DELETE', url: trash, headers: owner.headers })).statusCode).toBe(200);
  });

  it('rejects an unreadable file without writing to the bucket', async () => {
    const response = await uploadVideo(t.app, owner, project.videosUrl, fixtures.truncatedMp4);
    expect(response.statusCode).toBe(400);
    const list = await t.app.inject({ method: 'GET', url: project.videosUrl, headers: owner.headers });
    expect(list.json().count).toBe(0);
    // s3rver keeps each object as "<key>._S3rver_object" on disk: the bucket holds none.
    const objects = readdirSync(path.join(s3.dir, s3.bucket), { recursive: true }).filter((f) =>
      String(f).endsWith('._S3rver_object'),
    );
    expect(objects).toEqual([]);
  });
});
