import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/factories.js';
import { createProjectWithSubject, uploadVideo, waitForVideo } from '../../../test/factories-videos.js';
import { analysisFixtures, JUMPS_FIXTURE } from '../../../test/fixtures/videos.js';
import { startTestS3, type TestS3 } from '../../../test/s3-server.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';

/**
 * The scaled shape's storage: ffmpeg reads the video from the bucket through a presigned URL (seeking with
 * range requests), so segments never download the whole file.
 */
describe('analysis on S3 storage', () => {
  let s3: TestS3;
  let t: TestApp;

  beforeAll(async () => {
    s3 = await startTestS3();
    t = await createTestApp({
      workers: true,
      config: { analysisWorkers: 2, analysisSegmentSeconds: 1 },
      env: s3.env,
    });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('runs segmented movement detection and a preview straight from the bucket', async () => {
    expect(t.ctx.storage.kind).toBe('s3');
    const owner = await createUser(t.ctx);
    const project = await createProjectWithSubject(t.ctx, owner);
    const uploaded = await uploadVideo(t.app, owner, project.videosUrl, analysisFixtures().jumpsMp4);
    const videoUrl = `${project.videosUrl}${uploaded.json().video_uuid}/`;
    expect((await waitForVideo(t.app, owner, videoUrl)).status).toBe('ready');
    const analysisUrl = `${videoUrl}analysis/`;
    const parameters = { rois: [{ start_s: 0, ...JUMPS_FIXTURE.leftRoi }] };
    const created = await t.app.inject({
      method: 'POST',
      url: analysisUrl,
      headers: owner.headers,
      payload: { kind: 'movement_detection', parameters },
    });
    expect(created.statusCode).toBe(201);
    const uuid = created.json().analysis_uuid;
    let run = created.json();
    const deadline = Date.now() + 60_000;
    while ((run.status === 'queued' || run.status === 'running') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      run = (await t.app.inject({ method: 'GET', url: `${analysisUrl}${uuid}/`, headers: owner.headers })).json();
    }
    expect(run.error).toBeNull();
    expect(run).toMatchObject({ status: 'succeeded', summary: { samples: JUMPS_FIXTURE.frames, events: 3 } });
    const preview = await t.app.inject({
      method: 'POST',
      url: `${analysisUrl}create-preview/`,
      headers: owner.headers,
      payload: { parameters, start_s: 1.5, length_s: 1 },
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().events).toHaveLength(1);
  });
});
