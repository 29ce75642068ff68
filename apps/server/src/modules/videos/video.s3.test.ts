import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
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

    // Thumbnails come straight from the bucket through a presigned URL.
    expect(ready.thumbnail_url).toContain('X-Amz-Signature=');
    const thumbnail = await fetch(ready.thumbnail_url);
    expect(thumbnail.status).toBe(200);
    expect(Buffer.from(await thumbnail.arrayBuffer()).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));

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
