import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import {
  createProjectWithSubject,
  type ProjectWithSubject,
  uploadVideo,
  waitForVideo,
} from '../../../test/factories-videos.js';
import { AVI_FIXTURE, H264_FIXTURE, type VideoFixtures, videoFixtures } from '../../../test/fixtures/videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import type { Media } from '../../adapters/media/media.js';
import { videos } from '../../db/schema.js';
import { videoKeys, videoStoragePrefix } from '../../lib/storage-keys.js';
import { processVideoJob } from './video.jobs.js';

/** Every file under a folder, relative to it (empty when the folder does not exist). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

describe('video upload and processing', () => {
  let t: TestApp;
  let owner: TestUser;
  let fixtures: VideoFixtures;
  let project: ProjectWithSubject;

  beforeAll(async () => {
    fixtures = videoFixtures();
    t = await createTestApp({ workers: true });
    owner = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
  });
  afterAll(() => t.close());

  it('rejects a truncated file and a text file renamed .mp4 with 400, storing nothing', async () => {
    const truncated = await uploadVideo(t.app, owner, project.videosUrl, fixtures.truncatedMp4);
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json().errors.file[0]).toMatch(/incomplete/);

    const text = await uploadVideo(t.app, owner, project.videosUrl, fixtures.textMp4);
    expect(text.statusCode).toBe(400);
    expect(text.json()).toEqual({ errors: { file: ['The file is not a video that can be read.'] } });

    expect(await t.ctx.db.select().from(videos)).toEqual([]);
    expect(filesUnder(path.join(t.dataDir, 'files'))).toEqual([]);
    expect(filesUnder(path.join(t.dataDir, 'tmp', 'uploads'))).toEqual([]);
  });

  it('refuses other file types (415), a missing file (400) and a non-multipart body (415)', async () => {
    const txt = await uploadVideo(t.app, owner, project.videosUrl, fixtures.textMp4, { filename: 'notes.txt' });
    expect(txt.statusCode).toBe(415);
    expect(txt.json().errors).toMatch(/not a supported video file/);

    const boundary = 'xyz';
    const noFile = await t.app.inject({
      method: 'POST',
      url: project.videosUrl,
      headers: { ...owner.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--${boundary}--\r\n`,
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toEqual({ errors: { file: ['No file was submitted.'] } });

    const json = await t.app.inject({ method: 'POST', url: project.videosUrl, headers: owner.headers, payload: {} });
    expect(json.statusCode).toBe(415);
    expect(await t.ctx.db.select().from(videos)).toEqual([]);
  });

  it('rejects an invalid recorded_at and keeps nothing', async () => {
    const response = await uploadVideo(t.app, owner, project.videosUrl, fixtures.h264Mp4, {
      fields: { recorded_at: 'yesterday' },
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().errors)).toEqual(['recorded_at']);
    expect(await t.ctx.db.select().from(videos)).toEqual([]);
    expect(filesUnder(path.join(t.dataDir, 'tmp', 'uploads'))).toEqual([]);
  });

  it('uploads an H.264 MP4: probed facts at once, then a thumbnail and ready without a copy', async () => {
    const response = await uploadVideo(t.app, owner, project.videosUrl, fixtures.h264Mp4, {
      fields: { name: 'Open field day 1', recorded_at: '2026-03-01T09:30:00Z' },
    });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({
      subject_uuid: project.subjectUuid,
      project_uuid: project.projectUuid,
      name: 'Open field day 1',
      original_filename: 'testsrc-h264.mp4',
      status: 'processing',
      codec: 'h264',
      width: H264_FIXTURE.width,
      height: H264_FIXTURE.height,
      fps: H264_FIXTURE.fps,
      frame_count: H264_FIXTURE.frames,
      duration_s: H264_FIXTURE.seconds,
      recorded_at: '2026-03-01T09:30:00.000Z',
      thumbnail_url: null,
      error: null,
    });
    expect(created.size_bytes).toBeGreaterThan(1000);
    expect(created.container).toContain('mp4');
    expect(created.job).toMatchObject({ state: expect.any(String) });

    const url = `${project.videosUrl}${created.video_uuid}/`;
    // The row turns ready just before pg-boss records the job as completed: wait for both.
    const ready = await waitForVideo(
      t.app,
      owner,
      url,
      (v) =>
        v.status === 'failed' ||
        (v.status === 'ready' && (v as { job?: { state: string } }).job?.state === 'completed'),
    );
    expect(ready.status).toBe('ready');
    expect(ready.playback).toBe('original');
    expect(ready.job).toMatchObject({ state: 'completed', attempts: 1 });
    // Lists skip the job queue for finished videos (no lookup per row); the video's own page still shows it.
    const listed = await t.app.inject({ method: 'GET', url: project.videosUrl, headers: owner.headers });
    const row = listed.json().results.find((v: { video_uuid: string }) => v.video_uuid === created.video_uuid);
    expect(row).toMatchObject({ status: 'ready', job: null });

    const prefix = videoStoragePrefix({ projectUuid: project.projectUuid, videoUuid: created.video_uuid });
    expect(filesUnder(path.join(t.dataDir, 'files', prefix)).sort()).toEqual(['original.mp4', 'thumbnail.jpg']);
    const thumbnail = await t.app.inject({ method: 'GET', url: new URL(ready.thumbnail_url).pathname });
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/jpeg');
    expect(thumbnail.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    // Its width, read by ffprobe itself (the app's probe refuses images: they are no video container).
    const width = execFileSync(t.ctx.media.binaries.ffprobe, [
      ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width', '-of', 'csv=p=0'],
      path.join(t.dataDir, 'files', prefix, 'thumbnail.jpg'),
    ]);
    expect(Number(width.toString().trim())).toBe(320);
  });

  it('uploads an MJPEG AVI and makes an H.264 MP4 playback copy with the same frame timing', async () => {
    const response = await uploadVideo(t.app, owner, project.videosUrl, fixtures.mjpegAvi);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ codec: 'mjpeg', container: 'avi', name: 'testsrc-mjpeg' });
    const url = `${project.videosUrl}${response.json().video_uuid}/`;
    const ready = await waitForVideo(t.app, owner, url);
    expect(ready).toMatchObject({ status: 'ready', playback: 'copy', fps: AVI_FIXTURE.fps, frame_count: 50 });

    const [row] = await t.ctx.db.select().from(videos).where(eq(videos.videoUuid, ready.video_uuid));
    expect(row!.playbackKey).toMatch(/\/playback\.mp4$/);
    expect(row!.derivedBytes).toBeGreaterThan(0);
    const copy = await t.ctx.media.probe(path.join(t.dataDir, 'files', row!.playbackKey!));
    expect(copy.codec).toBe('h264');
    expect(copy.fps).toBe(AVI_FIXTURE.fps);
    expect(copy.frameCount).toBe(AVI_FIXTURE.frames);
    expect(copy.durationS).toBeCloseTo(AVI_FIXTURE.seconds, 2);

    const stream = await t.app.inject({
      method: 'HEAD',
      url: new URL(ready.stream_url).pathname + new URL(ready.stream_url).search,
    });
    expect(stream.statusCode).toBe(200);
    expect(stream.headers['content-type']).toBe('video/mp4');
    expect(Number(stream.headers['content-length'])).toBe(copy.sizeBytes);
  });

  it('lets a viewer upload nothing (403) and hides the project from outsiders (404)', async () => {
    const viewer = await createUser(t.ctx);
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    const outsider = await createUser(t.ctx);
    expect((await uploadVideo(t.app, viewer, project.videosUrl, fixtures.h264Mp4)).statusCode).toBe(403);
    expect((await uploadVideo(t.app, outsider, project.videosUrl, fixtures.h264Mp4)).statusCode).toBe(404);
    const unknownSubject = project.videosUrl.replace(project.subjectUuid, '00000000-0000-4000-8000-000000000000');
    expect((await uploadVideo(t.app, owner, unknownSubject, fixtures.h264Mp4)).statusCode).toBe(404);
    const unauthenticated = await t.app.inject({ method: 'POST', url: project.videosUrl });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it('marks a video failed when its original is missing, and a job for a deleted video exits quietly', async () => {
    const [row] = await t.ctx.db
      .insert(videos)
      .values({
        projectUuid: project.projectUuid,
        subjectUuid: project.subjectUuid,
        name: 'lost',
        originalFilename: 'lost.mp4',
        status: 'processing',
        originalKey: videoKeys({ projectUuid: project.projectUuid, videoUuid: 'x' }, '.mp4').original,
      })
      .returning();
    const jobId = await t.ctx.jobs.send(processVideoJob, { videoUuid: row!.videoUuid });
    await t.ctx.db.update(videos).set({ processingJobId: jobId }).where(eq(videos.videoUuid, row!.videoUuid));
    const failed = await waitForVideo(t.app, owner, `${project.videosUrl}${row!.videoUuid}/`);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/original file is missing/);

    await expect(
      processVideoJob.handle(
        t.ctx,
        { videoUuid: '00000000-0000-4000-8000-000000000000' },
        { id: 'x', isFinalAttempt: true },
      ),
    ).resolves.toBeUndefined();
  });

  it('retries ffmpeg failures and records the reason only on the final attempt', async () => {
    const response = await uploadVideo(t.app, owner, project.videosUrl, fixtures.h264Mp4);
    const video = await waitForVideo(t.app, owner, `${project.videosUrl}${response.json().video_uuid}/`);
    expect(video.status).toBe('ready');
    const brokenMedia: Media = {
      ...t.ctx.media,
      binaries: t.ctx.media.binaries,
      probe: (file, signal) => t.ctx.media.probe(file, signal),
      thumbnail: async () => {
        const { ProcessError } = await import('../../adapters/media/run-process.js');
        throw new ProcessError('ffmpeg exited with code 1', 1, '[mjpeg @ 0x1] Error while encoding: out of memory');
      },
    };
    const ctx = { ...t.ctx, media: brokenMedia };
    const payload = { videoUuid: video.video_uuid };
    await expect(processVideoJob.handle(ctx, payload, { id: 'a', isFinalAttempt: false })).rejects.toThrow();
    const [afterFirst] = await t.ctx.db.select().from(videos).where(eq(videos.videoUuid, video.video_uuid));
    expect(afterFirst!.status).toBe('ready');
    await expect(processVideoJob.handle(ctx, payload, { id: 'a', isFinalAttempt: true })).rejects.toThrow();
    const [afterLast] = await t.ctx.db.select().from(videos).where(eq(videos.videoUuid, video.video_uuid));
    expect(afterLast!.status).toBe('failed');
    expect(afterLast!.error).toBe('Processing the video failed: Error while encoding: out of memory');
  });
});
