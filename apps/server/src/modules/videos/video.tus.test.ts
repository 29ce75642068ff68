import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, type ProjectWithSubject, waitForVideo } from '../../../test/factories-videos.js';
import { AVI_FIXTURE, type VideoFixtures, videoFixtures } from '../../../test/fixtures/videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { videos } from '../../db/schema.js';
import { videoKeys } from '../../lib/storage-keys.js';
import { cleanUpAbandonedUploads, UPLOAD_EXPIRY_MS } from './video.service.js';

const b64 = (value: string) => Buffer.from(value).toString('base64');
const metadataHeader = (meta: Record<string, string>) =>
  Object.entries(meta)
    .map(([key, value]) => `${key} ${b64(value)}`)
    .join(',');

describe('resumable uploads (tus) at /api/uploads/', () => {
  let t: TestApp;
  let owner: TestUser;
  let fixtures: VideoFixtures;
  let project: ProjectWithSubject;
  const tusDir = () => path.join(t.dataDir, 'tmp', 'tus');

  /** Starts an upload the way tus-js-client does; returns the raw answer. */
  function create(user: TestUser | null, length: number, meta: Record<string, string>) {
    return fetch(`${t.url}/api/uploads/`, {
      method: 'POST',
      headers: {
        ...(user ? user.headers : {}),
        'tus-resumable': '1.0.0',
        'upload-length': String(length),
        'upload-metadata': metadataHeader(meta),
      },
    });
  }

  function patch(user: TestUser, location: string, offset: number, chunk: Buffer) {
    return fetch(location, {
      method: 'PATCH',
      headers: {
        ...user.headers,
        'tus-resumable': '1.0.0',
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
      },
      body: chunk,
    });
  }

  const metaFor = (filename: string, extra: Record<string, string> = {}) => ({
    project_uuid: project.projectUuid,
    subject_uuid: project.subjectUuid,
    filename,
    ...extra,
  });

  beforeAll(async () => {
    fixtures = videoFixtures();
    t = await createTestApp({ listen: true, workers: true, config: { maxUploadBytes: 1_000_000 } });
    owner = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
  });
  afterAll(() => t.close());

  it('uploads an AVI in two parts, resuming from HEAD, then processes it like a multipart upload', async () => {
    const file = readFileSync(fixtures.mjpegAvi);
    const created = await create(owner, file.length, metaFor('cage 3.avi', { name: 'Cage 3 night' }));
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(/\/api\/uploads\/[0-9a-f-]{36}$/);
    const videoUuid = location.split('/').pop()!;

    const half = Math.floor(file.length / 2);
    const first = await patch(owner, location, 0, file.subarray(0, half));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe(String(half));

    // While the bytes come in, the subject's list shows the video as uploading.
    const listing = await fetch(`${t.url}${project.videosUrl}`, { headers: owner.headers });
    const { results } = (await listing.json()) as { results: { video_uuid: string }[] };
    const uploading = results.find((v) => v.video_uuid === videoUuid);
    expect(uploading).toMatchObject({ status: 'uploading', name: 'Cage 3 night', size_bytes: file.length });

    const head = await fetch(location, { method: 'HEAD', headers: { ...owner.headers, 'tus-resumable': '1.0.0' } });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBe(half);

    const last = await patch(owner, location, offset, file.subarray(offset));
    expect(last.status).toBe(204);
    expect(last.headers.get('x-video-uuid')).toBe(videoUuid);

    const ready = await waitForVideo(t.app, owner, `${project.videosUrl}${videoUuid}/`);
    expect(ready).toMatchObject({
      status: 'ready',
      name: 'Cage 3 night',
      original_filename: 'cage 3.avi',
      codec: 'mjpeg',
      frame_count: AVI_FIXTURE.frames,
      playback: 'copy',
    });
    const stored = path.join(
      t.dataDir,
      'files',
      videoKeys({ projectUuid: project.projectUuid, videoUuid }, '.avi').original,
    );
    expect(readFileSync(stored)).toEqual(file);
    expect(readdirSync(tusDir())).toEqual([]);
  });

  it('rejects a finished upload that is not a video: 400 in the usual shape, nothing kept', async () => {
    const text = readFileSync(fixtures.textMp4);
    const created = await create(owner, text.length, metaFor('notes.mp4'));
    const location = created.headers.get('location')!;
    const videoUuid = location.split('/').pop()!;
    const done = await patch(owner, location, 0, text);
    expect(done.status).toBe(400);
    expect(await done.json()).toEqual({ errors: { file: ['The file is not a video that can be read.'] } });
    expect(await t.ctx.db.select().from(videos).where(eq(videos.videoUuid, videoUuid))).toEqual([]);
    expect(readdirSync(tusDir())).toEqual([]);
    const videoDir = path.join(
      t.dataDir,
      'files',
      'projects',
      project.projectUuid,
      'subjects',
      project.subjectUuid,
      'videos',
      videoUuid,
    );
    expect(existsSync(videoDir)).toBe(false);
  });

  it('checks the caller, the project role, the metadata, the type and the size at creation', async () => {
    const unauthenticated = await create(null, 10, metaFor('a.mp4'));
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toEqual({ errors: 'Authentication credentials were not provided.' });

    const viewer = await createUser(t.ctx);
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    expect((await create(viewer, 10, metaFor('a.mp4'))).status).toBe(403);
    const outsider = await createUser(t.ctx);
    expect((await create(outsider, 10, metaFor('a.mp4'))).status).toBe(404);

    const noSubject = await create(owner, 10, { project_uuid: project.projectUuid, filename: 'a.mp4' });
    expect(noSubject.status).toBe(400);
    expect(((await noSubject.json()) as { errors: Record<string, string[]> }).errors.subject_uuid).toBeDefined();
    expect((await create(owner, 10, metaFor('a.docx'))).status).toBe(415);

    const tooBig = await create(owner, 1_000_001, metaFor('a.mp4'));
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as { errors: string }).errors).toMatch(/upload limit/);

    // None of the refused uploads left a row.
    const rows = await t.ctx.db.select().from(videos).where(eq(videos.status, 'uploading'));
    expect(rows).toEqual([]);
  });

  it('lets only the uploader continue an upload, and cancelling it removes the row', async () => {
    const created = await create(owner, 1000, metaFor('later.mp4'));
    const location = created.headers.get('location')!;
    const videoUuid = location.split('/').pop()!;
    const member = await createUser(t.ctx);
    await addMember(t.ctx, project.projectUuid, member.id, 'member');
    expect((await patch(member, location, 0, Buffer.alloc(10))).status).toBe(404);

    const cancelled = await fetch(location, {
      method: 'DELETE',
      headers: { ...owner.headers, 'tus-resumable': '1.0.0' },
    });
    expect(cancelled.status).toBe(204);
    await expect.poll(async () => t.ctx.db.select().from(videos).where(eq(videos.videoUuid, videoUuid))).toEqual([]);
    expect(readdirSync(tusDir())).toEqual([]);
  });

  it('forgets uploads abandoned for a week: their rows and parts', async () => {
    const row = (name: string, age: number) => ({
      projectUuid: project.projectUuid,
      subjectUuid: project.subjectUuid,
      name,
      originalFilename: `${name}.mp4`,
      status: 'uploading' as const,
      updatedAt: new Date(Date.now() - age),
    });
    const [stale] = await t.ctx.db
      .insert(videos)
      .values(row('stale', UPLOAD_EXPIRY_MS + 60_000))
      .returning();
    const [fresh] = await t.ctx.db.insert(videos).values(row('fresh', 60_000)).returning();
    mkdirSync(tusDir(), { recursive: true });
    writeFileSync(path.join(tusDir(), stale!.videoUuid), 'partial bytes');
    writeFileSync(path.join(tusDir(), `${stale!.videoUuid}.json`), '{}');

    expect(await cleanUpAbandonedUploads(t.ctx)).toBe(1);
    expect(await t.ctx.db.select().from(videos).where(eq(videos.videoUuid, stale!.videoUuid))).toEqual([]);
    expect(await t.ctx.db.select().from(videos).where(eq(videos.videoUuid, fresh!.videoUuid))).toHaveLength(1);
    expect(readdirSync(tusDir())).toEqual([]);
  });
});
